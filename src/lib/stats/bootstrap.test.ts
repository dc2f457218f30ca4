import { describe, expect, it } from 'vitest';
import {
	bootstrap,
	bootstrapRatio,
	percentileInterval,
	seededRandom,
	seededTally
} from './bootstrap';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('seededRandom', () => {
	it('gives the same sequence for the same seed and another for another seed, in [0, 1)', () => {
		const a = seededRandom('seed');
		const b = seededRandom('seed');
		const c = seededRandom('other');
		const xs = Array.from({ length: 1000 }, () => a());
		expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
		expect(Array.from({ length: 1000 }, () => c())).not.toEqual(xs);
		expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
		expect(mean(xs)).toBeGreaterThan(0.45);
		expect(mean(xs)).toBeLessThan(0.55);
	});
});

describe('bootstrap', () => {
	it('gives the same interval for the same seed', () => {
		const random = seededRandom('data');
		const units = Array.from({ length: 50 }, () => random());
		const opts = { resamples: 200, seed: 's1' };
		expect(bootstrap(units, mean, opts)).toEqual(bootstrap(units, mean, opts));
		expect(bootstrap(units, mean, opts)).not.toEqual(
			bootstrap(units, mean, { ...opts, seed: 's2' })
		);
	});

	it('resamples whole units: units of different sizes arrive complete', () => {
		// Unit k holds k judgements of the value k; a statistic on the concatenation sees every value
		// v a multiple of v times only if whole units were drawn.
		const units = [1, 2, 3, 4, 5, 7].map((k) => Array.from({ length: k }, () => k));
		let checked = 0;
		let whole = true;
		const interval = bootstrap(
			units,
			(sample) => {
				expect(sample).toHaveLength(units.length);
				const flat = sample.flat();
				const counts = new Map<number, number>();
				for (const v of flat) counts.set(v, (counts.get(v) ?? 0) + 1);
				for (const [v, count] of counts) if (count % v !== 0) whole = false;
				checked++;
				return mean(flat);
			},
			{ resamples: 300, seed: 'units' }
		);
		expect(checked).toBe(300);
		expect(whole).toBe(true);
		expect(interval).toMatchObject({ resamples: 300, valid: 300, level: 0.95 });
	});

	it('contains the point estimate on well-behaved data', () => {
		const random = seededRandom('normalish');
		const units = Array.from({ length: 200 }, () => random() + random() + random());
		const interval = bootstrap(units, mean, { resamples: 500, seed: 'ci' });
		expect(interval.low).not.toBeNull();
		expect(interval.low!).toBeLessThan(mean(units));
		expect(interval.high!).toBeGreaterThan(mean(units));
	});

	it('skips and counts resamples where the statistic is undefined', () => {
		const units = [0, 1, 2, 3];
		// Undefined whenever unit 0 is drawn: (3/4)^4 ≈ 32 % of resamples are valid.
		const interval = bootstrap(units, (s) => (s.includes(0) ? null : mean(s)), {
			resamples: 1000,
			seed: 'skip'
		});
		expect(interval.low).not.toBeNull();
		if (interval.low !== null) {
			expect(interval.valid).toBeGreaterThan(200);
			expect(interval.valid).toBeLessThan(450);
			expect(interval.low).toBeGreaterThanOrEqual(1);
		}
		expect(bootstrap(units, () => null, { resamples: 10, seed: 'x' })).toEqual({
			low: null,
			high: null,
			reason: 'the statistic is undefined on every resample'
		});
		expect(bootstrap([], mean, { resamples: 10, seed: 'x' })).toMatchObject({
			reason: 'no units to resample'
		});
	});

	it('takes the type-7 percentiles of the resampled values', () => {
		const values = Float64Array.from([5, 1, 4, 2, 3]);
		expect(percentileInterval(values, 0.5, 5)).toEqual({
			low: 2,
			high: 4,
			level: 0.5,
			resamples: 5,
			valid: 5
		});
		const wide = percentileInterval(Float64Array.from([0, 10]), 0.9, 2);
		expect(wide.low).toBeCloseTo(0.5, 12);
		expect(wide.high).toBeCloseTo(9.5, 12);
	});
});

describe('bootstrapRatio', () => {
	it('gives the interval of bootstrap() with the ratio of sums (same draws, same values)', () => {
		const random = seededRandom('ratio');
		// A mean over units where defined (null: undefined), and successes over trials.
		const values = Array.from({ length: 60 }, () => (random() < 0.2 ? null : random()));
		const fast = bootstrapRatio(
			values.map((v) => v ?? 0),
			values.map((v) => (v === null ? 0 : 1)),
			{ resamples: 300, seed: 'm' }
		);
		const slow = bootstrap(
			values,
			(sample) => {
				const d = sample.filter((v): v is number => v !== null);
				return d.length ? mean(d) : null;
			},
			{ resamples: 300, seed: 'm' }
		);
		expect(fast).toEqual(slow);
		const units = Array.from({ length: 30 }, () => {
			const trials = Math.floor(random() * 4);
			return { good: Math.floor(random() * (trials + 1)), trials };
		});
		const accuracy = bootstrapRatio(
			units.map((u) => u.good),
			units.map((u) => u.trials),
			{ resamples: 200, seed: 'a' }
		);
		const generic = bootstrap(
			units,
			(sample) => {
				const trials = sample.reduce((s, u) => s + u.trials, 0);
				return trials ? sample.reduce((s, u) => s + u.good, 0) / trials : null;
			},
			{ resamples: 200, seed: 'a' }
		);
		expect(accuracy).toEqual(generic);
	});
});

describe('seededTally', () => {
	it('counts the types of the indices Math.floor(random() * n) draws from the same seed', () => {
		// Sizes that fill its four tallies evenly and not (n mod 4 = 0 … 3), one type and many; on
		// both sides of 2¹⁶, where the index stops being computed in 32-bit integers.
		for (const [n, types] of [
			[1_000, 13],
			[1_001, 13],
			[6, 1],
			[3, 2],
			[2_047, 300],
			[65_535, 11],
			[65_536, 11],
			[65_537, 11],
			[200_003, 5]
		]) {
			const typeOf = Int32Array.from({ length: n }, (_, i) => (i * 7) % types);
			const random = seededRandom(`tally ${n}`);
			const tally = seededTally(`tally ${n}`);
			for (let round = 0; round < 3; round++) {
				const expected = new Float64Array(types);
				for (let i = 0; i < n; i++) expected[typeOf[Math.floor(random() * n)]]++;
				// Added to what the counts hold already.
				const counts = new Float64Array(types).fill(round);
				tally(n, typeOf, counts);
				expect([...counts]).toEqual([...expected].map((c) => c + round));
			}
		}
	});

	it('draws each unit as Math.floor(random() * n) does: every unit its own type', () => {
		// A draw put at the next unit, or off by one at the top, changes two counts here.
		for (const n of [1, 2, 40_000, 65_535, 65_536, 65_537]) {
			const typeOf = Int32Array.from({ length: n }, (_, i) => i);
			const random = seededRandom(`units ${n}`);
			const expected = new Float64Array(n);
			for (let round = 0; round < 2; round++)
				for (let i = 0; i < n; i++) expected[Math.floor(random() * n)]++;
			const counts = new Float64Array(n);
			const tally = seededTally(`units ${n}`);
			tally(n, typeOf, counts);
			tally(n, typeOf, counts);
			expect(counts).toEqual(expected);
		}
	});

	it('keeps its place in the sequence across calls of other sizes', () => {
		const random = seededRandom('sizes');
		const tally = seededTally('sizes');
		for (const n of [5, 1, 64, 7]) {
			const typeOf = Int32Array.from({ length: n }, (_, i) => i);
			const expected = new Float64Array(n);
			for (let i = 0; i < n; i++) expected[Math.floor(random() * n)]++;
			const counts = new Float64Array(n);
			tally(n, typeOf, counts);
			expect([...counts]).toEqual([...expected]);
		}
	});
});
