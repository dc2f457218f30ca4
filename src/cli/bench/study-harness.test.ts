import { describe, expect, it } from 'vitest';
import {
	SLICES,
	describePhase,
	measureAlternating,
	openBenchDatabase,
	percentile,
	rateRatio
} from './study-harness';

const quiet = { stdout: () => {}, stderr: () => {} };

describe('study bench harness', () => {
	it('takes the nearest rank below for a percentile', () => {
		const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
		expect(percentile(sorted, 50)).toBe(6);
		expect(percentile(sorted, 95)).toBe(10);
		expect(percentile([], 50)).toBeNaN();
	});

	it('alternates portal and baseline slices, counting actions, time and statements of each', async () => {
		let statements = 0;
		const order: string[] = [];
		const left = [3, 1];
		const { portal, baseline } = await measureAlternating({
			clients: 2,
			seconds: 0.05 * SLICES,
			statements: () => statements,
			ready: (i) => left[i] > 0,
			portal: async (i) => {
				order.push('portal');
				statements += 1;
				left[i]--;
			},
			baseline: async () => {
				order.push('baseline');
				statements += 5;
				await new Promise((r) => setTimeout(r, 5));
			}
		});
		// The portal clients stop when they have nothing left; the baseline runs each slice.
		expect(portal.actions).toBe(4);
		expect(portal.statements).toBe(4);
		expect(baseline.actions).toBeGreaterThanOrEqual(SLICES * 2);
		expect(baseline.statements).toBe(baseline.actions * 5);
		expect(order[0]).toBe('portal');
		expect(baseline.seconds).toBeGreaterThan(0.04 * SLICES);
		expect(describePhase('baseline', baseline)).toMatch(
			/^ {2}baseline: \d+ actions\/s \(\d+ in [\d.]+ s\), median [\d.]+ ms, p95 [\d.]+ ms, 5\.0 statements per action$/
		);
		expect(rateRatio(baseline, baseline)).toBeCloseTo(100);
	});

	it('opens a migrated PGlite database whose statements are counted, raw ones and transactions included', async () => {
		const bench = (await openBenchDatabase(quiet, 'pglite', { prefix: 'unused', pool: 1 }))!;
		try {
			const before = bench.statements();
			const [row] = await bench.raw.query<{ n: number }>('select count(*)::int as n from "user"');
			expect(row.n).toBe(0);
			expect(bench.statements() - before).toBe(1);
			const mid = bench.statements();
			await bench.raw.transaction(async (q) => {
				await q('select 1');
				await q('select $1::int', [2]);
			});
			// BEGIN, two statements, COMMIT.
			expect(bench.statements() - mid).toBe(4);
		} finally {
			await bench.close();
		}
	});
});
