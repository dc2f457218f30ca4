// Agreement between raters who put units (items, answers…) into categories or on a scale.
// Every function takes the long form (one row per rating; a missing rating is an absent row) and
// returns a Stat: a number, or null with the reason it is undefined.
import { defined, undefinedStat, type Level, type Rating, type Stat } from './types';

/** The statistics of a ratings summary, by their output keys. */
export type RatingKey =
	| 'percent_agreement'
	| 'cohen_kappa'
	| 'weighted_kappa_linear'
	| 'weighted_kappa_quadratic'
	| 'fleiss_kappa'
	| 'alpha_nominal'
	| 'alpha_ordinal'
	| 'alpha_interval'
	| 'icc2_1'
	| 'icc2_k';

/** The summary's keys in output order. */
export const RATING_KEYS: readonly RatingKey[] = [
	'percent_agreement',
	'cohen_kappa',
	'weighted_kappa_linear',
	'weighted_kappa_quadratic',
	'fleiss_kappa',
	'alpha_nominal',
	'alpha_ordinal',
	'alpha_interval',
	'icc2_1',
	'icc2_k'
];

/** Counts that say what the statistics cover, and every statistic. */
export interface RatingsSummary {
	units: number;
	raters: number;
	pairable_units: number;
	stats: Record<RatingKey, Stat>;
}

type Value = string | number;

/** Categories are compared by their text, so 2 and "2" are the same category. */
const cat = (v: Value) => String(v);

/** Units → raters → value, in first-seen order; or why the ratings cannot be tabled. */
type Table = { units: Map<string, Map<string, Value>>; raters: string[] };

/** The table of the ratings a summary is computing, built once for all its statistics. */
let summaryTable: { r: Rating[]; table: Table | string } | null = null;

function table(r: Rating[]): Table | string {
	if (summaryTable?.r === r) return summaryTable.table;
	const units = new Map<string, Map<string, Value>>();
	const raters = new Set<string>();
	for (const { unit, rater, value } of r) {
		let row = units.get(unit);
		if (!row) units.set(unit, (row = new Map()));
		// One rater counts once per unit: a second value would be a second "rater" for alpha and
		// a contradiction for the others, so it is refused rather than silently picked.
		if (row.has(rater)) return `rater "${rater}" rated unit "${unit}" more than once`;
		row.set(rater, value);
		raters.add(rater);
	}
	return { units, raters: [...raters] };
}

/** Position of each category in an order, or why the order cannot be used. */
function orderIndex(
	order: readonly Value[],
	values: Iterable<Value>
): Map<string, number> | string {
	const index = new Map<string, number>();
	for (const [i, v] of order.entries()) {
		if (index.has(cat(v))) return `the category order names "${cat(v)}" twice`;
		index.set(cat(v), i);
	}
	for (const v of values) {
		if (!index.has(cat(v))) return `value "${cat(v)}" is not in the category order`;
	}
	return index;
}

const notAllNumbers = (values: Iterable<Value>) => {
	for (const v of values) if (typeof v !== 'number' || !Number.isFinite(v)) return true;
	return false;
};

/** The two raters' values on the units both rated, or why Cohen's statistics are undefined. */
function pairs(r: Rating[]): [Value, Value][] | string {
	const t = table(r);
	if (typeof t === 'string') return t;
	if (t.raters.length !== 2) return `needs exactly 2 raters; found ${t.raters.length}`;
	const [a, b] = t.raters;
	const out: [Value, Value][] = [];
	for (const row of t.units.values()) {
		if (row.has(a) && row.has(b)) out.push([row.get(a)!, row.get(b)!]);
	}
	if (!out.length) return 'no unit was rated by both raters';
	return out;
}

/** Units rated by every rater (listwise deletion), or why there are none. */
function complete(r: Rating[], minRaters: number): { rows: Value[][]; raters: number } | string {
	const t = table(r);
	if (typeof t === 'string') return t;
	if (t.raters.length < minRaters)
		return `needs at least ${minRaters} raters; found ${t.raters.length}`;
	const rows: Value[][] = [];
	for (const row of t.units.values()) {
		if (row.size === t.raters.length) rows.push(t.raters.map((x) => row.get(x)!));
	}
	if (!rows.length) return 'no unit was rated by every rater';
	return { rows, raters: t.raters.length };
}

/**
 * Percent agreement: for each unit with ≥ 2 ratings, agreeing pairs of ratings / all pairs
 * (m(m−1)/2 for m ratings), then the mean over those units, each weighing the same.
 * Missing: units with fewer than 2 ratings are left out. Ties: equal categories agree.
 */
export function percentAgreement(r: Rating[]): Stat {
	const t = table(r);
	if (typeof t === 'string') return undefinedStat(t);
	let sum = 0;
	let units = 0;
	for (const row of t.units.values()) {
		const m = row.size;
		if (m < 2) continue;
		const counts = new Map<string, number>();
		for (const v of row.values()) counts.set(cat(v), (counts.get(cat(v)) ?? 0) + 1);
		let agreeing = 0;
		for (const c of counts.values()) agreeing += (c * (c - 1)) / 2;
		sum += agreeing / ((m * (m - 1)) / 2);
		units++;
	}
	if (!units) return undefinedStat('no unit has two or more ratings');
	return defined(sum / units);
}

/**
 * Cohen's kappa: κ = (pₒ − pₑ) / (1 − pₑ), pₒ the share of units on which the 2 raters agree,
 * pₑ = Σ_c p₁(c)·p₂(c) from each rater's own category shares (Cohen 1960).
 * Missing: only units rated by both raters count. Ties: equal categories agree.
 * Undefined when pₑ = 1 (both raters put every unit in one and the same category).
 */
export function cohenKappa(r: Rating[]): Stat {
	const p = pairs(r);
	if (typeof p === 'string') return undefinedStat(p);
	const a = new Map<string, number>();
	const b = new Map<string, number>();
	let agree = 0;
	for (const [x, y] of p) {
		if (cat(x) === cat(y)) agree++;
		a.set(cat(x), (a.get(cat(x)) ?? 0) + 1);
		b.set(cat(y), (b.get(cat(y)) ?? 0) + 1);
	}
	const n = p.length;
	let pe = 0;
	for (const [c, na] of a) pe += (na / n) * ((b.get(c) ?? 0) / n);
	if (pe >= 1)
		return undefinedStat(
			'both raters put every unit in the same category, so expected agreement is 1'
		);
	return defined((agree / n - pe) / (1 - pe));
}

/**
 * Weighted kappa: κ_w = 1 − Σ w·O / Σ w·E over the k×k table of the 2 raters (Cohen 1968), with
 * disagreement weights from the positions i, j in the category order: linear |i−j|/(k−1),
 * quadratic (i−j)²/(k−1)²; O the observed shares, E the products of the raters' margins.
 * Missing: only units rated by both raters count. Ties: equal categories weigh 0.
 * Positions, not values, set the distances: give the full scale so unused points count.
 */
export function weightedKappa(
	r: Rating[],
	weights: 'linear' | 'quadratic',
	order: (string | number)[]
): Stat {
	const p = pairs(r);
	if (typeof p === 'string') return undefinedStat(p);
	const index = orderIndex(order, p.flat());
	if (typeof index === 'string') return undefinedStat(index);
	const k = order.length;
	if (k < 2) return undefinedStat('the category order has fewer than 2 categories');
	const w = (i: number, j: number) =>
		weights === 'linear' ? Math.abs(i - j) / (k - 1) : (i - j) ** 2 / (k - 1) ** 2;
	const a = new Array<number>(k).fill(0);
	const b = new Array<number>(k).fill(0);
	let observed = 0;
	for (const [x, y] of p) {
		const i = index.get(cat(x))!;
		const j = index.get(cat(y))!;
		observed += w(i, j);
		a[i]++;
		b[j]++;
	}
	const n = p.length;
	let expected = 0;
	for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) expected += (a[i] * b[j] * w(i, j)) / n;
	if (expected === 0)
		return undefinedStat(
			'both raters put every unit in the same category, so expected disagreement is 0'
		);
	return defined(1 - observed / expected);
}

/**
 * Fleiss' kappa: κ = (P̄ − P̄ₑ) / (1 − P̄ₑ) with P̄ the mean over units of
 * (Σ_c n_uc² − m) / (m(m−1)) and P̄ₑ = Σ_c p_c², p_c the share of all ratings in c (Fleiss 1971).
 * Missing: only units rated by every rater count (Fleiss assumes m ratings per unit). Ties: equal
 * categories agree. Undefined when every counted rating is the same category.
 */
export function fleissKappa(r: Rating[]): Stat {
	const c = complete(r, 2);
	if (typeof c === 'string') return undefinedStat(c);
	const m = c.raters;
	const totals = new Map<string, number>();
	let pBar = 0;
	for (const row of c.rows) {
		const counts = new Map<string, number>();
		for (const v of row) counts.set(cat(v), (counts.get(cat(v)) ?? 0) + 1);
		let sq = 0;
		for (const [k, nk] of counts) {
			sq += nk * nk;
			totals.set(k, (totals.get(k) ?? 0) + nk);
		}
		pBar += (sq - m) / (m * (m - 1));
	}
	pBar /= c.rows.length;
	const all = c.rows.length * m;
	let pe = 0;
	for (const nk of totals.values()) pe += (nk / all) ** 2;
	if (pe >= 1)
		return undefinedStat('every rating is the same category, so expected agreement is 1');
	return defined((pBar - pe) / (1 - pe));
}

/**
 * Krippendorff's alpha: α = 1 − D_o/D_e = 1 − (n−1)·Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, with the
 * coincidence matrix o_ck = Σ_u (pairs of values c,k in unit u by different raters)/(m_u − 1),
 * n_c its margins and n the number of pairable values (Krippendorff 2011). δ²: nominal 0/1;
 * interval (c−k)²; ordinal (Σ_{g from c to k} n_g − (n_c + n_k)/2)² over the category order.
 * Missing: any number of raters; units with a single value are not pairable and change nothing.
 * Ties: equal values have δ = 0; in the ordinal metric tied values share their midpoint rank.
 * Ordinal needs an order (given, or numeric values sorted); interval needs numbers.
 * Undefined when no value is pairable or when every pairable value is the same (D_e = 0).
 */
export function krippendorffAlpha(r: Rating[], level: Level, order?: (string | number)[]): Stat {
	const t = table(r);
	if (typeof t === 'string') return undefinedStat(t);
	const units: Value[][] = [];
	for (const row of t.units.values()) if (row.size >= 2) units.push([...row.values()]);
	if (!units.length)
		return undefinedStat('no unit has two or more ratings, so no value is pairable');
	const values = units.flat();
	if (level === 'interval') return intervalAlpha(units, values);

	let categories: string[];
	if (level === 'ordinal') {
		const o = order ?? numericOrder(values);
		if (!o)
			return undefinedStat(
				'ordinal alpha needs a category order (give one, or use numeric values)'
			);
		const index = orderIndex(o, values);
		if (typeof index === 'string') return undefinedStat(index);
		categories = o.map(cat);
	} else categories = [...new Set(values.map(cat))];
	const index = new Map(categories.map((c, i) => [c, i]));
	const k = categories.length;

	// The coincidence matrix: each ordered pair of values from different raters in a unit,
	// weighted 1/(m_u − 1) so that every pairable value contributes 1 to the margins.
	const o = Array.from({ length: k }, () => new Array<number>(k).fill(0));
	for (const u of units) {
		const m = u.length;
		for (let i = 0; i < m; i++)
			for (let j = 0; j < m; j++)
				if (i !== j) o[index.get(cat(u[i]))!][index.get(cat(u[j]))!] += 1 / (m - 1);
	}
	const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
	const n = values.length;

	let delta: (c: number, k: number) => number;
	if (level === 'nominal') delta = (c, d) => (c === d ? 0 : 1);
	else {
		// Cumulative margins, so Σ_{g=c..k} n_g is a difference of two prefix sums.
		const prefix = [0];
		for (const x of nc) prefix.push(prefix[prefix.length - 1] + x);
		delta = (c, d) => {
			const [lo, hi] = c <= d ? [c, d] : [d, c];
			return (prefix[hi + 1] - prefix[lo] - (nc[lo] + nc[hi]) / 2) ** 2;
		};
	}
	let dO = 0;
	let dE = 0;
	for (let c = 0; c < k; c++)
		for (let d = 0; d < k; d++) {
			const w = delta(c, d);
			if (!w) continue;
			dO += o[c][d] * w;
			dE += nc[c] * nc[d] * w;
		}
	if (dE === 0)
		return undefinedStat(
			'every pairable rating is the same category, so expected disagreement is 0'
		);
	return defined(1 - ((n - 1) * dO) / dE);
}

/** Interval alpha without the k×k matrix: Σ over pairs of (c−k)² has a closed form in sums. */
function intervalAlpha(units: Value[][], values: Value[]): Stat {
	if (notAllNumbers(values)) return undefinedStat('values are not all numbers');
	let dO = 0;
	for (const u of units) {
		const x = u as number[];
		const m = x.length;
		const s = x.reduce((a, b) => a + b, 0);
		const s2 = x.reduce((a, b) => a + b * b, 0);
		// Σ_{i≠j} (x_i − x_j)² = 2(m·Σx² − (Σx)²)
		dO += (2 * (m * s2 - s * s)) / (m - 1);
	}
	const x = values as number[];
	const n = x.length;
	const mean = x.reduce((a, b) => a + b, 0) / n;
	// Σ_c Σ_k n_c n_k (c − k)² = 2n·Σ(x − x̄)², computed around the mean for accuracy.
	const dE = 2 * n * x.reduce((a, b) => a + (b - mean) ** 2, 0);
	if (dE === 0)
		return undefinedStat('every pairable rating is the same value, so expected disagreement is 0');
	// Pair sums of tiny spreads can round below zero; a disagreement is never negative.
	return defined(1 - ((n - 1) * Math.max(0, dO)) / dE);
}

export function numericOrder(values: Value[]): number[] | null {
	if (notAllNumbers(values)) return null;
	return [...new Set(values as number[])].sort((a, b) => a - b);
}

/**
 * ICC(2,1) and ICC(2,k) (Shrout & Fleiss 1979; McGraw & Wong's ICC(A,1), ICC(A,k)): two-way
 * random effects, absolute agreement, from the ANOVA of n units × k raters:
 * ICC(2,1) = (MSR − MSE) / (MSR + (k−1)MSE + k(MSC − MSE)/n),
 * ICC(2,k) = (MSR − MSE) / (MSR + (MSC − MSE)/n).
 * Missing: only units rated by every rater count (listwise). Ties: n/a (numeric values).
 * Undefined with fewer than 2 such units or raters, non-numeric values, or no variance at all.
 */
export function icc(r: Rating[], form: '2,1' | '2,k'): Stat {
	const c = complete(r, 2);
	if (typeof c === 'string') return undefinedStat(c);
	if (notAllNumbers(c.rows.flat())) return undefinedStat('values are not all numbers');
	const rows = c.rows as number[][];
	const n = rows.length;
	const k = c.raters;
	if (n < 2) return undefinedStat(`needs at least 2 units rated by every rater; found ${n}`);
	const grand = rows.flat().reduce((a, b) => a + b, 0) / (n * k);
	let ssr = 0;
	let ssc = 0;
	let sst = 0;
	for (const row of rows) ssr += k * (row.reduce((a, b) => a + b, 0) / k - grand) ** 2;
	for (let j = 0; j < k; j++) ssc += n * (rows.reduce((a, row) => a + row[j], 0) / n - grand) ** 2;
	for (const row of rows) for (const x of row) sst += (x - grand) ** 2;
	const msr = ssr / (n - 1);
	const msc = ssc / (k - 1);
	// Rounding can leave a hair below zero when the model fits exactly.
	const mse = Math.max(0, sst - ssr - ssc) / ((n - 1) * (k - 1));
	if (rows.every((row) => row.every((x) => x === rows[0][0])))
		return undefinedStat('every rating is the same value, so there is no variance to apportion');
	const denominator =
		form === '2,1' ? msr + (k - 1) * mse + (k * (msc - mse)) / n : msr + (msc - mse) / n;
	// ICC(2,1)'s denominator is never negative for n, k ≥ 2 (it can be 0); ICC(2,k)'s is when the
	// error mean square dwarfs the others: the ratio then means nothing as a reliability. A denominator
	// within rounding of 0 (relative to the mean squares) would give an arbitrary huge ratio.
	if (!(denominator > 1e-12 * (msr + msc + mse)))
		return undefinedStat(
			`the ANOVA gives ICC(${form}) no positive denominator: the error mean square outweighs the unit and rater mean squares`
		);
	return defined((msr - mse) / denominator);
}

/** The category order: the given one, else the sorted numbers if every value is a number, else null. */
export function ratingOrder(r: Rating[], order?: string[]): (string | number)[] | null {
	if (order) return order;
	return numericOrder(r.map((x) => x.value));
}

/** The lowest level of measurement at which each statistic means something. */
const NEEDS: Record<RatingKey, Level> = {
	percent_agreement: 'nominal',
	cohen_kappa: 'nominal',
	weighted_kappa_linear: 'ordinal',
	weighted_kappa_quadratic: 'ordinal',
	fleiss_kappa: 'nominal',
	alpha_nominal: 'nominal',
	alpha_ordinal: 'ordinal',
	alpha_interval: 'interval',
	icc2_1: 'interval',
	icc2_k: 'interval'
};
const LEVELS: Level[] = ['nominal', 'ordinal', 'interval'];

/** Whether a statistic means something at a declared level of measurement (any, if none is declared). */
export function fitsLevel(key: RatingKey, level?: Level): boolean {
	return !level || LEVELS.indexOf(NEEDS[key]) <= LEVELS.indexOf(level);
}

/**
 * Each summary statistic as a function of the ratings, with the category order fixed beforehand
 * (so resamples of the same data share it). A declared level leaves the statistics that need a
 * higher one undefined, saying so.
 */
export function ratingStatistics(
	order: (string | number)[] | null,
	level?: Level
): Record<RatingKey, (r: Rating[]) => Stat> {
	const noOrder = () => undefinedStat('needs a category order (give one, or use numeric values)');
	const all: Record<RatingKey, (r: Rating[]) => Stat> = {
		percent_agreement: percentAgreement,
		cohen_kappa: cohenKappa,
		weighted_kappa_linear: order ? (r) => weightedKappa(r, 'linear', order) : noOrder,
		weighted_kappa_quadratic: order ? (r) => weightedKappa(r, 'quadratic', order) : noOrder,
		fleiss_kappa: fleissKappa,
		alpha_nominal: (r) => krippendorffAlpha(r, 'nominal'),
		alpha_ordinal: order ? (r) => krippendorffAlpha(r, 'ordinal', order) : noOrder,
		alpha_interval: (r) => krippendorffAlpha(r, 'interval'),
		icc2_1: (r) => icc(r, '2,1'),
		icc2_k: (r) => icc(r, '2,k')
	};
	if (level) {
		for (const key of RATING_KEYS) {
			if (!fitsLevel(key, level))
				all[key] = () =>
					undefinedStat(
						`the ratings are declared ${level}; this statistic needs ${NEEDS[key]} data`
					);
		}
	}
	return all;
}

/** Every agreement statistic of one set of ratings, with the counts that say what it covers. */
export function ratingsSummary(
	r: Rating[],
	opts: { order?: (string | number)[]; level?: Level } = {}
): RatingsSummary {
	const units = new Map<string, Set<string>>();
	for (const x of r) units.set(x.unit, (units.get(x.unit) ?? new Set()).add(x.rater));
	const statistics = ratingStatistics(opts.order ?? ratingOrder(r), opts.level);
	const stats = {} as Record<RatingKey, Stat>;
	// The statistics run synchronously, so the shared table cannot outlive this summary or its data.
	summaryTable = { r, table: table(r) };
	try {
		for (const key of RATING_KEYS) stats[key] = statistics[key](r);
	} finally {
		summaryTable = null;
	}
	return {
		units: units.size,
		raters: new Set(r.map((x) => x.rater)).size,
		pairable_units: [...units.values()].filter((raters) => raters.size >= 2).length,
		stats
	};
}
