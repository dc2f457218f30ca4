import { asc, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import {
	assignment,
	assignmentCandidate,
	candidate,
	studyPhysician,
	studyPhysicianQuestion,
	studyQuestion
} from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { claimNext, getAssignmentView, listOpenStudiesFor } from './queue';
import { changeStudyState, createStudy } from './studies';
import { questionOrder, seededShuffle } from './shuffle';

const MODELS = ['alpha-7b', 'beta-13b', 'gamma-3b', 'delta-1b', 'eps-2b', 'zeta-4b', 'eta-5b'];

describeEachDb('ranking queue', (h) => {
	let organiser: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
	});

	/** Opens a study of `count` questions after creating its `physicians` (k of them by default). */
	async function openStudy(count: number, k: number, models = MODELS.slice(0, 3), physicians = k) {
		const doctors = await insertUsers(h.db, physicians, ['physician']);
		const { modelIds } = await seedRankingContent(h.db, { count, models });
		const study = await createStudy(
			h.db,
			{ name: `S${count}-${k}`, selection: { types: [] }, modelIds, ratersPerQuestion: k },
			organiser,
			// k = 1 leaves agreement undefined: the organiser confirms that warning.
			{ confirm: k < 2 }
		);
		await changeStudyState(h.db, study.id, 'open', organiser, { confirm: k < 2 });
		return { studyId: study.id, doctors };
	}

	async function assigned(publicId: string) {
		const [a] = await h.db.select().from(assignment).where(eq(assignment.publicId, publicId));
		return a;
	}

	// Sequential claims: concurrent ones may skip a locked question (see the concurrency test).
	const claimEach = async (studyId: number, doctors: string[]) => {
		const out = [];
		for (const d of doctors) out.push(await claimNext(h.db, studyId, d));
		return out;
	};

	it('never gives a question to more than k physicians, nor twice to one', async () => {
		const { studyId, doctors } = await openStudy(2, 2, undefined, 3);
		const first = await claimEach(studyId, doctors);
		const questions = await Promise.all(
			first.map(async (r) =>
				r.status === 'assigned' ? (await assigned(r.publicId)).studyQuestionId : null
			)
		);
		// 4 slots for 3 physicians: all get a question, one question is then full.
		expect(questions.every((q) => q !== null)).toBe(true);
		const full = questions.find((q) => questions.filter((o) => o === q).length === 2)!;
		const lone = questions.findIndex((q) => q !== full);
		expect(lone).toBeGreaterThanOrEqual(0);
		// Mark everything submitted so the physicians ask again.
		await h.db.update(assignment).set({ state: 'submitted', leaseExpiresAt: null });
		const second = await claimEach(studyId, doctors);
		// One slot is left, on the question only one physician had: one of the other two gets it,
		// the physician who had it does not, and then nothing is left.
		const winners = second.filter((r) => r.status === 'assigned');
		expect(winners).toHaveLength(1);
		expect(second[lone]).toEqual({ status: 'none', reason: 'exhausted' });
		const all = await h.db.select().from(assignment);
		for (const q of new Set(all.map((a) => a.studyQuestionId))) {
			const on = all.filter((a) => a.studyQuestionId === q).map((a) => a.physicianId);
			expect(new Set(on).size).toBe(2);
			expect(on).toHaveLength(2);
		}
		const slots = await h.db.select().from(studyQuestion).orderBy(asc(studyQuestion.id));
		expect(slots.map((s) => s.openSlots)).toEqual([0, 0]);
	});

	it('keeps the lease on reload and returns expired leases to the queue', async () => {
		const {
			studyId,
			doctors: [a, b]
		} = await openStudy(1, 1, undefined, 2);
		const t0 = new Date();
		const first = await claimNext(h.db, studyId, a, t0);
		expect(first).toMatchObject({ status: 'assigned', resumed: false });
		const reload = await claimNext(h.db, studyId, a, new Date(t0.getTime() + 60_000));
		expect(reload).toEqual({ ...first, resumed: true });
		expect(await claimNext(h.db, studyId, b, t0)).toEqual({ status: 'none', reason: 'exhausted' });
		// 31 minutes later the 30-minute lease has expired: b gets the question, a never again.
		const later = new Date(t0.getTime() + 31 * 60_000);
		const taken = await claimNext(h.db, studyId, b, later);
		expect(taken).toMatchObject({ status: 'assigned', resumed: false });
		if (first.status !== 'assigned') throw new Error('unreachable');
		expect((await assigned(first.publicId)).state).toBe('expired');
		expect(await claimNext(h.db, studyId, a, later)).toEqual({
			status: 'none',
			reason: 'exhausted'
		});
		const [listed] = await listOpenStudiesFor(h.db, b);
		expect(listed).toMatchObject({ id: studyId, questions: 1, ranked: 0, available: 0 });
	});

	it('hands out nothing while the study is paused', async () => {
		const {
			studyId,
			doctors: [a]
		} = await openStudy(1, 1);
		await changeStudyState(h.db, studyId, 'pause', organiser);
		expect(await claimNext(h.db, studyId, a)).toEqual({ status: 'none', reason: 'not_open' });
	});

	it('stores a seed that reproduces the displayed order, which differs between physicians', async () => {
		const { studyId, doctors } = await openStudy(1, 8, MODELS);
		const orders: string[] = [];
		for (const d of doctors) {
			const r = await claimNext(h.db, studyId, d);
			if (r.status !== 'assigned') throw new Error('expected an assignment');
			const a = await assigned(r.publicId);
			const shown = await h.db
				.select()
				.from(assignmentCandidate)
				.where(eq(assignmentCandidate.assignmentId, a.id))
				.orderBy(asc(assignmentCandidate.position));
			const ids = (
				await h.db.select({ id: candidate.id }).from(candidate).orderBy(asc(candidate.id))
			).map((c) => c.id);
			expect(shown).toHaveLength(8);
			expect(shown.map((s) => s.candidateId)).toEqual(seededShuffle(ids, a.seed));
			// Candidate ids shown to physicians are opaque and differ per assignment.
			expect(shown.every((s) => /^[a-z2-9]{12}$/.test(s.publicId))).toBe(true);
			orders.push(shown.map((s) => s.candidateId).join());
		}
		expect(new Set(orders).size).toBeGreaterThan(1);
	});

	it('shows the physician letters and texts only, never model names or the reference flag', async () => {
		const { modelIds } = await seedRankingContent(h.db, {
			count: 2,
			models: MODELS.slice(0, 2),
			types: ['multi_hop_inverse', 'short_inverse']
		});
		const [a] = await insertUsers(h.db, 3, ['physician']);
		const study = await createStudy(
			h.db,
			{ name: 'Blind', selection: { types: [] }, modelIds },
			organiser
		);
		await changeStudyState(h.db, study.id, 'open', organiser);
		for (let i = 0; i < 2; i++) {
			const r = await claimNext(h.db, study.id, a);
			if (r.status !== 'assigned') throw new Error('expected an assignment');
			const view = await getAssignmentView(h.db, r.publicId, a);
			expect(view!.candidates.map((c) => c.label)).toEqual([
				'Response A',
				'Response B',
				'Response C'
			]);
			const json = JSON.stringify(view);
			for (const word of [...MODELS, 'reference', 'isReference', 'modelId', 'responseId'])
				expect(json.toLowerCase()).not.toContain(word.toLowerCase());
			expect(view!.question.falseAnswer).toBeTruthy();
			expect(await getAssignmentView(h.db, r.publicId, organiser)).toBeNull();
			await h.db.update(assignment).set({ state: 'submitted', leaseExpiresAt: null });
		}
	});

	/** Claims until exhausted, submitting each; the study question ids in the order received. */
	async function claimAll(studyId: number, physician: string) {
		const got: number[] = [];
		for (;;) {
			const r = await claimNext(h.db, studyId, physician);
			if (r.status !== 'assigned') return got;
			const a = await assigned(r.publicId);
			expect(a.presentationPosition).toBe(got.length + 1);
			got.push(a.studyQuestionId);
			await h.db
				.update(assignment)
				.set({ state: 'submitted', leaseExpiresAt: null })
				.where(eq(assignment.id, a.id));
		}
	}

	it('gives each physician their own seeded question order, stored and reproducible', async () => {
		const { studyId, doctors } = await openStudy(8, 2);
		const questionIds = (
			await h.db.select({ id: studyQuestion.id }).from(studyQuestion).orderBy(studyQuestion.id)
		).map((q) => q.id);
		const orders: number[][] = [];
		for (const d of doctors) {
			const got = await claimAll(studyId, d);
			const [{ orderSeed }] = await h.db
				.select()
				.from(studyPhysician)
				.where(eq(studyPhysician.physicianId, d));
			// Every question once, in exactly the order the stored seed gives.
			expect(got).toEqual(questionOrder(questionIds, orderSeed));
			expect([...got].sort((a, b) => a - b)).toEqual(questionIds);
			orders.push(got);
		}
		expect(orders[0]).not.toEqual(orders[1]);
		expect(orders[0]).not.toEqual(questionIds);
		// The same seed gives the same order; another seed another one.
		expect(questionOrder(questionIds, 'seed-1')).toEqual(questionOrder(questionIds, 'seed-1'));
		expect(questionOrder(questionIds, 'seed-1')).not.toEqual(questionOrder(questionIds, 'seed-2'));
	});

	it('offers only questions with open slots, in seeded order, and reopens a question whose lease expired', async () => {
		const { studyId, doctors } = await openStudy(10, 1, undefined, 2);
		const [first, second] = doctors;
		const questionIds = (
			await h.db.select({ id: studyQuestion.id }).from(studyQuestion).orderBy(studyQuestion.id)
		).map((q) => q.id);
		// The first physician takes six questions (k = 1: they are then full), keeping the last leased.
		const taken: { id: number; studyQuestionId: number }[] = [];
		for (let i = 0; i < 6; i++) {
			const r = await claimNext(h.db, studyId, first);
			expect(r.status).toBe('assigned');
			const a = await assigned((r as { publicId: string }).publicId);
			taken.push(a);
			if (i < 5)
				await h.db
					.update(assignment)
					.set({ state: 'submitted', leaseExpiresAt: null })
					.where(eq(assignment.id, a.id));
		}
		const full = new Set(taken.map((a) => a.studyQuestionId));
		// The second physician is offered exactly the other four, in their own seeded order.
		const got = await claimAll(studyId, second);
		const [{ orderSeed }] = await h.db
			.select()
			.from(studyPhysician)
			.where(eq(studyPhysician.physicianId, second));
		const open = questionOrder(questionIds, orderSeed).filter((q) => !full.has(q));
		expect(got).toEqual(open);
		expect(await claimNext(h.db, studyId, second)).toEqual({
			status: 'none',
			reason: 'exhausted'
		});
		// The leased question's time runs out: it is open again, and offered to the second physician.
		const lapsed = taken[5];
		await h.db
			.update(assignment)
			.set({ leaseExpiresAt: new Date(Date.now() - 60_000) })
			.where(eq(assignment.id, lapsed.id));
		const again = await claimNext(h.db, studyId, second);
		expect(again.status).toBe('assigned');
		const a = await assigned((again as { publicId: string }).publicId);
		expect(a.studyQuestionId).toBe(lapsed.studyQuestionId);
		expect(a.presentationPosition).toBe(open.length + 1);
		// The physician whose lease ran out never gets that question again; nothing else is open.
		expect(await claimNext(h.db, studyId, first)).toEqual({ status: 'none', reason: 'exhausted' });
		await h.db
			.update(assignment)
			.set({ state: 'submitted', leaseExpiresAt: null })
			.where(eq(assignment.id, a.id));
		expect(await claimNext(h.db, studyId, second)).toEqual({
			status: 'none',
			reason: 'exhausted'
		});
	});

	it('does not give every physician the same first question', async () => {
		const { studyId, doctors } = await openStudy(6, 12);
		const first = await claimEach(studyId, doctors);
		const questions = await Promise.all(
			first.map(async (r) => {
				if (r.status !== 'assigned') throw new Error('expected an assignment');
				const a = await assigned(r.publicId);
				expect(a.presentationPosition).toBe(1);
				return a.studyQuestionId;
			})
		);
		expect(new Set(questions).size).toBeGreaterThan(1);
		expect(await h.db.select().from(studyPhysician)).toHaveLength(12);
	});

	it('counts an expired lease as presented: the next question is the next position', async () => {
		const {
			studyId,
			doctors: [a]
		} = await openStudy(3, 1);
		const t0 = new Date();
		const first = await claimNext(h.db, studyId, a, t0);
		if (first.status !== 'assigned') throw new Error('expected an assignment');
		const later = new Date(t0.getTime() + 31 * 60_000);
		const second = await claimNext(h.db, studyId, a, later);
		if (second.status !== 'assigned') throw new Error('expected an assignment');
		expect((await assigned(first.publicId)).state).toBe('expired');
		expect((await assigned(second.publicId)).presentationPosition).toBe(2);
	});
	it('fills a stored order once from the seed, also for a physician who already had questions', async () => {
		const {
			studyId,
			doctors: [a]
		} = await openStudy(5, 1);
		const questionIds = (
			await h.db.select({ id: studyQuestion.id }).from(studyQuestion).orderBy(studyQuestion.id)
		).map((q) => q.id);
		const first = await claimNext(h.db, studyId, a);
		if (first.status !== 'assigned') throw new Error('expected an assignment');
		await h.db.update(assignment).set({ state: 'submitted', leaseExpiresAt: null });
		const [{ orderSeed }] = await h.db.select().from(studyPhysician);
		// Stored: the questions not yet given, in seeded order.
		const queued = await h.db
			.select()
			.from(studyPhysicianQuestion)
			.orderBy(asc(studyPhysicianQuestion.position));
		const order = questionOrder(questionIds, orderSeed);
		expect(queued.map((q) => q.studyQuestionId)).toEqual(order.slice(1));
		// A seed stored before the order was (as older studies have): the next claim fills it,
		// leaving out the question the physician already had, and positions continue.
		await h.db.delete(studyPhysicianQuestion);
		await h.db.update(studyPhysician).set({ queuedAt: null, presented: 0 });
		const rest: number[] = [];
		for (;;) {
			const r = await claimNext(h.db, studyId, a);
			if (r.status !== 'assigned') break;
			const got = await assigned(r.publicId);
			expect(got.presentationPosition).toBe(rest.length + 2);
			rest.push(got.studyQuestionId);
			await h.db.update(assignment).set({ state: 'submitted', leaseExpiresAt: null });
		}
		expect(rest).toEqual(order.slice(1));
		expect(await h.db.select().from(studyPhysicianQuestion)).toHaveLength(0);
	});
});
