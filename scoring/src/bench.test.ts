import { describe, expect, it } from 'vitest';
import { runScoringBench } from './bench';

describe('runScoringBench', () => {
	it('reports throughput and peak memory for every phase', async () => {
		let printed = '';
		const rows = await runScoringBench({ stdout: (s) => void (printed += s) }, 300);
		expect(rows.map((r) => r.label)).toHaveLength(5);
		for (const r of rows) {
			expect(r.n).toBe(300);
			expect(r.itemsPerSecond).toBeGreaterThan(0);
			expect(r.peakRssMb).toBeGreaterThan(0);
		}
		expect(printed).toMatch(/semantic score \(hash:384\)\s+300 items/);
	});
});
