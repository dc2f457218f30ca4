import { beforeEach, expect, it } from 'vitest';
import { describeEachDb } from '../../../../db/testing';
import { insertUsers, seedRankingContent } from '../../../../fixtures/ranking';
import { insertRubric } from '../../../../fixtures/rubric';
import { createRun, executeRun } from '../../../scoring-runs/runs';
import { claimNext, type ClaimResult } from '../../queue';
import { changeStudyState, createStudy } from '../../studies';
import { rubricReport, rubricScoreRows, scoringRunJudges, studyJudgeInput } from './statistics';
import { submitScores } from './submit';

describeEachDb('rubric study figures', (h) => {
	let organiser: string;
	let physicians: string[];
	let studyId: number;
	let modelIds: number[];

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		physicians = await insertUsers(h.db, 2, ['physician']);
		// A rubric study of QA bank items: 6 items, two models and the reference.
		({ modelIds } = await seedRankingContent(h.db, { count: 6, models: ['m1', 'm2'] }));
		const { rubricId } = await insertRubric(h.db);
		studyId = (
			await createStudy(
				h.db,
				{
					name: 'Bank rubric study',
					design: 'rubric',
					rubricId,
					selection: { types: [] },
					modelIds,
					ratersPerQuestion: 2
				},
				organiser
			)
		).id;
		await changeStudyState(h.db, studyId, 'open', organiser);
		// Both physicians score every question: answer at position i gets i + slot (0–5).
		for (const [p, physician] of physicians.entries()) {
			for (;;) {
				const claim: ClaimResult = await claimNext(h.db, studyId, physician, new Date(), {
					view: true
				});
				if (claim.status !== 'assigned') break;
				const answers = claim.view!.candidates.map((c) => c.id);
				await submitScores(h.db, physician, studyId, answers, {
					assignmentId: claim.publicId,
					idempotencyKey: `key-${claim.publicId}`,
					layout: 'single',
					scores: answers.flatMap((answer, i) =>
						['COND', 'CONC', 'ACC'].map((subAspect) => ({
							answer,
							subAspect,
							score: Math.min(5, i + p),
							rationale: subAspect === 'COND' ? 'Why.' : ''
						}))
					)
				});
			}
		}
	});

	it('reads every score as a row with its rater slot', async () => {
		const rows = await rubricScoreRows(h.db, studyId);
		// 6 questions × 3 answers × 3 sub-aspects × 2 physicians.
		expect(rows).toHaveLength(108);
		expect(new Set(rows.map((r) => r.slot))).toEqual(new Set([1, 2]));
		expect(new Set(rows.map((r) => r.model))).toEqual(new Set(['m1', 'm2', 'reference']));
	});

	it('compares the ClinIQLink scores of a scoring run with the physicians, as a judge', async () => {
		const run = await createRun(
			h.db,
			{ modelIds, mode: 'official', embedder: 'hash:64' },
			organiser
		);
		expect(await executeRun(h.db, run.id)).toBe('done');
		const judge = await scoringRunJudges(h.db, studyId);
		// One overall score per model answer (the reference is not scored).
		expect(judge).toHaveLength(12);
		expect(new Set(judge.map((j) => j.judge))).toEqual(
			new Set([`ClinIQLink scores, run #${run.id} (official)`])
		);
		const input = await studyJudgeInput(h.db, studyId);
		const report = (await rubricReport(h.db, studyId, input, { resamples: 50, seed: 's' }))!;
		const overall = report.judgeRanking.find((j) => j.judge.startsWith('ClinIQLink'))!;
		expect(overall.key).toBe('overall');
		expect(overall.answers).toBe(12);
		// Independently: per question, the two model answers form a pair when their physician
		// means (over physicians and sub-aspects) differ; the judge agrees when it orders them the
		// same way, and a tie counts one half.
		const rows = await rubricScoreRows(h.db, studyId);
		const mean = new Map<string, number>();
		for (const c of new Set(rows.map((r) => r.candidate))) {
			const mine = rows.filter((r) => r.candidate === c);
			mean.set(c, mine.reduce((t, r) => t + r.score, 0) / mine.length);
		}
		let pairs = 0;
		let agree = 0;
		for (const q of new Set(judge.map((j) => j.question))) {
			const [x, y] = judge.filter((j) => j.question === q);
			const expert = mean.get(x.candidate)! - mean.get(y.candidate)!;
			if (expert === 0) continue;
			pairs++;
			const metric = x.score - y.score;
			agree += metric === 0 ? 0.5 : Math.sign(metric) === Math.sign(expert) ? 1 : 0;
		}
		expect(overall.pairs).toBe(pairs);
		if (pairs) expect(overall.pairwiseAccuracy.value).toBeCloseTo(agree / pairs, 12);
		else expect(overall.pairwiseAccuracy.value).toBeNull();
	});
});
