import { expect, it } from 'vitest';
import { parseCsv } from '../../csv';
import { describeEachDb } from '../../db/testing';
import { insertJudge, seedScoredRubricStudy } from '../../fixtures/rubric-scored';
import { frozenRubric, rubricScoreRows, studyJudgeInput } from '../studies';
import { rubricShape } from '../studies/designs/rubric/statistics';
import { judgeAgreement } from '../../../stats/judges';
import {
	modelMeans,
	positionBias,
	rubricAgreement,
	scoreDistributions
} from '../../../stats/rubric';
import { cachedRubricReport } from './cache';
import { dashboardReports, readDashboardQuery } from './dashboard';
import { agreementBundleFiles } from './export';

/** A CSV file of the bundle as objects by column. */
function table(files: { name: string; content: string }[], name: string) {
	const file = files.find((f) => f.name === name);
	if (!file) throw new Error(`no ${name} in the bundle`);
	const [header, ...rows] = parseCsv(file.content).filter((r) => r.length > 1);
	return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

describeEachDb('rubric studies on the agreement page and in the bundle', (h) => {
	it('caches the report until a sheet or a judge changes, and the page shows it in place of the ranking report', async () => {
		const { studyId } = await seedScoredRubricStudy(h.db);
		const opts = { resamples: 50, seed: 'r' };
		const first = await cachedRubricReport(h.db, studyId, opts);
		expect(first?.fresh).toBe(true);
		const again = await cachedRubricReport(h.db, studyId, opts);
		expect(again?.fresh).toBe(false);
		expect(again?.result.scores).toBe(first?.result.scores);
		await insertJudge(h.db, studyId, 'LLM judge', (id) => id % 5);
		const judged = await cachedRubricReport(h.db, studyId, opts);
		expect(judged?.fresh).toBe(true);
		expect(judged?.result.judgeRanking.map((j) => j.judge)).toEqual(['LLM judge']);

		const page = await dashboardReports(
			h.db,
			readDashboardQuery(
				new URLSearchParams({ study: String(studyId), resamples: '50', seed: 'r' })
			)
		);
		expect(page.rubricStudy).toBe(true);
		expect(page.study).toBeNull();
		expect(page.rubric?.fresh).toBe(false);
	});

	it('holds the rubric tables with the numbers of the stats module', async () => {
		const { studyId } = await seedScoredRubricStudy(h.db);
		await insertJudge(h.db, studyId, 'LLM judge', (id, c) =>
			c === 'overall' ? (id % 7) / 7 : id % 6
		);
		const opts = { resamples: 60, seed: 'bundle' };
		const cached = await cachedRubricReport(h.db, studyId, opts);
		const files = await agreementBundleFiles(h.db, {
			verification: null,
			study: null,
			rubric: { studyId, report: cached!.result }
		});
		const names = files.map((f) => f.name);
		for (const t of [
			'rubric_agreement',
			'rubric_model_means',
			'rubric_distributions',
			'rubric_position_bias',
			'rubric_judges',
			'rubric_judge_ranking',
			'rubric_judge_points'
		])
			expect(names).toEqual(expect.arrayContaining([`tables/${t}.csv`, `tables/${t}.json`]));
		expect(names).toEqual(expect.arrayContaining(['rubric_scores.csv', 'rubric_judges.csv']));
		const definitions = files.find((f) => f.name === 'definitions.txt')!.content;
		expect(definitions).toMatch(/^rubric qwk: /m);
		expect(definitions).toMatch(/^rubric judge pairwise_accuracy: /m);
		expect(JSON.parse(files.find((f) => f.name === 'settings.json')!.content)).toMatchObject({
			studyId,
			resamples: 60,
			seed: 'bundle',
			rubricScale: '0-5'
		});

		// The same figures from the stats module, called directly on the stored scores.
		const rows = await rubricScoreRows(h.db, studyId);
		const shape = rubricShape((await frozenRubric(h.db, studyId))!.definition);
		expect(rows).toHaveLength(2 * 3 * 4 * 3); // physicians × questions × answers × sub-aspects

		const agreement = rubricAgreement(rows, shape, opts);
		const acc = agreement.find((a) => a.key === 'ACC')!;
		expect(acc.icc2_1.stat.value).not.toBeNull();
		const accRows = table(files, 'tables/rubric_agreement.csv').filter((r) => r.key === 'ACC');
		for (const statistic of [
			'icc2_1',
			'icc2_k',
			'alpha_ordinal',
			'alpha_interval',
			'qwk'
		] as const) {
			const row = accRows.find((r) => r.statistic === statistic)!;
			const e = acc[statistic];
			expect(Number(row.value)).toBeCloseTo(e.stat.value!, 12);
			expect(Number(row.low)).toBeCloseTo(e.interval.low!, 12);
			expect(Number(row.high)).toBeCloseTo(e.interval.high!, 12);
		}

		const means = table(files, 'tables/rubric_model_means.csv');
		for (const m of modelMeans(rows, shape, opts)) {
			const row = means.find((r) => r.model === m.model && r.key === m.key)!;
			expect(Number(row.value)).toBeCloseTo(m.mean.value!, 12);
			expect(Number(row.n)).toBe(m.n);
		}

		const distributions = table(files, 'tables/rubric_distributions.csv');
		for (const d of scoreDistributions(rows, shape)) {
			const row = distributions.find((r) => r.key === d.key && r.model === (d.model ?? 'all'))!;
			expect([0, 1, 2, 3, 4, 5].map((l) => Number(row[`score_${l}`]))).toEqual(d.counts);
		}

		// Side by side: every physician saw two pairs per question, so position bias is defined.
		const bias = positionBias(rows, opts);
		const [overall] = table(files, 'tables/rubric_position_bias.csv');
		expect(overall.key).toBe('overall');
		expect(Number(overall.pairs)).toBe(bias[0].pairs);
		expect(Number(overall.value)).toBeCloseTo(bias[0].meanDifference.value!, 12);

		const judges = judgeAgreement(rows, (await studyJudgeInput(h.db, studyId)).scores, shape, opts);
		const judgeRows = table(files, 'tables/rubric_judges.csv');
		for (const j of judges.filter((x) => x.key === 'ACC' || x.key === 'overall')) {
			const row = (statistic: string) =>
				judgeRows.find((r) => r.judge === j.judge && r.key === j.key && r.statistic === statistic)!;
			expect(Number(row('pairwise_accuracy').value)).toBeCloseTo(j.pairwiseAccuracy.value!, 12);
			expect(Number(row('pearson').value)).toBeCloseTo(j.pearson.value!, 12);
			expect(Number(row('icc2_1').value)).toBeCloseTo(j.icc.value!, 12);
		}
		// Undefined figures keep their reason: the judge scored no CONC.
		const conc = judgeRows.find((r) => r.key === 'CONC' && r.statistic === 'pearson')!;
		expect(conc.value).toBe('');
		expect(conc.reason).not.toBe('');
		expect(table(files, 'tables/rubric_judge_points.csv')).toHaveLength(12);
	});
});
