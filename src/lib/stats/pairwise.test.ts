import { describe, expect, it } from 'vitest';
import { pairwiseAccuracy } from './pairwise';

describe('pairwiseAccuracy', () => {
	it('hand-worked: 2 questions, 4 pairs with distinct expert ranks, 1 metric tie → 2.5/4', () => {
		const rows = [
			// q1: experts A < B < C; metric A 0.9, B 0.5, C 0.5 → AB concordant, AC concordant, BC tie
			{ question: 'q1', candidate: 'A', expertRank: 1, metric: 0.9 },
			{ question: 'q1', candidate: 'B', expertRank: 2, metric: 0.5 },
			{ question: 'q1', candidate: 'C', expertRank: 3, metric: 0.5 },
			// q2: experts tie X and Y (no pair) and rank Z last; metric prefers Z to X, Y to Z
			{ question: 'q2', candidate: 'X', expertRank: 1, metric: 0.1 },
			{ question: 'q2', candidate: 'Y', expertRank: 1, metric: 0.8 },
			{ question: 'q2', candidate: 'Z', expertRank: 2, metric: 0.3 }
		];
		expect(pairwiseAccuracy(rows)).toEqual({
			pairs: 5,
			concordant: 3,
			discordant: 1,
			metric_ties: 1,
			accuracy: { value: 3.5 / 5 }
		});
	});

	it('never pairs candidates of different questions, and says why accuracy is undefined', () => {
		const rows = [
			{ question: 'q1', candidate: 'A', expertRank: 1, metric: 0 },
			{ question: 'q2', candidate: 'B', expertRank: 2, metric: 1 }
		];
		const r = pairwiseAccuracy(rows);
		expect(r.pairs).toBe(0);
		expect(r.accuracy).toEqual({
			value: null,
			reason: 'no pair of candidates of a question has different expert ranks'
		});
	});

	it('leaves out rows with a missing metric and refuses a candidate given twice', () => {
		const rows = [
			{ question: 'q1', candidate: 'A', expertRank: 1, metric: 2 },
			{ question: 'q1', candidate: 'B', expertRank: 2, metric: 1 },
			{ question: 'q1', candidate: 'C', expertRank: 3, metric: NaN }
		];
		expect(pairwiseAccuracy(rows).pairs).toBe(1);
		expect(() => pairwiseAccuracy([...rows, { ...rows[0] }])).toThrow(
			/A appears twice in question q1/
		);
	});

	it('a metric that reverses the experts scores 0; one that agrees scores 1', () => {
		const rows = [1, 2, 3, 4].map((rank) => ({
			question: 'q',
			candidate: `c${rank}`,
			expertRank: rank,
			metric: rank
		}));
		expect(pairwiseAccuracy(rows).accuracy.value).toBe(0);
		expect(pairwiseAccuracy(rows.map((r) => ({ ...r, metric: -r.metric }))).accuracy.value).toBe(1);
	});
});
