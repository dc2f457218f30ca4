import { describe, expect, it } from 'vitest';
import {
	cohenKappa,
	fleissKappa,
	icc,
	krippendorffAlpha,
	percentAgreement,
	ratingOrder,
	ratingsSummary,
	weightedKappa,
	RATING_KEYS
} from './ratings';
import type { Rating, Stat } from './types';

/** Ratings from a units × raters grid (null = missing). */
function grid(rows: (string | number | null)[][], raters?: string[]): Rating[] {
	return rows.flatMap((row, u) =>
		row.flatMap((value, j) =>
			value === null ? [] : [{ unit: `u${u + 1}`, rater: raters?.[j] ?? `r${j + 1}`, value }]
		)
	);
}

/** Two raters' ratings from a contingency table (rows: rater A's category, columns: rater B's). */
function fromTable(counts: number[][], categories: (string | number)[]): Rating[] {
	const out: Rating[] = [];
	let u = 0;
	counts.forEach((row, i) =>
		row.forEach((n, j) => {
			for (let x = 0; x < n; x++, u++) {
				out.push({ unit: `u${u}`, rater: 'A', value: categories[i] });
				out.push({ unit: `u${u}`, rater: 'B', value: categories[j] });
			}
		})
	);
	return out;
}

const value = (s: Stat) => {
	if (s.value === null) throw new Error(`undefined: ${s.reason}`);
	return s.value;
};

// Krippendorff (2011) "Computing Krippendorff's Alpha-Reliability", reliability data of
// 4 observers × 12 units with missing values (observers in rows there; units in rows here).
const KRIPPENDORFF_2011 = grid(
	[
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
	],
	['A', 'B', 'C', 'D']
);

describe('published worked examples', () => {
	it('Krippendorff 2011, 4 observers × 12 units with missing values: alpha nominal 0.743, ordinal 0.815, interval 0.849', () => {
		expect(value(krippendorffAlpha(KRIPPENDORFF_2011, 'nominal'))).toBeCloseTo(0.743, 3);
		expect(value(krippendorffAlpha(KRIPPENDORFF_2011, 'ordinal'))).toBeCloseTo(0.815, 3);
		expect(value(krippendorffAlpha(KRIPPENDORFF_2011, 'interval'))).toBeCloseTo(0.849, 3);
	});

	it("Fleiss 1971 as worked on Wikipedia's Fleiss' kappa page (10 subjects, 14 raters, 5 categories): kappa 0.210", () => {
		const counts = [
			[0, 0, 0, 0, 14],
			[0, 2, 6, 4, 2],
			[0, 0, 3, 5, 6],
			[0, 3, 9, 2, 0],
			[2, 2, 8, 1, 1],
			[7, 7, 0, 0, 0],
			[3, 2, 6, 3, 0],
			[2, 5, 3, 2, 2],
			[6, 5, 2, 1, 0],
			[0, 2, 2, 3, 7]
		];
		const ratings = counts.flatMap((row, s) => {
			const raters = row.flatMap((n, c) => Array<number>(n).fill(c + 1));
			return raters.map((v, i) => ({ unit: `s${s}`, rater: `r${i}`, value: v }));
		});
		expect(value(fleissKappa(ratings))).toBeCloseTo(0.21, 3);
	});

	it("Wikipedia's Cohen's kappa example (50 grant applications, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no): kappa 0.4", () => {
		const ratings = fromTable(
			[
				[20, 5],
				[10, 15]
			],
			['yes', 'no']
		);
		expect(value(cohenKappa(ratings))).toBeCloseTo(0.4, 10);
		expect(value(percentAgreement(ratings))).toBeCloseTo(0.7, 10);
	});

	it('Shrout & Fleiss 1979 Table 2 (6 targets × 4 judges): ICC(2,1) 0.29, ICC(2,k) 0.62', () => {
		const ratings = grid([
			[9, 2, 5, 8],
			[6, 1, 3, 2],
			[8, 4, 6, 8],
			[7, 1, 2, 6],
			[10, 5, 6, 9],
			[6, 2, 4, 7]
		]);
		expect(value(icc(ratings, '2,1'))).toBeCloseTo(0.29, 2);
		expect(value(icc(ratings, '2,k'))).toBeCloseTo(0.62, 2);
	});

	it('weighted kappa on a 3 × 3 table, checked by hand (no published figure relied on)', () => {
		// A\B    1   2   3 | 15
		//   1   10   4   1 |
		//   2    3  12   5 | 20
		//   3    1   2  12 | 15
		// B margins 14, 18, 18; n = 50.
		// Off by one: 4+3+5+2 = 14 units; off by two: 1+1 = 2 units.
		// Expected pair counts: off by one 15·18 + 20·14 + 20·18 + 15·18 = 1180; off by two
		// 15·18 + 15·14 = 480 (each over n).
		// Linear (½ and 1):   1 − (7 + 2) / ((590 + 480)/50)   = 1 − 9/21.4   = 62/107.
		// Quadratic (¼ and 1): 1 − (3.5 + 2) / ((295 + 480)/50) = 1 − 5.5/15.5 = 20/31.
		const ratings = fromTable(
			[
				[10, 4, 1],
				[3, 12, 5],
				[1, 2, 12]
			],
			[1, 2, 3]
		);
		expect(value(weightedKappa(ratings, 'linear', [1, 2, 3]))).toBeCloseTo(62 / 107, 12);
		expect(value(weightedKappa(ratings, 'quadratic', [1, 2, 3]))).toBeCloseTo(20 / 31, 12);
	});
});

describe('agreement statistics against independent formulas', () => {
	it('quadratic weighted kappa equals 2·cov / (var₁ + var₂ + (mean₁ − mean₂)²) on integer scales', () => {
		// The identity of Fleiss & Cohen (1973) with 1/n moments: a different route to the number.
		const rnd = seeded(11);
		for (let it = 0; it < 50; it++) {
			const n = 5 + Math.floor(rnd() * 30);
			const a = Array.from({ length: n }, () => 1 + Math.floor(rnd() * 5));
			const b = a.map((x) => (rnd() < 0.5 ? x : 1 + Math.floor(rnd() * 5)));
			const ratings = grid(a.map((x, i) => [x, b[i]]));
			const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
			const [ma, mb] = [mean(a), mean(b)];
			const cov = mean(a.map((x, i) => (x - ma) * (b[i] - mb)));
			const va = mean(a.map((x) => (x - ma) ** 2));
			const vb = mean(b.map((x) => (x - mb) ** 2));
			const denominator = va + vb + (ma - mb) ** 2;
			const kw = weightedKappa(ratings, 'quadratic', [1, 2, 3, 4, 5]);
			if (denominator === 0) expect(kw.value).toBeNull();
			else expect(value(kw)).toBeCloseTo((2 * cov) / denominator, 10);
		}
	});

	it('interval alpha equals the pair-by-pair definition with missing values', () => {
		// Every ordered pair of values within a unit, weighted 1/(m_u − 1), against every ordered
		// pair of pairable values overall: the coincidence matrix spelt out.
		const rnd = seeded(12);
		for (let it = 0; it < 30; it++) {
			const rows = Array.from({ length: 4 + Math.floor(rnd() * 10) }, () =>
				Array.from({ length: 4 }, () => (rnd() < 0.3 ? null : Math.round(rnd() * 100) / 10))
			);
			const units = rows
				.map((r) => r.filter((x): x is number => x !== null))
				.filter((u) => u.length > 1);
			const all = units.flat();
			let dO = 0;
			for (const u of units)
				for (let i = 0; i < u.length; i++)
					for (let j = 0; j < u.length; j++) dO += (u[i] - u[j]) ** 2 / (u.length - 1);
			let dE = 0;
			for (const x of all) for (const y of all) dE += (x - y) ** 2;
			const alpha = krippendorffAlpha(grid(rows), 'interval');
			if (!units.length || dE === 0) expect(alpha.value).toBeNull();
			else expect(value(alpha)).toBeCloseTo(1 - ((all.length - 1) * dO) / dE, 9);
		}
	});

	it('with two categories, linear and quadratic weighted kappa equal Cohen’s kappa', () => {
		const ratings = fromTable(
			[
				[7, 3],
				[2, 9]
			],
			['no', 'yes']
		);
		const k = value(cohenKappa(ratings));
		expect(value(weightedKappa(ratings, 'linear', ['no', 'yes']))).toBeCloseTo(k, 12);
		expect(value(weightedKappa(ratings, 'quadratic', ['no', 'yes']))).toBeCloseTo(k, 12);
	});

	it('ordinal alpha ignores unused categories in the order but follows the order given', () => {
		const rows = [
			['low', 'low', 'mid'],
			['mid', 'high', 'high'],
			['low', 'mid', null],
			['high', 'high', 'high']
		];
		const ratings = grid(rows);
		const plain = value(krippendorffAlpha(ratings, 'ordinal', ['low', 'mid', 'high']));
		expect(
			value(krippendorffAlpha(ratings, 'ordinal', ['none', 'low', 'mid', 'very', 'high']))
		).toBeCloseTo(plain, 12);
		expect(value(krippendorffAlpha(ratings, 'ordinal', ['mid', 'low', 'high']))).not.toBeCloseTo(
			plain,
			3
		);
	});

	it('percent agreement weighs each unit the same whatever its number of ratings', () => {
		// Unit 1: 3 ratings, 1 agreeing pair of 3; unit 2: 2 ratings that agree.
		const ratings = grid([
			['a', 'a', 'b'],
			['c', 'c', null]
		]);
		expect(value(percentAgreement(ratings))).toBeCloseTo((1 / 3 + 1) / 2, 12);
	});

	it('Cohen’s kappa counts only the units both raters rated', () => {
		const withGaps = [
			...fromTable(
				[
					[20, 5],
					[10, 15]
				],
				['yes', 'no']
			),
			{ unit: 'only-A', rater: 'A', value: 'yes' },
			{ unit: 'only-B', rater: 'B', value: 'no' }
		];
		expect(value(cohenKappa(withGaps))).toBeCloseTo(0.4, 10);
	});
});

describe('undefined statistics say why', () => {
	it('Cohen and weighted kappa need exactly two raters', () => {
		const three = grid([
			[1, 2, 3],
			[2, 2, 3]
		]);
		expect(cohenKappa(three)).toEqual({ value: null, reason: 'needs exactly 2 raters; found 3' });
		expect(weightedKappa(three, 'linear', [1, 2, 3]).reason).toBe(
			'needs exactly 2 raters; found 3'
		);
		expect(
			cohenKappa(
				grid([
					[1, null],
					[null, 2]
				])
			).reason
		).toBe('no unit was rated by both raters');
	});

	it('every rating in one category leaves kappa and alpha undefined, not 0', () => {
		const same = grid([
			['x', 'x'],
			['x', 'x'],
			['x', 'x']
		]);
		expect(cohenKappa(same).reason).toMatch(/same category, so expected agreement is 1/);
		expect(fleissKappa(same).reason).toBe(
			'every rating is the same category, so expected agreement is 1'
		);
		expect(krippendorffAlpha(same, 'nominal').reason).toBe(
			'every pairable rating is the same category, so expected disagreement is 0'
		);
		expect(weightedKappa(same, 'linear', ['x', 'y']).reason).toMatch(/expected disagreement is 0/);
		expect(percentAgreement(same).value).toBe(1);
	});

	it('Fleiss and ICC need a unit rated by every rater', () => {
		const staggered = grid([
			[1, 2, null],
			[null, 2, 3],
			[1, null, 3]
		]);
		expect(fleissKappa(staggered).reason).toBe('no unit was rated by every rater');
		expect(icc(staggered, '2,1').reason).toBe('no unit was rated by every rater');
		expect(
			icc(
				grid([
					[1, 2],
					[null, 3]
				]),
				'2,1'
			).reason
		).toBe('needs at least 2 units rated by every rater; found 1');
	});

	it('interval alpha and ICC need numbers; ordinal alpha needs an order that holds every value', () => {
		const words = grid([
			['a', 'b'],
			['b', 'b']
		]);
		expect(krippendorffAlpha(words, 'interval').reason).toBe('values are not all numbers');
		expect(icc(words, '2,k').reason).toBe('values are not all numbers');
		expect(krippendorffAlpha(words, 'ordinal').reason).toMatch(/needs a category order/);
		expect(krippendorffAlpha(words, 'ordinal', ['a']).reason).toBe(
			'value "b" is not in the category order'
		);
		expect(krippendorffAlpha(words, 'ordinal', ['a', 'b', 'a']).reason).toBe(
			'the category order names "a" twice'
		);
	});

	it('ICC with error variance only (no unit or rater effect) has no denominator', () => {
		// Units' means and raters' means are all 1.5, so MSR = MSC = 0 and MSE = 1.
		const crossed = grid([
			[1, 2],
			[2, 1]
		]);
		for (const form of ['2,1', '2,k'] as const)
			expect(icc(crossed, form).reason).toBe(
				`the ANOVA gives ICC(${form}) no positive denominator: the error mean square outweighs the unit and rater mean squares`
			);
	});

	it('no pairable value, a rater rating a unit twice, and constant ratings for ICC', () => {
		expect(
			krippendorffAlpha(
				grid([
					[1, null],
					[null, 2]
				]),
				'nominal'
			).reason
		).toBe('no unit has two or more ratings, so no value is pairable');
		expect(percentAgreement(grid([[1, null]])).reason).toBe('no unit has two or more ratings');
		const twice = [
			{ unit: 'u1', rater: 'A', value: 1 },
			{ unit: 'u1', rater: 'A', value: 2 },
			{ unit: 'u1', rater: 'B', value: 2 }
		];
		expect(krippendorffAlpha(twice, 'nominal').reason).toBe(
			'rater "A" rated unit "u1" more than once'
		);
		expect(
			icc(
				grid([
					[4, 4],
					[4, 4]
				]),
				'2,1'
			).reason
		).toBe('every rating is the same value, so there is no variance to apportion');
	});
});

describe('ratingOrder and ratingsSummary', () => {
	it('takes the given order, else sorted numbers, else none', () => {
		const numbers = grid([
			[3, 1],
			[10, 2]
		]);
		expect(ratingOrder(numbers)).toEqual([1, 2, 3, 10]);
		expect(ratingOrder(numbers, ['10', '3', '2', '1'])).toEqual(['10', '3', '2', '1']);
		expect(ratingOrder(grid([['a', 1]]))).toBeNull();
	});

	it('reports every key, the counts, and a reason for each undefined one', () => {
		const s = ratingsSummary(
			grid([
				['good', 'good', 'poor'],
				['poor', 'fair', 'poor'],
				['fair', null, null]
			])
		);
		expect(s.units).toBe(3);
		expect(s.raters).toBe(3);
		expect(s.pairable_units).toBe(2);
		expect(Object.keys(s.stats).sort()).toEqual([...RATING_KEYS].sort());
		expect(s.stats.cohen_kappa.reason).toBe('needs exactly 2 raters; found 3');
		expect(s.stats.alpha_ordinal.reason).toMatch(/needs a category order/);
		expect(s.stats.icc2_1.reason).toBe('values are not all numbers');
		expect(s.stats.alpha_nominal.value).toBeTypeOf('number');
		const ordered = ratingsSummary(
			grid([
				['good', 'good', 'poor'],
				['poor', 'fair', 'poor'],
				['fair', null, null]
			]),
			{ order: ['poor', 'fair', 'good'] }
		);
		expect(ordered.stats.alpha_ordinal.value).toBeTypeOf('number');
	});

	it('a declared level leaves the statistics of higher levels undefined, saying so', () => {
		const ratings = grid([
			[1, 2],
			[2, 2],
			[3, 3]
		]);
		const nominal = ratingsSummary(ratings, { level: 'nominal' }).stats;
		expect(nominal.alpha_ordinal.reason).toBe(
			'the ratings are declared nominal; this statistic needs ordinal data'
		);
		expect(nominal.icc2_1.reason).toBe(
			'the ratings are declared nominal; this statistic needs interval data'
		);
		expect(nominal.cohen_kappa.value).toBeTypeOf('number');
		const ordinal = ratingsSummary(ratings, { level: 'ordinal' }).stats;
		expect(ordinal.weighted_kappa_linear.value).toBeTypeOf('number');
		expect(ordinal.alpha_interval.reason).toMatch(
			/declared ordinal; this statistic needs interval/
		);
		const interval = ratingsSummary(ratings, { level: 'interval' }).stats;
		expect(RATING_KEYS.every((k) => interval[k].value !== null)).toBe(true);
	});
});

/** mulberry32: a small seeded generator, so property tests are repeatable. */
function seeded(seed: number) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function randomRatings(rnd: () => number, raters: number, missing: number): Rating[] {
	const units = 3 + Math.floor(rnd() * 20);
	const out: Rating[] = [];
	for (let u = 0; u < units; u++)
		for (let j = 0; j < raters; j++)
			if (rnd() >= missing)
				out.push({ unit: `u${u}`, rater: `r${j}`, value: 1 + Math.floor(rnd() * 4) });
	return out;
}

const ALL = (r: Rating[]) => ratingsSummary(r, { order: [1, 2, 3, 4] }).stats;

function expectSameStats(a: Record<string, Stat>, b: Record<string, Stat>) {
	for (const key of Object.keys(a)) {
		if (a[key].value === null) expect(b[key], key).toEqual(a[key]);
		else expect(b[key].value, key).toBeCloseTo(a[key].value!, 10);
	}
}

describe('properties on random data (seeded)', () => {
	it('identical raters give kappa = alpha = ICC = 1 where defined', () => {
		const rnd = seeded(1);
		for (let it = 0; it < 200; it++) {
			const raters = 2 + Math.floor(rnd() * 3);
			const units = 2 + Math.floor(rnd() * 15);
			const r: Rating[] = [];
			for (let u = 0; u < units; u++) {
				const v = 1 + Math.floor(rnd() * 4);
				for (let j = 0; j < raters; j++) r.push({ unit: `u${u}`, rater: `r${j}`, value: v });
			}
			const distinct = new Set(r.map((x) => x.value)).size;
			for (const [key, s] of Object.entries(ALL(r))) {
				if (key === 'cohen_kappa' || key.startsWith('weighted')) {
					if (raters !== 2) continue;
				}
				// With one category in use, chance agreement is total: only raw agreement is defined.
				if (distinct === 1 && key !== 'percent_agreement') expect(s.value, key).toBeNull();
				else expect(s.value, key).toBeCloseTo(1, 10);
			}
		}
	});

	it('relabelling nominal categories changes no nominal statistic', () => {
		const rnd = seeded(2);
		const relabel: Record<number, string> = { 1: 'd', 2: 'a', 3: 'c', 4: 'b' };
		const nominal = (r: Rating[]) => ({
			percent_agreement: percentAgreement(r),
			cohen_kappa: cohenKappa(r),
			fleiss_kappa: fleissKappa(r),
			alpha_nominal: krippendorffAlpha(r, 'nominal')
		});
		for (let it = 0; it < 200; it++) {
			const r = randomRatings(rnd, 2 + Math.floor(rnd() * 3), 0.2);
			const renamed = r.map((x) => ({ ...x, value: relabel[x.value as number] }));
			expectSameStats(nominal(r), nominal(renamed));
		}
	});

	it('renaming and reordering raters changes nothing', () => {
		const rnd = seeded(3);
		for (let it = 0; it < 200; it++) {
			const raters = 2 + Math.floor(rnd() * 3);
			const r = randomRatings(rnd, raters, 0.15);
			const names = shuffle(
				rnd,
				Array.from({ length: raters }, (_, j) => `judge-${j}`)
			);
			const renamed = shuffle(
				rnd,
				r.map((x) => ({ ...x, rater: names[Number(x.rater.slice(1))] }))
			);
			expectSameStats(ALL(r), ALL(renamed));
		}
	});

	it('permuting units changes nothing', () => {
		const rnd = seeded(4);
		for (let it = 0; it < 200; it++) {
			const r = randomRatings(rnd, 2 + Math.floor(rnd() * 3), 0.15);
			const ids = shuffle(rnd, [...new Set(r.map((x) => x.unit))]);
			const rename = new Map(ids.map((id, i) => [id, `item-${i}`]));
			const permuted = shuffle(
				rnd,
				r.map((x) => ({ ...x, unit: rename.get(x.unit)! }))
			);
			expectSameStats(ALL(r), ALL(permuted));
		}
	});

	it('adding a unit with a single rating changes no alpha', () => {
		const rnd = seeded(5);
		for (let it = 0; it < 200; it++) {
			const r = randomRatings(rnd, 2 + Math.floor(rnd() * 4), 0.3);
			const extra = [...r, { unit: 'lonely', rater: 'r0', value: 1 + Math.floor(rnd() * 4) }];
			for (const level of ['nominal', 'ordinal', 'interval'] as const) {
				const before = krippendorffAlpha(r, level, [1, 2, 3, 4]);
				const after = krippendorffAlpha(extra, level, [1, 2, 3, 4]);
				if (before.value === null) expect(after).toEqual(before);
				else expect(after.value, level).toBeCloseTo(before.value, 12);
			}
		}
	});
});

function shuffle<T>(rnd: () => number, xs: T[]): T[] {
	const a = [...xs];
	for (let i = a.length - 1; i > 0; i--) {
		const j = Math.floor(rnd() * (i + 1));
		[a[i], a[j]] = [a[j], a[i]];
	}
	return a;
}
