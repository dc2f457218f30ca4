import { describe, expect, it } from 'vitest';
import { bootstrap, seededRandom } from './bootstrap';
import {
	compilePairs,
	compileRatings,
	pairedRatingEstimates,
	ratingIntervals,
	sharedRatingEstimates,
	type CompiledRatings
} from './ratings-bootstrap';
import { RATING_KEYS, ratingOrder, ratingStatistics, ratingsSummary } from './ratings';
import type { Rating } from './types';

/** Ratings from a units × raters grid (null = missing). */
function grid(rows: (string | number | null)[][]): Rating[] {
	return rows.flatMap((row, u) =>
		row.flatMap((value, j) => (value === null ? [] : [{ unit: `u${u}`, rater: `r${j}`, value }]))
	);
}

/** Random ratings: some units miss raters, some raters may be absent from a unit set. */
function randomRatings(random: () => number, numeric: boolean): Rating[] {
	const raters = 2 + Math.floor(random() * 3);
	const units = 2 + Math.floor(random() * 25);
	const categories = 1 + Math.floor(random() * 5);
	const missing = random() * 0.4;
	const rows = Array.from({ length: units }, () =>
		Array.from({ length: raters }, () => {
			if (random() < missing) return null;
			const c = 1 + Math.floor(random() * categories);
			return numeric ? c : `c${c}`;
		})
	);
	return grid(rows);
}

const compiled = (r: Rating[], order: (string | number)[] | null): CompiledRatings => {
	const c = compileRatings(r, order);
	if (typeof c === 'string') throw new Error(c);
	return c;
};

/** The slow statistics of ratings.ts, as numbers or NaN. */
function slow(r: Rating[], order: (string | number)[] | null): number[] {
	const statistics = ratingStatistics(order);
	return RATING_KEYS.map((key) => statistics[key](r).value ?? NaN);
}

/** Type counts of a weight vector over units. */
function typeCounts(c: CompiledRatings, weights: number[]): Float64Array {
	const counts = new Float64Array(c.types);
	weights.forEach((w, u) => (counts[c.typeOfUnit[u]] += w));
	return counts;
}

/** The resample a weight vector stands for, spelt out: unit u repeated w_u times, fresh ids. */
function expand(r: Rating[], weights: number[]): Rating[] {
	const byUnit = new Map<string, Rating[]>();
	for (const x of r) byUnit.set(x.unit, [...(byUnit.get(x.unit) ?? []), x]);
	const units = [...byUnit.values()];
	const out: Rating[] = [];
	weights.forEach((w, u) => {
		for (let i = 0; i < w; i++) for (const x of units[u]) out.push({ ...x, unit: `${u}#${i}` });
	});
	return out;
}

function expectSame(fast: Float64Array, expected: number[], what: string) {
	RATING_KEYS.forEach((key, i) => {
		if (Number.isNaN(expected[i])) expect(fast[i], `${what} ${key}`).toBeNaN();
		else expect(Math.abs(fast[i] - expected[i]), `${what} ${key}`).toBeLessThan(1e-12);
	});
}

const KRIPPENDORFF_2011 = grid([
	[1, 1, null, 1],
	[2, 2, 3, 2],
	[3, 3, 3, 3],
	[3, 3, 3, 3],
	[2, 2, 2, 2],
	[1, 2, 3, 4],
	[4, 4, 4, 4],
	[1, 1, 2, 1],
	[2, 2, 2, 2],
	[null, 5, 5, 5],
	[null, null, 1, 1],
	[null, 3, null, null]
]);
const SHROUT_FLEISS = grid([
	[9, 2, 5, 8],
	[6, 1, 3, 2],
	[8, 4, 6, 8],
	[7, 1, 2, 6],
	[10, 5, 6, 9],
	[6, 2, 4, 7]
]);
/** Wikipedia's Cohen example: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no. */
const COHEN = grid([
	...Array<string[]>(20).fill(['yes', 'yes']),
	...Array<string[]>(5).fill(['yes', 'no']),
	...Array<string[]>(10).fill(['no', 'yes']),
	...Array<string[]>(15).fill(['no', 'no'])
]);

describe('the fast statistics on the whole data equal ratings.ts', () => {
	it.each([
		['Krippendorff 2011', KRIPPENDORFF_2011, null],
		['Shrout & Fleiss 1979', SHROUT_FLEISS, null],
		['Wikipedia Cohen', COHEN, ['no', 'yes']]
	] as const)('%s', (_, r, given) => {
		const order = given ? [...given] : ratingOrder(r);
		const c = compiled(r, order);
		const all = typeCounts(c, Array<number>(c.units).fill(1));
		const fast = c.evaluate(all);
		expectSame(fast, slow(r, order), 'whole data');
	});

	it('on seeded random data with missing ratings, categories or numbers, any number of raters', () => {
		const random = seededRandom('fast-whole');
		const definedCount = RATING_KEYS.map(() => 0);
		for (let it = 0; it < 400; it++) {
			const numeric = it % 2 === 0;
			const r = randomRatings(random, numeric);
			const order = numeric ? ratingOrder(r) : ['c1', 'c2', 'c3', 'c4', 'c5'];
			const c = compiled(r, order);
			const expected = slow(r, order);
			expectSame(c.evaluate(typeCounts(c, Array<number>(c.units).fill(1))), expected, `#${it}`);
			expected.forEach((v, i) => (definedCount[i] += Number.isNaN(v) ? 0 : 1));
		}
		// The comparison covers defined values of every statistic, not just agreeing NaNs.
		for (const n of definedCount) expect(n).toBeGreaterThan(40);
	});

	it('a rater rating a unit twice leaves everything undefined, as in ratings.ts', () => {
		const r = [...COHEN, { unit: 'u0', rater: 'r0', value: 'no' }];
		expect(compileRatings(r, null)).toMatch(/rated unit "u0" more than once/);
		const intervals = ratingIntervals(r, { resamples: 10, seed: 's' });
		for (const key of RATING_KEYS) expect(intervals[key].low).toBeNull();
	});
});

describe('a resample as unit weights', () => {
	it('equals the slow statistic on the resample spelt out (units drawn twice count twice; absent raters drop out)', () => {
		const random = seededRandom('fast-weights');
		for (let it = 0; it < 300; it++) {
			const numeric = it % 2 === 1;
			const r = randomRatings(random, numeric);
			const order = numeric ? ratingOrder(r) : ['c1', 'c2', 'c3', 'c4', 'c5'];
			const c = compiled(r, order);
			// Sparse weights, so whole raters and categories go missing from some resamples.
			const weights = Array.from({ length: c.units }, () =>
				random() < 0.5 ? 0 : Math.floor(random() * 4)
			);
			expectSame(c.evaluate(typeCounts(c, weights)), slow(expand(r, weights), order), `#${it}`);
		}
	});
});

describe('ratingIntervals', () => {
	it('gives the intervals of the generic bootstrap with the same seed (same unit draws)', () => {
		const random = seededRandom('fast-intervals');
		for (let it = 0; it < 12; it++) {
			const numeric = it % 2 === 0;
			const r = randomRatings(random, numeric);
			const order = numeric ? (ratingOrder(r) ?? undefined) : ['c1', 'c2', 'c3', 'c4', 'c5'];
			const fast = ratingIntervals(r, { order, resamples: 60, seed: `s${it}` });
			const statistics = ratingStatistics(order ?? null);
			const own = ratingsSummary(r, { order }).stats;
			const byUnit = new Map<string, Rating[]>();
			for (const x of r) byUnit.set(x.unit, [...(byUnit.get(x.unit) ?? []), x]);
			const units = [...byUnit.values()];
			for (const key of RATING_KEYS) {
				const f = fast[key];
				if (own[key].value === null) {
					expect(f).toEqual({
						low: null,
						high: null,
						reason: 'the statistic is undefined on the data'
					});
					continue;
				}
				const g = bootstrap(
					units,
					(sample) =>
						statistics[key](sample.flatMap((u, i) => u.map((x) => ({ ...x, unit: String(i) }))))
							.value,
					{ resamples: 60, seed: `s${it}` }
				);
				if (g.low === null) {
					expect(f.low, key).toBeNull();
					continue;
				}
				if (f.low === null) throw new Error(`${key}: no fast interval`);
				expect(f.valid).toBe(g.valid);
				expect(f.resamples).toBe(60);
				expect(f.level).toBe(0.95);
				expect(Math.abs(f.low - g.low)).toBeLessThan(1e-12);
				expect(Math.abs(f.high - g.high)).toBeLessThan(1e-12);
			}
		}
	});

	it('resamples whole clusters as the generic bootstrap over clusters does (same seed, same draws)', () => {
		const random = seededRandom('cluster-intervals');
		for (let it = 0; it < 10; it++) {
			const numeric = it % 2 === 1;
			const r = randomRatings(random, numeric);
			// Clusters of 1–4 consecutive units, like the candidates of a question.
			const sizes = new Map<string, number>();
			let cluster = 0;
			let left = 0;
			for (const x of r) {
				if (sizes.has(x.unit)) continue;
				if (left === 0) {
					cluster++;
					left = 1 + Math.floor(random() * 4);
				}
				sizes.set(x.unit, cluster);
				left--;
			}
			const clusterOf = (unit: string) => `q${sizes.get(unit)}`;
			const order = numeric ? (ratingOrder(r) ?? undefined) : ['c1', 'c2', 'c3', 'c4', 'c5'];
			const fast = ratingIntervals(r, { order, resamples: 50, seed: `c${it}`, clusterOf });
			const statistics = ratingStatistics(order ?? null);
			const own = ratingsSummary(r, { order }).stats;
			const byCluster = new Map<string, Rating[]>();
			for (const x of r) {
				const key = clusterOf(x.unit);
				byCluster.set(key, [...(byCluster.get(key) ?? []), x]);
			}
			const clusters = [...byCluster.values()];
			for (const key of RATING_KEYS) {
				const f = fast[key];
				if (own[key].value === null) {
					expect(f.low, key).toBeNull();
					continue;
				}
				// A cluster drawn twice brings its units twice, each copy a unit of its own.
				const g = bootstrap(
					clusters,
					(sample) =>
						statistics[key](
							sample.flatMap((c, i) => c.map((x) => ({ ...x, unit: `${i}:${x.unit}` })))
						).value,
					{ resamples: 50, seed: `c${it}` }
				);
				if (g.low === null) {
					expect(f.low, key).toBeNull();
					continue;
				}
				if (f.low === null) throw new Error(`${key}: no fast interval`);
				expect(f.valid, key).toBe(g.valid);
				expect(Math.abs(f.low - g.low), key).toBeLessThan(1e-12);
				expect(Math.abs(f.high - g.high), key).toBeLessThan(1e-12);
			}
		}
	});

	it('with every cluster drawn once, each statistic is the plain one', () => {
		const random = seededRandom('cluster-once');
		const r = randomRatings(random, true);
		const c = compiled(r, ratingOrder(r));
		const plain = slow(r, ratingOrder(r));
		const weights = Array.from({ length: c.units }, () => 1);
		const fast = c.evaluate(typeCounts(c, weights));
		RATING_KEYS.forEach((key, i) => {
			if (Number.isNaN(plain[i])) expect(fast[i], key).toBeNaN();
			else expect(Math.abs(fast[i] - plain[i]), key).toBeLessThan(1e-12);
		});
	});

	it('leaves statistics above the declared level without an interval, and takes a confidence', () => {
		const intervals = ratingIntervals(KRIPPENDORFF_2011, {
			level: 'ordinal',
			resamples: 200,
			seed: 'k',
			confidence: 0.5
		});
		expect(intervals.alpha_interval.low).toBeNull();
		expect(intervals.icc2_1.low).toBeNull();
		const alpha = intervals.alpha_ordinal;
		if (alpha.low === null) throw new Error(alpha.reason);
		expect(alpha.level).toBe(0.5);
		expect(alpha.low).toBeLessThan(alpha.high);
		expect(() => ratingIntervals(COHEN, { resamples: 0, seed: 'x' })).toThrow(RangeError);
	});
});

describe('pairedRatingEstimates', () => {
	// What pairedRatingEstimates stands for: the ratings of rater 'a' and 'b' of units "0", "1", …
	const spelt = (a: (string | number)[], b: (string | number)[]): Rating[] =>
		a.flatMap((value, i) => [
			{ unit: String(i), rater: 'a', value },
			{ unit: String(i), rater: 'b', value: b[i] }
		]);

	it('equals sharedRatingEstimates over the ratings it stands for, to the last bit', () => {
		const random = seededRandom('paired');
		const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)];
		// Numbers, words, numbers and their texts side by side ("3" is not 3), −0 beside 0, one
		// category only, a few pairs and many, with and without a declared order.
		const pools: (string | number)[][] = [
			[1, 2, 3, 4, 5],
			['yes', 'no', 'unsure'],
			[3, '3', 4, '4'],
			[0, -0, 1],
			['same'],
			[2.5, 1, 10]
		];
		for (let trial = 0; trial < 60; trial++) {
			const n = pick([0, 1, 2, 5, 17, 60, 240]);
			const sets = [pick(pools), pick(pools)].map((pool, s) => {
				const a = Array.from({ length: n }, () => pick(pool));
				const b = Array.from({ length: n }, () => (random() < 0.6 ? a[0] : pick(pool)));
				return { a, b, order: s === 1 && random() < 0.5 ? [1, 2, 3, 4, 5] : undefined };
			});
			const opts = { resamples: pick([0, 1, 37]), seed: `paired ${trial}` };
			const paired = pairedRatingEstimates(sets, opts);
			const shared = sharedRatingEstimates(
				sets.map(({ a, b, order }) => ({ ratings: spelt(a, b), order })),
				opts
			);
			expect(paired).toEqual(shared);
		}
	});

	it('computes only the intervals asked for, each the same as when every one is computed', () => {
		const random = seededRandom('asked');
		for (let trial = 0; trial < 30; trial++) {
			const n = 5 + Math.floor(random() * 80);
			const grade = () => 1 + Math.floor(random() * 5);
			const sets = [0, 1].map(() => {
				const a = Array.from({ length: n }, grade);
				return { a, b: a.map((v) => (random() < 0.6 ? v : grade())), order: [1, 2, 3, 4, 5] };
			});
			// Each statistic asked for or not, by chance: the parts of the evaluation skipped differ.
			const asked = sets.map(() => RATING_KEYS.filter(() => random() < 0.4));
			const opts = { resamples: 30, seed: `asked ${trial}` };
			const all = pairedRatingEstimates(sets, opts);
			const some = pairedRatingEstimates(
				sets.map((set, i) => ({ ...set, keys: asked[i] })),
				opts
			);
			sets.forEach((_, i) => {
				expect(some[i].values).toEqual(all[i].values);
				for (const key of RATING_KEYS)
					expect(some[i].intervals![key]).toEqual(
						asked[i].includes(key)
							? all[i].intervals![key]
							: { low: null, high: null, reason: 'no interval asked for' }
					);
			});
		}
	});

	it('compiles the same categories, unit types and evaluation as compileRatings', () => {
		// 3 and "3" are two values (a number and a text), as in compileRatings.
		const a = [3, 1, '3', 'x', 2, 1, 3];
		const b = [3, 2, '3', 'x', 1, 1, 3];
		const fast = compilePairs(a, b, [1, 2, 3]);
		const generic = compiled(spelt(a, b), [1, 2, 3]);
		expect(generic.types).toBe(6);
		expect(fast.types).toBe(generic.types);
		expect([...fast.typeOfUnit]).toEqual([...generic.typeOfUnit]);
		for (const weights of [
			[2, 0, 1, 3, 1, 1],
			[1, 1, 0, 0, 1, 0]
		])
			expect([...fast.evaluate(weights)]).toEqual([...generic.evaluate(weights)]);
	});

	it('refuses sets over different numbers of units', () => {
		expect(() => compilePairs([1, 2], [1], null)).toThrow(/2 first ratings, 1 second/);
		expect(() =>
			pairedRatingEstimates(
				[
					{ a: [1], b: [1] },
					{ a: [1, 2], b: [1, 2] }
				],
				{ resamples: 0, seed: 's' }
			)
		).toThrow(/same units/);
	});
});

describe('sharedRatingEstimates', () => {
	it('gives each set what it gives the set alone: one draw per resample serves them all', () => {
		// Three sets over the same units with their own values and missing ratings, so a unit's
		// combination of types is drawn jointly: a combination numbered or read off wrongly moves a
		// resample's counts in one set and not in the others.
		const random = seededRandom('shared');
		for (let trial = 0; trial < 40; trial++) {
			const units = 2 + Math.floor(random() * 40);
			const sets = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
				const categories = 1 + Math.floor(random() * 4);
				const ratings = Array.from({ length: units }, (_, u) =>
					['a', 'b', 'c'].flatMap((rater) =>
						// Rater a rates every unit, so each set's units come first seen in the same order.
						rater !== 'a' && random() < 0.2
							? []
							: [{ unit: `u${u}`, rater, value: 1 + Math.floor(random() * categories) }]
					)
				).flat();
				return { ratings, order: [1, 2, 3, 4] };
			});
			const opts = { resamples: 25, seed: `shared ${trial}` };
			const together = sharedRatingEstimates(sets, opts);
			sets.forEach((set, i) => expect(together[i]).toEqual(sharedRatingEstimates([set], opts)[0]));
		}
	});
});
