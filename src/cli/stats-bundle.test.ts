import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { asc } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { main } from './main';
import { parseCsv } from '$lib/server/csv';
import { describeEachDb } from '$lib/server/db/testing';
import { qaItem } from '$lib/server/db/schema';
import { addReview, PAIRS, seedStudy } from '$lib/server/fixtures/agreement-known';
import { seedItems, seedUsers } from '$lib/server/fixtures/review';
import {
	agreementBundleFiles,
	renderTable,
	studyTables
} from '$lib/server/domain/agreement/export';
import { studyAgreement } from '$lib/server/domain/agreement/study';
import { verificationAgreement } from '$lib/server/domain/agreement/verification';

/** Runs `cliniq stats …` and returns the JSON it prints. */
async function cliStats(args: string[]): Promise<Record<string, unknown>> {
	const out: string[] = [];
	const err: string[] = [];
	const code = await main(['stats', ...args], {
		stdout: (s) => out.push(s),
		stderr: (s) => err.push(s)
	});
	expect(err.join('\n')).toBe('');
	expect(code).toBe(0);
	return JSON.parse(out.join('\n'));
}

describeEachDb('agreement bundle', (h) => {
	it("holds CSVs from which cliniq stats prints the dashboard's numbers", async () => {
		const { study } = await seedStudy(h.db);
		await seedItems(h.db, 1);
		// The study's two items come first; the reviews go to the seven imported after them.
		const items = (await h.db.select().from(qaItem).orderBy(asc(qaItem.id))).slice(2);
		const [a, b] = await seedUsers(h.db, 2);
		for (const [i, [va, vb, ra, rb]] of PAIRS.entries()) {
			await addReview(h.db, items[i].id, 'primary', a.id, va, ra);
			await addReview(h.db, items[i].id, 'secondary', b.id, vb, rb);
		}
		const options = { resamples: 50, seed: 's' };
		const v = await verificationAgreement(h.db, items[0].datasetId, options);
		const s = await studyAgreement(h.db, study.id, options);
		const files = await agreementBundleFiles(h.db, { verification: v, study: s });
		const dir = mkdtempSync(join(tmpdir(), 'cliniq-bundle-'));
		for (const f of files) {
			mkdirSync(dirname(join(dir, f.name)), { recursive: true });
			writeFileSync(join(dir, f.name), f.content);
		}
		const path = (name: string) => join(dir, name);
		expect(files.map((f) => f.name)).toEqual(
			expect.arrayContaining(['settings.json', 'definitions.txt', 'statistics.json'])
		);

		const verdict = await cliStats(['ratings', path('ratings_verdict.csv')]);
		expect(verdict.cohen_kappa).toBeCloseTo(v.overall.verdict.cohen_kappa.stat.value!, 12);
		expect(verdict.alpha_nominal).toBeCloseTo(v.overall.verdict.alpha_nominal.stat.value!, 12);
		expect(verdict.percent_agreement).toBeCloseTo(
			v.overall.verdict.percent_agreement.stat.value!,
			12
		);
		const relevance = await cliStats([
			'ratings',
			path('ratings_relevance.csv'),
			'--order',
			'1,2,3,4,5'
		]);
		for (const key of [
			'weighted_kappa_linear',
			'weighted_kappa_quadratic',
			'alpha_ordinal',
			'icc2_1'
		] as const)
			expect(relevance[key]).toBeCloseTo(v.overall.relevance[key].stat.value!, 12);

		const rankings = await cliStats(['rankings', path('rankings.csv')]);
		expect(rankings.kendall_w_mean).toBeCloseTo(s.ranking.wMean.stat.value!, 12);
		expect(rankings.mean_pairwise_tau_b).toBeCloseTo(s.ranking.tauMean.stat.value!, 12);
		const tags = await cliStats([
			'ratings',
			path('tags.csv'),
			'--order',
			'bad,okay,good',
			'--bootstrap',
			'50',
			'--seed',
			's'
		]);
		expect(tags.alpha_ordinal).toBeCloseTo(s.ranking.tagsAlpha.stat.value!, 12);
		// The same seed draws the same candidates: the same interval.
		const interval = s.ranking.tagsAlpha.interval;
		expect((tags.ci as Record<string, unknown>).alpha_ordinal).toEqual([
			interval.low,
			interval.high
		]);

		const board = s.metrics.find((m) => m.metric === 'value')!;
		const pairwise = await cliStats(['pairwise', path('pairwise_value.csv')]);
		expect(pairwise).toMatchObject({ ...board.pairwise, accuracy: board.accuracy.stat.value });
		const correlate = await cliStats(['correlate', path('correlate_value.csv')]);
		expect(correlate.pearson).toEqual(board.pearson.value);
		expect(correlate.spearman).toEqual(board.spearman.value);

		// The metric board's CSV says what the page says.
		const [header, ...rows] = parseCsv(renderTable(studyTables(s).metric_board, 'csv'));
		const row = rows.find((r) => r[header.indexOf('metric')] === 'value')!;
		expect(Number(row[header.indexOf('accuracy')])).toBe(board.accuracy.stat.value);
	});
});
