import { asc, count, eq, sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { rowsOf } from '../../../../db/client';
import {
	assignment,
	auditEvent,
	candidate,
	ranking,
	rankingEntry,
	studyQuestion
} from '../../../../db/schema';
import { DomainError } from '../../../../errors';
import { describeEachDb } from '../../../../db/testing';
import { insertUsers, seedRankingContent } from '../../../../fixtures/ranking';
import { claimNext, getAssignmentView } from '../../queue';
import { changeStudyState, createStudy } from '../../studies';
import { submitRanking, submitRankingAndNext, type Submission } from './rankings';

/** The DomainError a refused submission throws (fails the test if it was stored instead). */
async function refusal(submitting: Promise<unknown>): Promise<DomainError> {
	const outcome = await submitting.then(
		() => null,
		(e: unknown) => e
	);
	expect(outcome).toBeInstanceOf(DomainError);
	return outcome as DomainError;
}

describeEachDb('submitting rankings', (h) => {
	let organiser: string;
	let doctor: string;
	let other: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		// Three physician accounts: the studies here ask for the default k = 3.
		[doctor, other] = await insertUsers(h.db, 3, ['physician']);
	});

	async function setUp(options: { allowTies?: boolean } = {}) {
		const { modelIds } = await seedRankingContent(h.db, { count: 2, models: ['m1', 'm2'] });
		const study = await createStudy(
			h.db,
			{ name: 'R', selection: { types: [] }, modelIds, ...options },
			organiser
		);
		await changeStudyState(h.db, study.id, 'open', organiser);
		const claim = await claimNext(h.db, study.id, doctor);
		if (claim.status !== 'assigned') throw new Error('expected an assignment');
		const view = (await getAssignmentView(h.db, claim.publicId, doctor))!;
		const ids = view.candidates.map((c) => c.id);
		const good = (over: Partial<Submission> = {}): Submission => ({
			assignmentId: claim.publicId,
			idempotencyKey: `key-${claim.publicId}`,
			timeOnTaskMs: 42_000,
			entries: ids.map((id, i) => ({
				candidateId: id,
				rank: i + 1,
				tag: i === 0 ? 'good' : 'okay',
				comment: i === 1 ? ' clear ' : ''
			})),
			...over
		});
		return { studyId: study.id, publicId: claim.publicId, ids, good };
	}

	const stored = async () => {
		const [[r], [e]] = await Promise.all([
			h.db.select({ n: count() }).from(ranking),
			h.db.select({ n: count() }).from(rankingEntry)
		]);
		return { rankings: r.n, entries: e.n };
	};

	it('stores ranks, tags, comments, displayed order and time on task, idempotently', async () => {
		const { good, publicId } = await setUp();
		const first = await submitRanking(h.db, doctor, good());
		expect(first.duplicate).toBe(false);
		const again = await submitRanking(h.db, doctor, good());
		expect(again).toEqual({ ...first, duplicate: true });
		expect(await stored()).toEqual({ rankings: 1, entries: 3 });
		const [r] = await h.db.select().from(ranking);
		expect(r.timeOnTaskMs).toBe(42_000);
		expect(r.displayedOrder).toHaveLength(3);
		const entries = await h.db
			.select()
			.from(rankingEntry)
			.orderBy(asc(rankingEntry.displayPosition));
		expect(entries.map((e) => [e.displayPosition, e.rank, e.tag, e.comment])).toEqual([
			[1, 1, 'good', null],
			[2, 2, 'okay', 'clear'],
			[3, 3, 'okay', null]
		]);
		expect(entries.map((e) => e.candidateId)).toEqual(r.displayedOrder);
		const [a] = await h.db.select().from(assignment).where(eq(assignment.publicId, publicId));
		expect(a.state).toBe('submitted');
		const [q] = await h.db
			.select()
			.from(studyQuestion)
			.where(eq(studyQuestion.id, a.studyQuestionId));
		expect(q.completed).toBe(1);
		// A second submission with a new key is refused.
		const twice = refusal(submitRanking(h.db, doctor, good({ idempotencyKey: 'another-key-1' })));
		await expect(twice).resolves.toMatchObject({ code: 'already_submitted' });
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'ranking.submit'));
		expect(event).toMatchObject({
			actorId: doctor,
			objectType: 'ranking',
			objectId: String(first.rankingId)
		});
		expect((event.after as { entries: unknown[] }).entries).toHaveLength(3);
	});

	it('refuses bad rankings with a clear reason and stores nothing', async () => {
		const { good, ids } = await setUp();
		const base = good();
		const cases: [Submission, RegExp][] = [
			[{ ...base, entries: base.entries.map((e) => ({ ...e, rank: 1 })) }, /more than once/],
			[
				{ ...base, entries: base.entries.map((e, i) => ({ ...e, rank: i + 2 })) },
				/between 1 and 3/
			],
			[
				{ ...base, entries: base.entries.map((e, i) => ({ ...e, rank: i ? e.rank : null })) },
				/not ranked/
			],
			[{ ...base, entries: base.entries.slice(1) }, /Rank all 3 responses/],
			[{ ...base, entries: [...base.entries, base.entries[0]] }, /submitted twice/],
			[
				{
					...base,
					entries: base.entries.map((e, i) => ({
						...e,
						candidateId: i ? e.candidateId : 'zzzzzzzzzzzz'
					}))
				},
				/not part of this question/
			],
			[
				{ ...base, entries: base.entries.map((e) => ({ ...e, tag: 'great' as never })) },
				/good, okay or bad/
			],
			[
				{ ...base, entries: base.entries.map((e, i) => ({ ...e, tag: i ? e.tag : null })) },
				/Tag every response/
			]
		];
		for (const [submission, reason] of cases) {
			const e = await refusal(submitRanking(h.db, doctor, submission));
			expect(e.code, String(reason)).toBe('invalid');
			expect(e.problems.join(' ')).toMatch(reason);
		}
		expect(ids).toHaveLength(3);
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
	});

	it('refuses candidates of another assignment and assignments of another physician', async () => {
		const { good } = await setUp();
		const otherClaim = await claimNext(
			h.db,
			(await h.db.select().from(studyQuestion))[0].studyId,
			other
		);
		if (otherClaim.status !== 'assigned') throw new Error('expected an assignment');
		const otherView = (await getAssignmentView(h.db, otherClaim.publicId, other))!;
		const foreign = good();
		foreign.entries[0] = { ...foreign.entries[0], candidateId: otherView.candidates[0].id };
		const r1 = await refusal(submitRanking(h.db, doctor, foreign));
		expect(r1.code).toBe('invalid');
		const r2 = await refusal(submitRanking(h.db, other, good()));
		expect(r2.code).toBe('not_found');
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
	});

	it('asks to confirm inconsistent tags, then stores when confirmed', async () => {
		const { good } = await setUp();
		const base = good();
		const inconsistent = {
			...base,
			entries: base.entries.map((e, i) => ({
				...e,
				tag: (i === 0 ? 'bad' : 'good') as 'bad' | 'good'
			}))
		};
		const ask = await refusal(submitRanking(h.db, doctor, inconsistent));
		expect(ask.code).toBe('needs_confirmation');
		expect(ask.problems[0]).toMatch(/Response A is ranked above Response B/);
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
		const ok = await submitRanking(h.db, doctor, { ...inconsistent, confirmInconsistent: true });
		expect(ok.duplicate).toBe(false);
		expect(await stored()).toEqual({ rankings: 1, entries: 3 });
	});

	it('accepts competition-style ties only when the study allows them', async () => {
		const { good } = await setUp({ allowTies: true });
		const base = good();
		const tied = { ...base, entries: base.entries.map((e, i) => ({ ...e, rank: i < 2 ? 1 : 3 })) };
		expect((await submitRanking(h.db, doctor, tied)).duplicate).toBe(false);
		const ranks = await h.db.select({ rank: rankingEntry.rank }).from(rankingEntry);
		expect(ranks.map((r) => r.rank).sort()).toEqual([1, 1, 3]);
	});

	it('refuses a closed study and an expired lease', async () => {
		const { good, studyId } = await setUp();
		const late = new Date(Date.now() + 31 * 60_000);
		const expired = await refusal(submitRanking(h.db, doctor, good(), late));
		expect(expired.code).toBe('not_leased');
		await changeStudyState(h.db, studyId, 'close', organiser);
		const closed = await refusal(submitRanking(h.db, doctor, good()));
		expect(closed.code).toBe('locked');
		expect(await stored()).toEqual({ rankings: 0, entries: 0 });
	});

	it('submits and leases the next question in one transaction, and a refusal leases nothing', async () => {
		const { good, publicId } = await setUp();
		const bad = good();
		bad.entries[0] = { ...bad.entries[0], tag: null };
		const e = await refusal(submitRankingAndNext(h.db, doctor, bad));
		expect(e.problems.join(' ')).toMatch(/Tag every response/);
		expect(await h.db.select().from(assignment)).toHaveLength(1);
		const done = await submitRankingAndNext(h.db, doctor, good());
		expect(done.duplicate).toBe(false);
		expect(done.next.status).toBe('assigned');
		if (done.next.status === 'assigned') expect(done.next.publicId).not.toBe(publicId);
		const states = await h.db.select({ state: assignment.state }).from(assignment);
		expect(states.map((a) => a.state).sort()).toEqual(['leased', 'submitted']);
	});
	it('returns the next question blinded with its view, and a retry resumes it without storing twice', async () => {
		const { good, publicId } = await setUp();
		const done = await submitRankingAndNext(h.db, doctor, good());
		if (done.next.status !== 'assigned') throw new Error('expected a next question');
		const { view } = done.next;
		expect(view?.assignment).toMatchObject({ publicId: done.next.publicId, state: 'leased' });
		expect(view?.candidates.map((c) => c.label)).toEqual([
			'Response A',
			'Response B',
			'Response C'
		]);
		// Opaque ids only: no candidate database id, no model name, no reference flag.
		const candidateIds = (await h.db.select({ id: candidate.id }).from(candidate)).map((c) =>
			String(c.id)
		);
		for (const c of view!.candidates) {
			expect(c.id).toMatch(/^[a-z2-9]{12}$/);
			expect(candidateIds).not.toContain(c.id);
			expect(Object.keys(c).sort()).toEqual(['id', 'label', 'text']);
		}
		// (Model names as whole words: opaque ids may hold "m2".)
		expect(JSON.stringify(done).toLowerCase()).not.toMatch(
			/\bm[12]\b|reference|modelid|responseid|candidateid/
		);

		const retry = await submitRankingAndNext(h.db, doctor, good());
		expect(retry).toMatchObject({ rankingId: done.rankingId, duplicate: true });
		expect(retry.next).toMatchObject({
			status: 'assigned',
			publicId: done.next.publicId,
			resumed: true
		});
		expect(await stored()).toEqual({ rankings: 1, entries: 3 });
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'ranking.submit'));
		expect(events).toHaveLength(1);
		// The audit event records the real candidates (for organisers), in the submitted order.
		const [a] = await h.db.select().from(assignment).where(eq(assignment.publicId, publicId));
		const entries = await h.db
			.select({
				candidateId: rankingEntry.candidateId,
				rank: rankingEntry.rank,
				tag: rankingEntry.tag,
				errorTypes: rankingEntry.errorTypes
			})
			.from(rankingEntry)
			.orderBy(asc(rankingEntry.displayPosition));
		expect(events[0]).toMatchObject({ actorId: doctor, objectId: String(done.rankingId) });
		expect(events[0].after).toEqual({ assignmentId: a.id, studyId: done.studyId, entries });
	});

	it('the database functions hand physicians no model identity', async () => {
		const { publicId } = await setUp();
		const raw = rowsOf<{ view: Record<string, Record<string, unknown>> }>(
			await h.db.execute(sql`select study_assignment_view(${publicId}, ${doctor}) as view`)
		)[0].view;
		expect(Object.keys(raw).sort()).toEqual([
			'assignment',
			'candidates',
			'progress',
			'question',
			'study'
		]);
		// Where the physician stands: counts only.
		expect(raw.progress).toEqual({ ranked: 0, questions: 2 });
		for (const c of raw.candidates as unknown as Record<string, unknown>[])
			expect(Object.keys(c).sort()).toEqual(['id', 'position', 'text']);
		expect(Object.keys(raw.question).sort()).toEqual(
			['falseAnswer', 'options', 'reasoning', 'text', 'type'].sort()
		);
		expect(JSON.stringify(raw).toLowerCase()).not.toMatch(/\bm[12]\b|reference|model|response_id/);
		// Another physician gets nothing for it.
		const [none] = rowsOf<{ view: unknown }>(
			await h.db.execute(sql`select study_assignment_view(${publicId}, ${other}) as view`)
		);
		expect(none.view).toBeNull();
	});

	it('a submission returns expired leases to the queue before leasing the next question', async () => {
		const { modelIds } = await seedRankingContent(h.db, { count: 2, models: ['m1', 'm2'] });
		const study = await createStudy(
			h.db,
			{ name: 'Lapse', selection: { types: [] }, modelIds, ratersPerQuestion: 1 },
			organiser,
			{ confirm: true }
		);
		await changeStudyState(h.db, study.id, 'open', organiser, { confirm: true });
		const t0 = new Date();
		const minutes = (m: number) => new Date(t0.getTime() + m * 60_000);
		const idle = await claimNext(h.db, study.id, other, t0);
		const busy = await claimNext(h.db, study.id, doctor, minutes(29), { view: true });
		if (idle.status !== 'assigned' || busy.status !== 'assigned') throw new Error('expected two');
		// At 31 minutes the idle physician's 30-minute lease has run out; the busy one's has not.
		const done = await submitRankingAndNext(
			h.db,
			doctor,
			{
				assignmentId: busy.publicId,
				idempotencyKey: 'lapse-key-1',
				entries: busy.view!.candidates.map((c, i) => ({
					candidateId: c.id,
					rank: i + 1,
					tag: 'okay'
				}))
			},
			minutes(31)
		);
		if (done.next.status !== 'assigned') throw new Error('expected the lapsed question');
		const [lapsed] = await h.db
			.select()
			.from(assignment)
			.where(eq(assignment.publicId, idle.publicId));
		const [taken] = await h.db
			.select()
			.from(assignment)
			.where(eq(assignment.publicId, done.next.publicId));
		expect(lapsed.state).toBe('expired');
		expect(taken.studyQuestionId).toBe(lapsed.studyQuestionId);
		expect(taken.presentationPosition).toBe(2);
		const slots = await h.db
			.select({ open: studyQuestion.openSlots, completed: studyQuestion.completed })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, study.id))
			.orderBy(asc(studyQuestion.id));
		expect(slots.map((q) => q.open)).toEqual([0, 0]);
		expect(slots.map((q) => q.completed).sort()).toEqual([0, 1]);
		// The lapsed lease cannot be submitted any more, and nothing of it is stored.
		const view = (await getAssignmentView(h.db, idle.publicId, other))!;
		const late = await refusal(
			submitRanking(
				h.db,
				other,
				{
					assignmentId: idle.publicId,
					idempotencyKey: 'lapse-key-2',
					entries: view.candidates.map((c, i) => ({ candidateId: c.id, rank: i + 1, tag: 'okay' }))
				},
				minutes(32)
			)
		);
		expect(late.code).toBe('not_leased');
		expect(await h.db.select().from(ranking).where(eq(ranking.physicianId, other))).toHaveLength(0);
	});
});
