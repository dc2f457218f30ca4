// The agreement bundle's battles.csv is `cliniq stats bt`'s input: with the bundle's resamples and
// seed, the command prints the agreement page's ratings and intervals.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeEachDb } from '$lib/server/db/testing';
import { seedJudgedPairwiseStudy } from '$lib/server/fixtures/pairwise-report';
import {
	agreementBundleFiles,
	dashboardReports,
	readDashboardQuery
} from '$lib/server/domain/agreement';
import { main } from './main';

describeEachDb('cliniq stats bt on the agreement bundle', (h) => {
	it('prints the ratings and intervals the page shows', async () => {
		const { studyId } = await seedJudgedPairwiseStudy(h.db);
		const page = await dashboardReports(
			h.db,
			readDashboardQuery(
				new URLSearchParams({ study: String(studyId), resamples: '60', seed: 'pw' })
			)
		);
		const r = page.pairwise!.result;
		const files = await agreementBundleFiles(h.db, {
			verification: null,
			study: null,
			pairwise: { studyId, report: r },
			leaderboards: page.leaderboards!.result
		});
		// `cliniq stats bt` on battles.csv with the bundle's resamples and seed prints the page's
		// ratings and intervals.
		const path = join(mkdtempSync(join(tmpdir(), 'cliniq-pairwise-')), 'battles.csv');
		writeFileSync(path, files.find((f) => f.name === 'battles.csv')!.content);
		const out: string[] = [];
		const code = await main(['stats', 'bt', path, '--bootstrap', '60', '--seed', 'pw'], {
			stdout: (x) => out.push(x),
			stderr: () => {}
		});
		expect(code).toBe(0);
		const cli = JSON.parse(out.join('\n'));
		for (const row of r.leaderboard.rows) {
			expect(cli.ratings[row.model]).toBeCloseTo(row.rating.value!, 9);
			expect(cli.ci.ratings[row.model][0]).toBeCloseTo(row.interval.low!, 9);
			expect(cli.ci.ratings[row.model][1]).toBeCloseTo(row.interval.high!, 9);
		}
	});
});
