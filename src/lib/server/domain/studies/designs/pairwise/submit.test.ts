import { and, count, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
	assignment,
	assignmentCandidate,
	auditEvent,
	candidate,
	pairwiseAspectPreference,
	pairwiseJudgement,
	pairwiseStudy,
	studyQuestion
} from '../../../../db/schema';
import { rowsOf } from '../../../../db/client';
import { describeEachDb } from '../../../../db/testing';
import { insertUsers } from '../../../../fixtures/ranking';
import { insertRubric, seedQuestionSet } from '../../../../fixtures/rubric';
import { claimNext, type ClaimResult } from '../../queue';
import { changeStudyState, createStudy } from '../../studies';
import {
	preferenceFormSchema,
	preferenceProblems,
	submitPreference,
	type Preference
} from './submit';

type Assigned = Extract<ClaimResult, { status: 'assigned' }>;

describe('preferenceProblems', () => {
	const form = { aspects: [{ code: 'REL', name: 'Relevance' }] };
	const base = { outcome: 'left' as const, strength: null, reason: '', aspects: {} };
	it('accepts a choice with or without strength, aspects and reason', () => {
		expect(preferenceProblems(form, base)).toEqual([]);
		expect(
			preferenceProblems(form, {
				...base,
				strength: 'clearly',
				aspects: { REL: 'tie' },
				reason: 'x'
			})
		).toEqual([]);
	});
	it('names what is missing or wrong', () => {
		expect(
			preferenceProblems(form, {
				outcome: 'tie_bad',
				strength: 'slightly',
				reason: 'r'.repeat(5001),
				aspects: { REL: 'both', XYZ: 'left' }
			})
		).toEqual([
			'A tie takes no strength: clear it or choose A or B.',
			'REL: choose A, B or a tie.',
			'“XYZ” is not an aspect of this study.',
			'The reason is longer than 5,000 characters.'
		]);
		expect(preferenceProblems(form, { ...base, outcome: null })).toEqual(['Choose A, B or a tie.']);
	});
	it('reads the posted form, blank fields as not given', () => {
		const parsed = preferenceFormSchema.safeParse({
			idempotencyKey: ' key-1234 ',
			outcome: 'tie_good',
			strength: '',
			aspect: { REL: 'right' },
			reason: '  both fine '
		});
		expect(parsed.success && parsed.data).toMatchObject({
			idempotencyKey: 'key-1234',
			outcome: 'tie_good',
			strength: null,
			aspects: { REL: 'right' },
			reason: 'both fine'
		});
		expect(preferenceFormSchema.safeParse({ outcome: 'A' }).success).toBe(false);
	});
});

describeEachDb('pairwise studies', (h) => {
	let organiser: string;
	let physicians: string[];
	let modelIds: number[];
	let questionSetId: number;

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		physicians = await insertUsers(h.db, 3, ['physician']);
		const set = await seedQuestionSet(h.db, { questions: 4, models: ['m1', 'm2', 'm3'] });
		modelIds = set.modelIds;
		questionSetId = set.questionSetId;
	});

	async function study(extra: Record<string, unknown> = {}) {
		const s = await createStudy(
			h.db,
			{
				name: `Pairwise ${Math.random()}`,
				design: 'pairwise',
				questionSetId,
				selection: { types: [] },
				modelIds,
				ratersPerQuestion: 2,
				...extra
			},
			organiser
		);
		await changeStudyState(h.db, s.id, 'open', organiser, { confirm: true });
		return s.id;
	}
	it('tells the planner about the pairs a first opening writes', async () => {
		// 40 questions × (7 models + the reference) = 1,120 pairs: enough to refresh the statistics.
		const set = await seedQuestionSet(h.db, {
			questions: 40,
			models: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
			name: 'Many pairs'
		});
		const s = await createStudy(
			h.db,
			{
				name: 'Many pairs',
				design: 'pairwise',
				questionSetId: set.questionSetId,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 2
			},
			organiser
		);
		await changeStudyState(h.db, s.id, 'open', organiser, { confirm: true });
		const [{ units }] = await h.db
			.select({ units: count() })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, s.id));
		expect(units).toBe(40 * 28);
		const known = rowsOf<{ relname: string; rows: number }>(
			await h.db.execute(sql`
				select relname, reltuples::float8 as rows from pg_class
				where relname in ('study_question', 'candidate') order by relname`)
		);
		// What the planner believes each table holds (-1 or 0 when never analysed).
		expect(known.map((r) => [r.relname, Number(r.rows) >= units])).toEqual([
			['candidate', true],
			['study_question', true]
		]);
	});

	async function claim(studyId: number, physician: string): Promise<Assigned | null> {
		const c = await claimNext(h.db, studyId, physician, new Date(), { view: true });
		return c.status === 'assigned' ? c : null;
	}
	const preference = (c: Assigned, key: string, extra: Partial<Preference> = {}): Preference => ({
		assignmentId: c.publicId,
		idempotencyKey: key,
		outcome: 'left',
		strength: null,
		aspects: {},
		reason: '',
		...extra
	});

	it('opening turns each question into one unit per pair of its answers, each with its two answers', async () => {
		const id = await study();
		const units = await h.db
			.select({ id: studyQuestion.id, unit: studyQuestion.unit, slots: studyQuestion.openSlots })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, id));
		// 3 models + the reference: 6 pairs per question, 4 questions.
		expect(units).toHaveLength(24);
		expect(new Set(units.map((u) => u.unit))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
		expect(units.every((u) => u.slots === 2)).toBe(true);
		for (const u of units.slice(0, 6)) {
			const answers = await h.db
				.select({ modelId: candidate.modelId, isReference: candidate.isReference })
				.from(candidate)
				.where(eq(candidate.studyQuestionId, u.id));
			expect(answers).toHaveLength(2);
			expect(new Set(answers.map((a) => a.modelId ?? 'ref')).size).toBe(2);
		}
	});

	it('a balanced sample gives each question p pairs, reproducibly from its seed', async () => {
		const a = await study({ pairing: 'balanced', pairsPerQuestion: 2, pairSeed: 'seed-1' });
		const b = await study({ pairing: 'balanced', pairsPerQuestion: 2, pairSeed: 'seed-1' });
		const pairsOf = async (id: number) => {
			const rows = await h.db
				.select({ q: studyQuestion.setQuestionId, unit: studyQuestion.unit, m: candidate.modelId })
				.from(candidate)
				.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
				.where(eq(studyQuestion.studyId, id))
				.orderBy(studyQuestion.setQuestionId, studyQuestion.unit, candidate.id);
			return rows.map((r) => `${r.q}/${r.unit}/${r.m ?? 'ref'}`);
		};
		const pa = await pairsOf(a);
		expect(pa).toHaveLength(4 * 2 * 2);
		expect(await pairsOf(b)).toEqual(pa);
		await expect(
			createStudy(
				h.db,
				{
					name: 'No p',
					design: 'pairwise',
					questionSetId,
					selection: { types: [] },
					modelIds,
					pairing: 'balanced'
				},
				organiser
			)
		).rejects.toMatchObject({ field: 'pairsPerQuestion' });
	});

	it('stores a preference with the sides as shown, audits it and hands out the next pair in the same call', async () => {
		const id = await study();
		const c = (await claim(id, physicians[0]))!;
		expect(c.view!.candidates).toHaveLength(2);
		expect(c.view!.study.design).toBe('pairwise');
		const stored = await submitPreference(
			h.db,
			physicians[0],
			id,
			preference(c, 'key-000001', { outcome: 'right', strength: 'clearly', reason: 'safer' }),
			{ next: true }
		);
		expect(stored.duplicate).toBe(false);
		expect(stored.next?.status).toBe('assigned');
		const [j] = await h.db
			.select()
			.from(pairwiseJudgement)
			.where(eq(pairwiseJudgement.id, stored.judgementId));
		const shown = await h.db
			.select({
				candidateId: assignmentCandidate.candidateId,
				publicId: assignmentCandidate.publicId,
				position: assignmentCandidate.position
			})
			.from(assignmentCandidate)
			.where(eq(assignmentCandidate.publicId, c.view!.candidates[0].id));
		expect(shown[0].position).toBe(0);
		expect(j.leftCandidateId).toBe(shown[0].candidateId);
		expect(j).toMatchObject({ outcome: 'right', strength: 'clearly', reason: 'safer' });
		const [audit] = await h.db
			.select({ n: count() })
			.from(auditEvent)
			.where(and(eq(auditEvent.action, 'pairwise.submit'), eq(auditEvent.objectId, String(j.id))));
		expect(audit.n).toBe(1);
		// A retry with the same key stores nothing new; another pair with it is refused.
		const again = await submitPreference(h.db, physicians[0], id, preference(c, 'key-000001'));
		expect(again).toMatchObject({ duplicate: true, judgementId: j.id });
		await expect(
			submitPreference(h.db, physicians[0], id, preference(c, 'key-000002'))
		).rejects.toMatchObject({ code: 'already_submitted' });
		await expect(
			submitPreference(h.db, physicians[1], id, preference(c, 'key-000003'))
		).rejects.toMatchObject({ code: 'not_found' });
		await expect(
			submitPreference(
				h.db,
				physicians[0],
				id,
				preference(c, 'key-000004', { outcome: 'tie_good', strength: 'slightly' })
			)
		).rejects.toMatchObject({ code: 'invalid' });
	});

	it('asks about the frozen rubric’s aspects when the study attaches one', async () => {
		const rubric = await insertRubric(h.db);
		const id = await study({ rubricId: rubric.rubricId });
		const [settings] = await h.db.select().from(pairwiseStudy).where(eq(pairwiseStudy.studyId, id));
		expect(settings.rubricVersionId).toBe(rubric.versionId);
		const c = (await claim(id, physicians[0]))!;
		await expect(
			submitPreference(
				h.db,
				physicians[0],
				id,
				preference(c, 'key-wrong-1', { aspects: { CONT: 'left' } })
			)
		).rejects.toMatchObject({ problems: ['“CONT” is not an aspect of this study.'] });
		const stored = await submitPreference(
			h.db,
			physicians[0],
			id,
			preference(c, 'key-aspects', { outcome: 'tie_bad', aspects: { REL: 'left', COR: '' } })
		);
		const given = await h.db
			.select({
				aspect: pairwiseAspectPreference.aspect,
				outcome: pairwiseAspectPreference.outcome
			})
			.from(pairwiseAspectPreference)
			.where(eq(pairwiseAspectPreference.judgementId, stored.judgementId));
		// A blank aspect is not given; the given one is stored.
		expect(given).toEqual([{ aspect: 'REL', outcome: 'left' }]);
	});

	it('counterbalances sides: every model sits left in half its appearances ± one per physician', async () => {
		const id = await study({ ratersPerQuestion: 2 });
		await judgeAll(id, 48, 3 * 4);
	});

	it('keeps that balance with seven models and the reference (28 pairs a question)', async () => {
		const set = await seedQuestionSet(h.db, {
			questions: 4,
			models: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
			name: 'Eight answers'
		});
		const s = await createStudy(
			h.db,
			{
				name: 'Twenty-eight pairs',
				design: 'pairwise',
				questionSetId: set.questionSetId,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 2
			},
			organiser
		);
		await changeStudyState(h.db, s.id, 'open', organiser, { confirm: true });
		await judgeAll(s.id, 4 * 28 * 2, 3 * 8);
	});

	/** Physicians take turns judging until nothing is left; checks each one's sides per model. */
	async function judgeAll(id: number, judgements: number, raterModels: number) {
		const done = new Map<string, number>();
		let progress = true;
		let key = 0;
		while (progress) {
			progress = false;
			for (const p of physicians) {
				const c = await claim(id, p);
				if (!c) continue;
				progress = true;
				await submitPreference(h.db, p, id, preference(c, `k-${String(++key).padStart(8, '0')}`));
				done.set(p, (done.get(p) ?? 0) + 1);
			}
		}
		expect([...done.values()].reduce((a, b) => a + b, 0)).toBe(judgements);
		const rows = await h.db
			.select({
				rater: pairwiseJudgement.raterId,
				left: pairwiseJudgement.leftCandidateId,
				right: pairwiseJudgement.rightCandidateId
			})
			.from(pairwiseJudgement)
			.innerJoin(assignment, eq(assignment.id, pairwiseJudgement.assignmentId))
			.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
			.where(eq(studyQuestion.studyId, id));
		const sourceOf = new Map(
			(await h.db.select({ id: candidate.id, m: candidate.modelId }).from(candidate)).map((c) => [
				c.id,
				String(c.m ?? 'reference')
			])
		);
		const perRater = new Map<string, { left: number; shown: number }>();
		for (const r of rows) {
			const [l, rt] = [sourceOf.get(r.left)!, sourceOf.get(r.right)!];
			for (const [s, isLeft] of [
				[l, 1],
				[rt, 0]
			] as const) {
				const k = `${r.rater}:${s}`;
				const v = perRater.get(k) ?? { left: 0, shown: 0 };
				perRater.set(k, { left: v.left + isLeft, shown: v.shown + 1 });
			}
		}
		expect(perRater.size).toBe(raterModels);
		for (const v of perRater.values())
			expect(Math.abs(v.left - v.shown / 2)).toBeLessThanOrEqual(1);
	}

	it('shows a pair to its second physician the other way round when their own counts are even', async () => {
		for (let round = 0; round < 6; round++) {
			const set = await seedQuestionSet(h.db, {
				questions: 1,
				models: [`a${round}`, `b${round}`],
				reference: false,
				name: `One pair ${round}`
			});
			const s = await createStudy(
				h.db,
				{
					name: `One pair ${round}`,
					design: 'pairwise',
					questionSetId: set.questionSetId,
					selection: { types: [] },
					modelIds: set.modelIds,
					ratersPerQuestion: 2
				},
				organiser
			);
			await changeStudyState(h.db, s.id, 'open', organiser, { confirm: true });
			const first = (await claim(s.id, physicians[0]))!;
			const second = (await claim(s.id, physicians[1]))!;
			const leftOf = async (c: Assigned) => {
				const [row] = await h.db
					.select({ id: assignmentCandidate.candidateId })
					.from(assignmentCandidate)
					.where(eq(assignmentCandidate.publicId, c.view!.candidates[0].id));
				return h.db
					.select({ m: candidate.modelId })
					.from(candidate)
					.where(eq(candidate.id, row.id));
			};
			expect((await leftOf(second))[0].m).not.toBe((await leftOf(first))[0].m);
		}
	});
});
