import { describe, expect, it } from 'vitest';
import { irMetrics, labelMetrics } from './list-metrics';

describe('label-level list metrics (docs/scoring-behaviour.md §6.4)', () => {
	it('label-macro differs from the per-question mean', () => {
		const m = labelMetrics(
			[new Set(['a', 'b', 'c']), new Set(['a'])],
			[new Set(['a', 'b', 'c']), new Set()]
		);
		// labels: a (tp1, fn1 -> f1 2/3), b (1), c (1)
		expect(m.macro.f1).toBeCloseTo(8 / 9, 12);
		expect(m.macro.precision).toBe(1);
		expect(m.macro.recall).toBeCloseTo(5 / 6, 12);
		// micro: tp 3, fp 0, fn 1
		expect(m.micro.f1).toBeCloseTo(6 / 7, 12);
	});
	it('is 0 with no labels at all', () => {
		expect(labelMetrics([new Set()], [new Set()]).macro.f1).toBe(0);
	});
	it('computes MAP, MRR and P@5', () => {
		const r = irMetrics([['x', 'a', 'b']], [['a', 'b']]);
		expect(r.mrr).toBe(0.5);
		expect(r.map).toBeCloseTo((1 / 2 + 2 / 3) / 2, 12);
		expect(r.pAt5).toBeCloseTo(2 / 5, 12);
	});
});
