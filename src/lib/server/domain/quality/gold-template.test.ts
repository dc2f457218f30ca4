import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { goldLabel, study } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { submitGoldRanking } from '../../fixtures/gold';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { claimNext } from '../studies/queue';
import { changeStudyState, createStudy } from '../studies/studies';
import { goldTemplate, importGold, listGold } from './gold';
import { roundResults } from './qualification';

describeEachDb('the gold template and a round’s results', (h) => {
	let organiser: string;
	let doctors: string[];
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		doctors = await insertUsers(h.db, 3, ['physician']);
	});

	async function openStudy(settings: Partial<typeof study.$inferInsert> = {}) {
		const { modelIds } = await seedRankingContent(h.db, { count: 4, models: ['m1', 'm2'] });
		const s = await createStudy(
			h.db,
			{ name: 'Gold', selection: { types: [] }, modelIds, ratersPerQuestion: 2 },
			organiser,
			{ confirm: true }
		);
		await changeStudyState(h.db, s.id, 'open', organiser, { confirm: true });
		if (Object.keys(settings).length)
			await h.db.update(study).set(settings).where(eq(study.id, s.id));
		return s.id;
	}

	it('lists every question with each label null; filled in, it imports what was filled', async () => {
		const studyId = await openStudy();
		const template = await goldTemplate(h.db, studyId);
		expect(template).toHaveLength(4);
		const keys = ['m1/tag', 'm1/rank', 'm2/tag', 'm2/rank', 'reference/tag', 'reference/rank'];
		for (const r of template) {
			expect(Object.keys(r.labels).sort()).toEqual([...keys].sort());
			expect(Object.values(r.labels).every((v) => v === null)).toBe(true);
			expect(r._question.length).toBeGreaterThan(0);
			expect(r._question.length).toBeLessThanOrEqual(121);
			expect(r.explanation).toBe('');
		}
		// The organiser fills in two labels of the first question and nothing else.
		const [first, second] = template;
		first.labels['m1/tag'] = 'good' as never;
		first.labels['m2/rank'] = 2 as never;
		first.explanation = 'm1 is right.';
		const result = await importGold(h.db, studyId, JSON.stringify(template), organiser);
		expect(result).toEqual({ questions: 1 });
		expect(await listGold(h.db, studyId)).toEqual([
			{
				questionId: first.question_id,
				answers: 3,
				labels: [
					{ key: 'm1/tag', label: 'good' },
					{ key: 'm2/rank', label: '2' }
				],
				explanation: 'm1 is right.'
			}
		]);
		// The unfilled questions stayed ordinary; `_question` went nowhere.
		const labels = await h.db.select().from(goldLabel);
		expect(labels.map((l) => l.studyQuestionId)).not.toContain(second.question_id);
		expect(labels.map((l) => l.key)).not.toContain('_question');
	});

	it('refuses a template with nothing filled in, and a wrong value beside nulls', async () => {
		const studyId = await openStudy();
		const template = await goldTemplate(h.db, studyId);
		await expect(
			importGold(h.db, studyId, JSON.stringify(template), organiser)
		).rejects.toMatchObject({
			code: 'invalid',
			message: expect.stringMatching(/fills in no label/)
		});
		template[0].labels['m1/tag'] = 'great' as never;
		await expect(
			importGold(h.db, studyId, JSON.stringify(template), organiser)
		).rejects.toMatchObject({
			problems: [expect.stringContaining('"m1/tag" must be one of good, okay, bad')]
		});
		expect(await listGold(h.db, studyId)).toEqual([]);
	});

	it('gives each rater of a round their attempts, scored, and whether they passed', async () => {
		const studyId = await openStudy({
			purpose: 'qualification',
			passMark: 0.75,
			questionsPerAttempt: 2,
			maxAttempts: 2
		});
		const template = await goldTemplate(h.db, studyId);
		for (const r of template) Object.assign(r.labels, { 'm1/tag': 'good', 'm2/tag': 'bad' });
		await importGold(h.db, studyId, JSON.stringify(template), organiser);
		const [good, poor, idle] = doctors;
		for (const [rater, m1Tag] of [
			[good, 'good'],
			[poor, 'okay']
		] as const)
			for (let i = 0; i < 2; i++) {
				const claim = await claimNext(h.db, studyId, rater);
				if (claim.status !== 'assigned') throw new Error(`no question: ${claim.reason}`);
				await submit(claim.publicId, rater, m1Tag);
			}
		const results = await roundResults(h.db, studyId);
		expect(results.map((r) => r.raterId).sort()).toEqual([good, poor].sort());
		expect(results.map((r) => r.raterId)).not.toContain(idle);
		const of = (id: string) => results.find((r) => r.raterId === id)!;
		expect(of(good)).toMatchObject({ submitted: 2, passed: true, attemptsLeft: 0 });
		expect(of(good).attempts.map((a) => [a.attempt, a.score, a.passed])).toEqual([[1, 1, true]]);
		expect(of(poor)).toMatchObject({ submitted: 2, passed: false, attemptsLeft: 1 });
		expect(of(poor).attempts.map((a) => [a.attempt, a.score, a.passed])).toEqual([[1, 0.5, false]]);
		// A benchmark study has no round results.
		await h.db.update(study).set({ purpose: 'benchmark' }).where(eq(study.id, studyId));
		expect(await roundResults(h.db, studyId)).toEqual([]);
	});

	const submit = (publicId: string, rater: string, m1Tag: 'good' | 'okay' | 'bad') =>
		submitGoldRanking(h.db, publicId, rater, m1Tag);
});
