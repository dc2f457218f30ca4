import { describe, expect, it } from 'vitest';
import {
	binomialTest,
	byIsoWeek,
	fastThreshold,
	firstShownRankedFirst,
	isoWeek,
	leftPreference,
	peerAgreement,
	timeOnTask,
	type UnitLabel
} from './rater-quality';

const opts = { resamples: 200, seed: 'test' };

describe('peerAgreement', () => {
	// A with B: (x,x) (y,y) (x,y) (y,y); A with C: (x,y) (y,y) (x,x) (y,x). Pooled 8 pairs, 5 agree:
	// pₒ = 5/8; A's labels 4 x, 4 y; the peers' 3 x, 5 y, so pₑ = ½·⅜ + ½·⅝ = ½ and
	// κ = (5/8 − 1/2)/(1 − 1/2) = 1/4.
	const table: [string, string, string][] = [
		['x', 'x', 'y'],
		['y', 'y', 'y'],
		['x', 'y', 'x'],
		['y', 'y', 'x']
	];
	const labels: UnitLabel[] = table.flatMap((row, q) =>
		row.map((label, r) => ({ question: `q${q}`, unit: `q${q}/k`, rater: 'ABC'[r], label }))
	);
	it('pools the pairs with every peer (worked by hand)', () => {
		const a = peerAgreement(labels, 'A', opts);
		expect(a.pairs).toBe(8);
		expect(a.questions).toBe(4);
		expect(a.kappa.value).toBeCloseTo(0.25, 12);
		expect(a.interval).toEqual({
			low: null,
			high: null,
			reason: 'needs at least 5 questions shared with a peer; has 4'
		});
	});
	it('gives a seeded interval over questions, the same on every run', () => {
		const many = [0, 1, 2].flatMap((copy) =>
			labels.map((l) => ({ ...l, question: `${copy}${l.question}`, unit: `${copy}${l.unit}` }))
		);
		const a = peerAgreement(many, 'A', opts);
		expect(a.kappa.value).toBeCloseTo(0.25, 12);
		expect(a.interval.low).not.toBeNull();
		expect(peerAgreement(many, 'A', opts)).toEqual(a);
	});
	it('says why when the rater shares nothing', () => {
		const a = peerAgreement([{ question: 'q', unit: 'u', rater: 'A', label: 'x' }], 'A', opts);
		expect(a.kappa).toEqual({ value: null, reason: 'shares no labelled unit with another rater' });
	});
});

describe('binomialTest', () => {
	it('matches exact values', () => {
		// 2·P(X ≤ 7), X ~ Bin(20, ½) = 2·137980/2²⁰.
		expect(binomialTest(7, 20).value).toBeCloseTo((2 * 137980) / 1048576, 12);
		// 9 of 10: 2·(10 + 1)/1024.
		expect(binomialTest(9, 10).value).toBeCloseTo(22 / 1024, 12);
		expect(binomialTest(5, 10).value).toBe(1);
		// R's documented example, binom.test(682, 925, p = 0.75): p-value = 0.3825.
		expect(binomialTest(682, 925, 0.75).value).toBeCloseTo(0.3825, 4);
		expect(binomialTest(0, 0)).toEqual({ value: null, reason: 'no trials' });
	});
});

describe('position bias', () => {
	it('pairwise: the left share, its Wilson interval and the test against ½', () => {
		const b = leftPreference(10, 0);
		expect(b.share.value).toBe(1);
		expect(b.pValue.value).toBeCloseTo(2 / 1024, 12);
		expect(b.low).toBeGreaterThan(0.5);
		expect(leftPreference(0, 0).share.value).toBeNull();
	});
	it('ranking: first shown ranked first against Σ 1/n', () => {
		const b = firstShownRankedFirst([
			{ answers: 2, firstShownRankedFirst: true },
			{ answers: 4, firstShownRankedFirst: false }
		]);
		expect(b.share.value).toBe(0.5);
		expect(b.chance).toBeCloseTo((1 / 2 + 1 / 4) / 2, 12);
	});
});

describe('fast judgements', () => {
	it('flags under 10 s, or under a fifth of the study median when that is higher', () => {
		const study = [60_000, 60_000, 60_000, 11_000, 70_000];
		expect(fastThreshold(study)).toBe(12_000);
		expect(timeOnTask([11_000, 60_000, 12_000], fastThreshold(study))).toEqual({
			n: 3,
			medianMs: 12_000,
			fast: 1,
			thresholdMs: 12_000
		});
		expect(fastThreshold([30_000, 40_000])).toBe(10_000);
		expect(timeOnTask([9_999, 10_000], 10_000).fast).toBe(1);
		expect(fastThreshold([])).toBe(10_000);
	});
});

describe('isoWeek', () => {
	it('follows ISO 8601 across year boundaries', () => {
		expect(isoWeek(new Date('2026-01-01T12:00:00Z'))).toBe('2026-W01');
		expect(isoWeek(new Date('2025-12-29T00:00:00Z'))).toBe('2026-W01');
		expect(isoWeek(new Date('2025-12-28T23:59:59Z'))).toBe('2025-W52');
		expect(isoWeek(new Date('2027-01-01T00:00:00Z'))).toBe('2026-W53');
		expect(isoWeek(new Date('2021-01-03T00:00:00Z'))).toBe('2020-W53');
		expect(isoWeek(new Date('2021-01-04T00:00:00Z'))).toBe('2021-W01');
	});
	it('buckets values by week, in order', () => {
		const at = ['2026-01-02', '2025-12-28', '2025-12-30'].map((d) => new Date(`${d}T10:00:00Z`));
		expect(byIsoWeek(at, (d) => d).map(([w, v]) => [w, v.length])).toEqual([
			['2025-W52', 1],
			['2026-W01', 2]
		]);
	});
});
