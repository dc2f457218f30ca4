import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from './main';
import { describeEachDb } from '$lib/server/db/testing';
import { cachedRubricReport } from '$lib/server/domain/agreement/cache';
import { agreementBundleFiles } from '$lib/server/domain/agreement/export';
import { insertJudge, seedScoredRubricStudy } from '$lib/server/fixtures/rubric-scored';

describeEachDb('rubric part of the agreement bundle', (h) => {
	it("holds the CSVs from which cliniq stats rubric prints the page's numbers", async () => {
		const { studyId } = await seedScoredRubricStudy(h.db);
		await insertJudge(h.db, studyId, 'LLM judge, v1', (id, c) =>
			c === 'overall' ? (id % 7) / 7 : id % 6
		);
		const report = (await cachedRubricReport(h.db, studyId, { resamples: 80, seed: 'b' }))!.result;
		const files = await agreementBundleFiles(h.db, {
			verification: null,
			study: null,
			rubric: { studyId, report }
		});
		const dir = mkdtempSync(join(tmpdir(), 'cliniq-rubric-bundle-'));
		for (const f of files.filter((f) => !f.name.includes('/')))
			writeFileSync(join(dir, f.name), f.content);
		const settings = JSON.parse(files.find((f) => f.name === 'settings.json')!.content);
		const out: string[] = [];
		const err: string[] = [];
		const code = await main(
			[
				'stats',
				'rubric',
				join(dir, 'rubric_scores.csv'),
				'--judges',
				join(dir, 'rubric_judges.csv'),
				'--scale',
				settings.rubricScale,
				'--bootstrap',
				String(settings.resamples),
				'--seed',
				settings.seed
			],
			{ stdout: (s) => out.push(s), stderr: (s) => err.push(s) }
		);
		expect(err).toEqual([]);
		expect(code).toBe(0);
		const cli = JSON.parse(out.join('\n'));
		expect(cli.scores).toBe(report.scores);
		expect(cli.sheets).toBe(report.sheets);
		// Same rows in the same order, same slots, same seed: the same values and intervals.
		for (const a of report.agreement) {
			const c = cli.agreement.find((x: { key: string }) => x.key === a.key);
			for (const s of ['icc2_1', 'icc2_k', 'alpha_ordinal', 'alpha_interval', 'qwk'] as const) {
				expect(c[s]).toBe(a[s].stat.value);
				expect(c.ci[s]).toEqual(
					a[s].interval.low === null ? null : [a[s].interval.low, a[s].interval.high]
				);
			}
		}
		for (const m of report.models) {
			const c = cli.models.find(
				(x: { model: string; key: string }) => x.model === m.model && x.key === m.key
			);
			expect(c.mean).toBe(m.mean.value);
		}
		expect(cli.position_bias[0].mean_difference).toBe(report.positionBias[0].meanDifference.value);
		expect(cli.judge_ranking).toEqual(report.judgeRanking.map((j) => j.judge));
		for (const j of report.judges) {
			const c = cli.judges.find(
				(x: { judge: string; key: string }) => x.judge === j.judge && x.key === j.key
			);
			expect(c.pairwise_accuracy).toBe(j.pairwiseAccuracy.value);
			expect(c.pearson).toBe(j.pearson.value);
			expect(c.icc2_1).toBe(j.icc.value);
		}
	});
});
