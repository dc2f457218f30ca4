import { describe, expect, inject, it } from 'vitest';
import postgres from 'postgres';
import { hasPostgres, postgresUnmet } from '$lib/server/db/testing';
import { skippedTitle } from '$scoring/testing/skip';
import { backendCpu, cpuBetween, dbCpuLine } from './server-cpu';

describe('PostgreSQL CPU per action in the benches', () => {
	it('adds each backend’s CPU between two readings, a backend that started in between from zero', () => {
		const before = new Map([
			[10, 100],
			[11, 50]
		]);
		const after = new Map([
			[10, 130],
			[11, 50],
			[12, 7]
		]);
		expect(cpuBetween(before, after)).toBe(37);
		expect(cpuBetween(null, after)).toBeNull();
	});

	it('prints the portal’s CPU per action beside the floor’s, the ratio and whether the target is met', () => {
		expect(
			dbCpuLine('review', { actions: 100, dbCpuMs: 140 }, { actions: 200, dbCpuMs: 200 })
		).toBe(
			'  review: PostgreSQL CPU per action 1.40 ms vs floor 1.00 ms = 1.40× (target ≤ 1.5×: met)'
		);
		expect(dbCpuLine('review', { actions: 10, dbCpuMs: 20 }, { actions: 10, dbCpuMs: 10 })).toMatch(
			/= 2\.00× \(target ≤ 1\.5×: MISSED\)$/
		);
		expect(
			dbCpuLine('review', { actions: 10, dbCpuMs: null }, { actions: 10, dbCpuMs: 10 })
		).toMatch(/not read/);
	});
});

describe.skipIf(!hasPostgres())(
	skippedTitle('PostgreSQL CPU read from the server’s backends', postgresUnmet()),
	() => {
		it('sees the CPU a backend of this database spends on a query', async () => {
			const sql = postgres(inject('postgresTemplateUrl')!, { max: 1, onnotice: () => {} });
			try {
				const read = backendCpu((text) => sql.unsafe(text) as unknown as Promise<[]>);
				const before = await read();
				expect(before).not.toBeNull();
				expect(before!.size).toBeGreaterThanOrEqual(1);
				// Several hundred milliseconds of one core's work inside the server.
				await sql`select count(*) from generate_series(1, 8000000)`;
				const used = cpuBetween(before, await read())!;
				expect(used).toBeGreaterThan(100);
			} finally {
				await sql.end();
			}
		});
	}
);
