// Bootstrap intervals of the ratings statistics from per-unit sufficient statistics.
// Every statistic of ratings.ts is a function of sums over units (contingency cells, category
// counts, coincidences, row and column sums), so a resample — a multiset of units — is a vector of
// counts, and each statistic a weighted sum over units. Units with identical ratings (same raters,
// same values) contribute identically, so they are pooled into one "type" and a resample is a count
// per type: O(units) to draw, O(types × raters) to evaluate, with no rating rows rebuilt.
import { checkBootstrapOptions, percentileInterval, seededTally, seededRandom } from './bootstrap';
import { RATING_KEYS, fitsLevel, numericOrder, ratingOrder, type RatingKey } from './ratings';
import type { Interval, Level, Rating } from './types';

type Value = string | number;
const cat = (v: Value) => String(v);

/** Output slots of `evaluate`, in RATING_KEYS order. */
const SLOT = Object.fromEntries(RATING_KEYS.map((k, i) => [k, i])) as Record<RatingKey, number>;
/** Every statistic wanted (evaluate's default). */
const ALL = new Uint8Array(RATING_KEYS.length).fill(1);
/** `want` for evaluate: 1 at the slots of `keys`. */
const wanted = (keys: RatingKey[]) => {
	const want = new Uint8Array(RATING_KEYS.length);
	for (const key of keys) want[SLOT[key]] = 1;
	return want;
};

/** Ratings compiled into unit types; `evaluate` gives every statistic from counts per type. */
export interface CompiledRatings {
	/** Units in first-seen order, as the generic bootstrap resamples them. */
	units: number;
	types: number;
	/** The type of each unit. */
	typeOfUnit: Int32Array;
	/**
	 * Each statistic (RATING_KEYS order) for a multiset with `counts[t]` units of type t; NaN when
	 * undefined. With `want` (1 at a statistic's slot), the Fleiss, ICC, interval and ordinal alpha
	 * and weighted kappa parts run only for a statistic wanted (the others may be left NaN).
	 */
	evaluate(counts: ArrayLike<number>, out?: Float64Array, want?: Uint8Array): Float64Array;
}

/**
 * Compiles ratings for fast resampling, with the category order fixed (as ratingStatistics does), or
 * the reason every statistic is undefined (a rater who rated a unit twice).
 */
export function compileRatings(r: Rating[], order: Value[] | null): CompiledRatings | string {
	const units = new Map<string, Map<number, Value>>();
	const raterIndex = new Map<string, number>();
	for (const { unit, rater, value } of r) {
		let row = units.get(unit);
		if (!row) units.set(unit, (row = new Map()));
		let ri = raterIndex.get(rater);
		if (ri === undefined) raterIndex.set(rater, (ri = raterIndex.size));
		if (row.has(ri)) return `rater "${rater}" rated unit "${unit}" more than once`;
		row.set(ri, value);
	}

	// Category indices: nominal by text over every value, first seen first.
	const catIndex = new Map<string, number>();
	for (const { value } of r) if (!catIndex.has(cat(value))) catIndex.set(cat(value), catIndex.size);

	// Unit types: the ratings sorted by rater, keyed by rater, text and whether it is a number.
	const typeKey = new Map<string, number>();
	const typeOfUnit = new Int32Array(units.size);
	const typeRows: [number, Value][][] = [];
	let u = 0;
	for (const row of units.values()) {
		const entries = [...row.entries()].sort((a, b) => a[0] - b[0]);
		// Rater, whether a number, and the text with its length (so no two rows share a key).
		let key = '';
		for (const [ri, v] of entries) {
			const text = cat(v);
			key += `${ri}${typeof v === 'number' ? 'n' : 's'}${text.length}:${text};`;
		}
		let t = typeKey.get(key);
		if (t === undefined) {
			typeKey.set(key, (t = typeRows.length));
			typeRows.push(entries);
		}
		typeOfUnit[u++] = t;
	}
	return compileTypes(typeRows, typeOfUnit, raterIndex.size, catIndex, order);
}

/**
 * compileRatings of two raters' ratings of the same n units, `a[i]` and `b[i]` of unit i: exactly
 * what compileRatings gives for the ratings {unit: String(i), rater: 'a', value: a[i]} and
 * {unit: String(i), rater: 'b', value: b[i]} (in that order), without building them: the same
 * categories, unit types and order, so every evaluation is the same to the last bit.
 */
export function compilePairs(a: Value[], b: Value[], order: Value[] | null): CompiledRatings {
	const n = a.length;
	if (b.length !== n) throw new Error(`compilePairs: ${n} first ratings, ${b.length} second`);
	const catIndex = new Map<string, number>();
	// Each distinct value numbered first seen first: a unit's type is its pair of value numbers. A
	// Map tells values apart as compileRatings's keys do (by text and whether a number: String is
	// one-to-one on numbers but for 0 and −0, which a Map takes for one too).
	const valueIds = new Map<Value, number>();
	const valueOf = (v: Value) => {
		let id = valueIds.get(v);
		if (id === undefined) {
			valueIds.set(v, (id = valueIds.size));
			const text = cat(v);
			if (!catIndex.has(text)) catIndex.set(text, catIndex.size);
		}
		return id;
	};
	const typeKey = new Map<number, number>();
	const typeOfUnit = new Int32Array(n);
	const typeRows: [number, Value][][] = [];
	// Value numbers stay below 2n + 1: a key of id(a) · (2n + 1) + id(b) names one pair of them.
	const base = 2 * n + 1;
	for (let i = 0; i < n; i++) {
		const key = valueOf(a[i]) * base + valueOf(b[i]);
		let t = typeKey.get(key);
		if (t === undefined) {
			typeKey.set(key, (t = typeRows.length));
			typeRows.push([
				[0, a[i]],
				[1, b[i]]
			]);
		}
		typeOfUnit[i] = t;
	}
	return compileTypes(typeRows, typeOfUnit, n ? 2 : 0, catIndex, order);
}

// The unit types' flat data and their evaluation (compileRatings's second half): typeRows[t] holds
// the (rater, value) entries of type t's first unit in rater order; catIndex numbers the categories.
function compileTypes(
	typeRows: [number, Value][][],
	typeOfUnit: Int32Array,
	raterCount: number,
	catIndex: Map<string, number>,
	order: Value[] | null
): CompiledRatings {
	// Ordinal by position in the order (−1 if absent, which leaves the ordinal statistics
	// undefined wherever such a value counts).
	const K = catIndex.size;
	const orderPos = new Map<string, number>();
	let orderValid = order !== null;
	if (order) {
		for (const [i, v] of order.entries()) {
			if (orderPos.has(cat(v))) orderValid = false;
			orderPos.set(cat(v), i);
		}
	}
	const ko = order ? order.length : 0;
	const toOrder = new Int32Array(K);
	for (const [c, i] of catIndex) toOrder[i] = orderValid ? (orderPos.get(c) ?? -1) : -1;

	const T = typeRows.length;

	// Flat per-type data. Values of type t are start[t] … start[t+1]−1, in rater order.
	const start = new Int32Array(T + 1);
	for (let t = 0; t < T; t++) start[t + 1] = start[t] + typeRows[t].length;
	const vRater = new Int32Array(start[T]);
	const vCat = new Int32Array(start[T]);
	const vNum = new Float64Array(start[T]);
	const tNumeric = new Uint8Array(T);
	const tShare = new Float64Array(T); // percent agreement: agreeing pairs / pairs
	const tDisagree = new Float64Array(T); // nominal alpha: Σ_{c≠d} o_cd of the unit
	const tSq = new Float64Array(T); // Fleiss: Σ_c n_c²
	const tIntervalDo = new Float64Array(T); // interval alpha: Σ_{i≠j} (x_i − x_j)² / (m − 1)
	const tSum = new Float64Array(T);
	const tConst = new Uint8Array(T); // every value of the unit is the same number
	// Ordinal alpha: the unit's coincidences o_cd (c ≠ d, ordered pairs) as sparse entries.
	const coStart = new Int32Array(T + 1);
	const coC: number[] = [];
	const coD: number[] = [];
	const coV: number[] = [];
	const groupKey = new Map<string, number>();
	const tGroup = new Int32Array(T);
	const groupRaters: number[][] = [];
	for (let t = 0; t < T; t++) {
		const row = typeRows[t];
		const m = row.length;
		const counts = new Map<number, number>();
		let numeric = 1;
		let s = 0;
		let s2 = 0;
		for (let i = 0; i < m; i++) {
			const [ri, v] = row[i];
			const c = catIndex.get(cat(v))!;
			vRater[start[t] + i] = ri;
			vCat[start[t] + i] = c;
			vNum[start[t] + i] = typeof v === 'number' ? v : NaN;
			if (typeof v !== 'number' || !Number.isFinite(v)) numeric = 0;
			else {
				s += v;
				s2 += v * v;
			}
			counts.set(c, (counts.get(c) ?? 0) + 1);
		}
		tNumeric[t] = numeric;
		tSum[t] = s;
		tConst[t] = numeric && row.every(([, v]) => v === row[0][1]) ? 1 : 0;
		let sq = 0;
		let agreeing = 0;
		for (const n of counts.values()) {
			sq += n * n;
			agreeing += (n * (n - 1)) / 2;
		}
		tSq[t] = sq;
		if (m >= 2) {
			tShare[t] = agreeing / ((m * (m - 1)) / 2);
			tDisagree[t] = (m * m - sq) / (m - 1);
			if (numeric) tIntervalDo[t] = (2 * (m * s2 - s * s)) / (m - 1);
			for (const [c, nc] of counts)
				for (const [d, nd] of counts)
					if (c !== d) {
						coC.push(c);
						coD.push(d);
						coV.push((nc * nd) / (m - 1));
					}
		}
		coStart[t + 1] = coC.length;
		const gk = row.map(([ri]) => ri).join(',');
		let g = groupKey.get(gk);
		if (g === undefined) {
			groupKey.set(gk, (g = groupRaters.length));
			groupRaters.push(row.map(([ri]) => ri));
		}
		tGroup[t] = g;
	}
	const G = groupRaters.length;
	const groupTypes: number[][] = groupRaters.map(() => []);
	for (let t = 0; t < T; t++) groupTypes[tGroup[t]].push(t);
	const coCat = Int32Array.from(coC);
	const coDat = Int32Array.from(coD);
	const coVal = Float64Array.from(coV);

	// Scratch, reused by every evaluation.
	const gW = new Float64Array(G);
	const present = new Uint8Array(raterCount);
	const margin = new Float64Array(K);
	const marginA = new Float64Array(K);
	const marginB = new Float64Array(K);
	const oMargin = new Float64Array(ko);
	const oA = new Float64Array(ko);
	const oB = new Float64Array(ko);
	const mid = new Float64Array(ko);
	const colSum = new Float64Array(raterCount);

	function evaluate(
		counts: ArrayLike<number>,
		out = new Float64Array(RATING_KEYS.length),
		want: Uint8Array = ALL
	) {
		out.fill(NaN);
		// Raters present in the resample, and the group of units rated by all of them.
		gW.fill(0);
		for (let t = 0; t < T; t++) gW[tGroup[t]] += counts[t];
		present.fill(0);
		let raters = 0;
		for (let g = 0; g < G; g++) {
			if (!gW[g]) continue;
			for (const ri of groupRaters[g])
				if (!present[ri]) {
					present[ri] = 1;
					raters++;
				}
		}
		let complete = -1;
		for (let g = 0; g < G; g++) if (gW[g] && groupRaters[g].length === raters) complete = g;

		// Percent agreement and alpha: every unit with ≥ 2 ratings.
		let paSum = 0;
		let paUnits = 0;
		let n = 0;
		let nominalDo = 0;
		let intervalDo = 0;
		let intervalSum = 0;
		let allNumeric = true;
		let inOrder = true;
		margin.fill(0);
		for (let t = 0; t < T; t++) {
			const w = counts[t];
			const m = start[t + 1] - start[t];
			if (!w || m < 2) continue;
			paSum += w * tShare[t];
			paUnits += w;
			n += w * m;
			nominalDo += w * tDisagree[t];
			for (let i = start[t]; i < start[t + 1]; i++) {
				margin[vCat[i]] += w;
				if (toOrder[vCat[i]] < 0) inOrder = false;
			}
			if (tNumeric[t]) {
				intervalDo += w * tIntervalDo[t];
				intervalSum += w * tSum[t];
			} else allNumeric = false;
		}
		if (paUnits) out[SLOT.percent_agreement] = paSum / paUnits;
		if (n) {
			let used = 0;
			let sq = 0;
			for (let c = 0; c < K; c++) {
				if (margin[c]) used++;
				sq += margin[c] * margin[c];
			}
			if (used >= 2) out[SLOT.alpha_nominal] = 1 - ((n - 1) * nominalDo) / (n * n - sq);
			if (want[SLOT.alpha_ordinal] && orderValid && inOrder && used >= 2) {
				// δ_ordinal(c, d) = (mid_d − mid_c)² with mid_c = Σ_{g<c} n_g + n_c/2: the midranks.
				oMargin.fill(0);
				for (let c = 0; c < K; c++) oMargin[toOrder[c]] += margin[c];
				let below = 0;
				let mean = 0;
				for (let c = 0; c < ko; c++) {
					mid[c] = below + oMargin[c] / 2;
					below += oMargin[c];
					mean += oMargin[c] * mid[c];
				}
				mean /= n;
				let dE = 0;
				for (let c = 0; c < ko; c++) dE += oMargin[c] * (mid[c] - mean) ** 2;
				dE *= 2 * n;
				let dO = 0;
				for (let t = 0; t < T; t++) {
					const w = counts[t];
					if (!w) continue;
					for (let e = coStart[t]; e < coStart[t + 1]; e++)
						dO += w * coVal[e] * (mid[toOrder[coCat[e]]] - mid[toOrder[coDat[e]]]) ** 2;
				}
				out[SLOT.alpha_ordinal] = 1 - ((n - 1) * dO) / dE;
			}
			if (want[SLOT.alpha_interval] && allNumeric) {
				const mean = intervalSum / n;
				let dE = 0;
				for (let t = 0; t < T; t++) {
					const w = counts[t];
					if (!w || start[t + 1] - start[t] < 2) continue;
					let s = 0;
					for (let i = start[t]; i < start[t + 1]; i++) s += (vNum[i] - mean) ** 2;
					dE += w * s;
				}
				dE *= 2 * n;
				if (dE !== 0) out[SLOT.alpha_interval] = 1 - ((n - 1) * Math.max(0, intervalDo)) / dE;
			}
		}
		if (complete < 0 || raters < 2) return out;
		const types = groupTypes[complete];
		const units = gW[complete];

		// Cohen's and weighted kappa: exactly 2 raters, over the units both rated.
		if (raters === 2) {
			marginA.fill(0);
			marginB.fill(0);
			let agree = 0;
			for (const t of types) {
				const w = counts[t];
				if (!w) continue;
				const a = vCat[start[t]];
				const b = vCat[start[t] + 1];
				if (a === b) agree += w;
				marginA[a] += w;
				marginB[b] += w;
			}
			let pe = 0;
			for (let c = 0; c < K; c++) pe += marginA[c] * marginB[c];
			pe /= units * units;
			if (pe < 1) out[SLOT.cohen_kappa] = (agree / units - pe) / (1 - pe);
			let kappaInOrder =
				want[SLOT.weighted_kappa_linear] + want[SLOT.weighted_kappa_quadratic] > 0 &&
				orderValid &&
				ko >= 2;
			for (const t of types)
				if (counts[t] && (toOrder[vCat[start[t]]] < 0 || toOrder[vCat[start[t] + 1]] < 0))
					kappaInOrder = false;
			if (kappaInOrder) {
				// Integer sums of |i − j| and (i − j)², so the weights' scales cancel exactly.
				oA.fill(0);
				oB.fill(0);
				let obsLinear = 0;
				let obsQuadratic = 0;
				for (const t of types) {
					const w = counts[t];
					if (!w) continue;
					const i = toOrder[vCat[start[t]]];
					const j = toOrder[vCat[start[t] + 1]];
					obsLinear += w * Math.abs(i - j);
					obsQuadratic += w * (i - j) ** 2;
					oA[i] += w;
					oB[j] += w;
				}
				// Σ_ij a_i b_j |i − j| with running sums of b to the left and right of i.
				let rightCount = 0;
				let rightSum = 0;
				for (let j = 0; j < ko; j++) {
					rightCount += oB[j];
					rightSum += j * oB[j];
				}
				let leftCount = 0;
				let leftSum = 0;
				let expLinear = 0;
				let a1 = 0;
				let a2 = 0;
				let b1 = 0;
				let b2 = 0;
				for (let i = 0; i < ko; i++) {
					rightCount -= oB[i];
					rightSum -= i * oB[i];
					expLinear += oA[i] * (i * leftCount - leftSum + rightSum - i * rightCount);
					leftCount += oB[i];
					leftSum += i * oB[i];
					a1 += i * oA[i];
					a2 += i * i * oA[i];
					b1 += i * oB[i];
					b2 += i * i * oB[i];
				}
				const expQuadratic = units * a2 + units * b2 - 2 * a1 * b1;
				if (expLinear !== 0) out[SLOT.weighted_kappa_linear] = 1 - (units * obsLinear) / expLinear;
				if (expQuadratic !== 0)
					out[SLOT.weighted_kappa_quadratic] = 1 - (units * obsQuadratic) / expQuadratic;
			}
		}

		// Fleiss' kappa: units rated by every rater present.
		if (want[SLOT.fleiss_kappa]) {
			margin.fill(0);
			let pBar = 0;
			for (const t of types) {
				const w = counts[t];
				if (!w) continue;
				pBar += (w * (tSq[t] - raters)) / (raters * (raters - 1));
				for (let i = start[t]; i < start[t + 1]; i++) margin[vCat[i]] += w;
			}
			pBar /= units;
			let pe = 0;
			let used = 0;
			for (let c = 0; c < K; c++) {
				if (margin[c]) used++;
				pe += (margin[c] / (units * raters)) ** 2;
			}
			if (used >= 2) out[SLOT.fleiss_kappa] = (pBar - pe) / (1 - pe);
		}
		if (!want[SLOT.icc2_1] && !want[SLOT.icc2_k]) return out;

		// ICC: the two-way ANOVA of the complete units, around the grand mean.
		let numeric = true;
		let grand = 0;
		let sameValue = true;
		let first = NaN;
		for (const t of types) {
			if (!counts[t]) continue;
			if (!tNumeric[t]) numeric = false;
			grand += counts[t] * tSum[t];
			if (!tConst[t]) sameValue = false;
			else if (Number.isNaN(first)) first = vNum[start[t]];
			else if (vNum[start[t]] !== first) sameValue = false;
		}
		if (!numeric || units < 2 || sameValue) return out;
		const k = raters;
		grand /= units * k;
		let ssr = 0;
		let sst = 0;
		colSum.fill(0);
		for (const t of types) {
			const w = counts[t];
			if (!w) continue;
			ssr += w * k * (tSum[t] / k - grand) ** 2;
			for (let i = start[t], j = 0; i < start[t + 1]; i++, j++) {
				sst += w * (vNum[i] - grand) ** 2;
				colSum[j] += w * vNum[i];
			}
		}
		let ssc = 0;
		for (let j = 0; j < k; j++) ssc += units * (colSum[j] / units - grand) ** 2;
		const msr = ssr / (units - 1);
		const msc = ssc / (k - 1);
		const mse = Math.max(0, sst - ssr - ssc) / ((units - 1) * (k - 1));
		const scale = 1e-12 * (msr + msc + mse);
		const d1 = msr + (k - 1) * mse + (k * (msc - mse)) / units;
		const dk = msr + (msc - mse) / units;
		if (d1 > scale) out[SLOT.icc2_1] = (msr - mse) / d1;
		if (dk > scale) out[SLOT.icc2_k] = (msr - mse) / dk;
		return out;
	}

	return { units: typeOfUnit.length, types: T, typeOfUnit, evaluate };
}

/**
 * Percentile bootstrap intervals of every ratings statistic, resampling units exactly as
 * `bootstrap()` does (same seed → the same unit draws, so the same interval), but evaluating each
 * resample from per-unit sufficient statistics. A statistic undefined on the whole data (or above
 * the declared level) gets no interval; resamples where a statistic is undefined are skipped and
 * counted out of `valid`. `confidence` is the interval's level (0.95 by default).
 * With `clusterOf`, whole CLUSTERS of units are resampled instead (e.g. the candidates of a
 * question): clusters in order of their first unit, drawn as `bootstrap()` draws the cluster list,
 * and each unit counted as often as its cluster was drawn — exact, as the statistics are sums over
 * units, and the same intervals as the generic bootstrap over clusters with the same seed.
 */
export function ratingIntervals(r: Rating[], opts: EstimateOptions): Record<RatingKey, Interval> {
	const confidence = checkBootstrapOptions({ resamples: opts.resamples, level: opts.confidence });
	return ratingEstimates(r, { ...opts, confidence }).intervals!;
}

/** Options of ratingEstimates: see ratingIntervals. */
interface EstimateOptions {
	order?: (string | number)[];
	level?: Level;
	resamples: number;
	seed: string;
	confidence?: number;
	clusterOf?: (unit: string) => string;
}

type Estimates = {
	values: Record<RatingKey, number | null>;
	intervals: Record<RatingKey, Interval> | null;
};

const undefinedOnData: Interval = {
	low: null,
	high: null,
	reason: 'the statistic is undefined on the data'
};
const notAsked: Interval = { low: null, high: null, reason: 'no interval asked for' };

/** One set of ratings compiled, its values, and the statistics its resamples are evaluated for. */
function prepare(
	r: Rating[],
	order: (string | number)[] | undefined,
	opts: EstimateOptions,
	only?: readonly RatingKey[]
) {
	return prepareCompiled(compileRatings(r, order ?? ratingOrder(r)), opts, only);
}

function prepareCompiled(
	compiled: CompiledRatings | string,
	opts: Omit<EstimateOptions, 'order' | 'clusterOf'>,
	only?: readonly RatingKey[]
) {
	const values = {} as Record<RatingKey, number | null>;
	if (typeof compiled === 'string') {
		for (const key of RATING_KEYS) values[key] = null;
		return { values, compiled: null, keys: [] as RatingKey[], only };
	}
	const all = new Float64Array(compiled.types);
	for (const t of compiled.typeOfUnit) all[t]++;
	const own = compiled.evaluate(all);
	for (const key of RATING_KEYS) {
		const v = own[SLOT[key]];
		values[key] = Number.isFinite(v) ? v : null;
	}
	const keys = RATING_KEYS.filter(
		(key) =>
			fitsLevel(key, opts.level) && Number.isFinite(own[SLOT[key]]) && (!only || only.includes(key))
	);
	return { values, compiled, keys, only };
}

/** The percentile intervals of a prepared set from its resamples' values (draws per key). */
function finish(
	keys: RatingKey[],
	draws: Float64Array[],
	valid: number[],
	opts: EstimateOptions,
	only?: readonly RatingKey[]
): Record<RatingKey, Interval> {
	const result = {} as Record<RatingKey, Interval>;
	for (const key of RATING_KEYS)
		result[key] = only && !only.includes(key) ? notAsked : undefinedOnData;
	keys.forEach((key, k) => {
		result[key] = percentileInterval(
			draws[k].subarray(0, valid[k]),
			opts.confidence ?? 0.95,
			opts.resamples
		);
	});
	return result;
}

/**
 * Every ratings statistic on the data (null where undefined; ratingsSummary says why) from one
 * compilation, with the intervals of ratingIntervals when `resamples` ≥ 1 (else intervals is null).
 */
export function ratingEstimates(r: Rating[], opts: EstimateOptions): Estimates {
	if (!opts.clusterOf) return sharedRatingEstimates([{ ratings: r, order: opts.order }], opts)[0];
	const { values, compiled, keys } = prepare(r, opts.order, opts);
	if (opts.resamples < 1) return { values, intervals: null };
	const draws = keys.map(() => new Float64Array(opts.resamples));
	const valid = keys.map(() => 0);
	if (compiled && keys.length) {
		const random = seededRandom(opts.seed);
		const counts = new Float64Array(compiled.types);
		const out = new Float64Array(RATING_KEYS.length);
		const draw = clusterDraw(r, compiled.typeOfUnit, opts.clusterOf);
		for (let s = 0; s < opts.resamples; s++) {
			counts.fill(0);
			draw(random, counts);
			compiled.evaluate(counts, out);
			for (let k = 0; k < keys.length; k++) {
				const v = out[SLOT[keys[k]]];
				if (Number.isFinite(v)) draws[k][valid[k]++] = v;
			}
		}
	}
	return { values, intervals: finish(keys, draws, valid, opts) };
}

/** The units of ratings in order of first appearance (as compileRatings numbers them). */
function unitOrder(r: Rating[]): string[] {
	const seen = new Set<string>();
	for (const { unit } of r) seen.add(unit);
	return [...seen];
}

/**
 * `ratingEstimates` of several sets of ratings over the SAME units (the same unit names, first seen
 * in the same order: e.g. the verdicts and the relevance grades of the same review pairs), each
 * with its own category order. Every set's units would be drawn by the same seeded sequence, so
 * they are drawn once per resample for all of them, as a count per combination of the sets' unit
 * types: exactly the intervals `ratingEstimates` gives each set with the seed, for one draw.
 * Sets over other units are computed apart. A set's `keys` limit the intervals computed to those
 * statistics (as in pairedRatingEstimates): the same intervals for them as without.
 */
export function sharedRatingEstimates(
	sets: { ratings: Rating[]; order?: (string | number)[]; keys?: readonly RatingKey[] }[],
	opts: Omit<EstimateOptions, 'order' | 'clusterOf'>
): Estimates[] {
	const prepared = sets.map((set) => prepare(set.ratings, set.order, opts, set.keys));
	if (opts.resamples < 1) return prepared.map(({ values }) => ({ values, intervals: null }));
	// Sets that need resamples, grouped by their units (one draw per group and resample).
	const groups = new Map<string, number[]>();
	prepared.forEach(({ compiled, keys }, i) => {
		if (!compiled || !keys.length) return;
		const key = JSON.stringify(unitOrder(sets[i].ratings));
		const group = groups.get(key);
		if (group) group.push(i);
		else groups.set(key, [i]);
	});
	return resampled(prepared, [...groups.values()], opts);
}

/**
 * sharedRatingEstimates of two raters' ratings of the same n units, each set given as the values
 * `a[i]` and `b[i]` of unit i (e.g. the primary and the secondary review of the same items):
 * exactly what sharedRatingEstimates gives for the ratings {unit: String(i), rater: 'a', value:
 * a[i]} and {unit: String(i), rater: 'b', value: b[i]} of each set, without building them (see
 * compilePairs). Every set has the same units, so all are drawn together. A set's `keys` limit the
 * intervals computed to those statistics (each resample evaluated for them only; the others'
 * intervals say none was asked for): the same intervals for them as without.
 */
export function pairedRatingEstimates(
	sets: {
		a: (string | number)[];
		b: (string | number)[];
		order?: (string | number)[];
		/** The statistics whose intervals are wanted (every one by default; the others say so). */
		keys?: readonly RatingKey[];
	}[],
	opts: Omit<EstimateOptions, 'order' | 'clusterOf'>
): Estimates[] {
	const prepared = sets.map(({ a, b, order, keys }) => {
		if (a.length !== sets[0].a.length)
			throw new Error('pairedRatingEstimates: every set rates the same units');
		return prepareCompiled(
			compilePairs(a, b, order ?? numericOrder(interleaved(a, b))),
			opts,
			keys
		);
	});
	if (opts.resamples < 1) return prepared.map(({ values }) => ({ values, intervals: null }));
	const members = prepared.flatMap(({ compiled, keys }, i) => (compiled && keys.length ? [i] : []));
	return resampled(prepared, members.length ? [members] : [], opts);
}

// a[0], b[0], a[1], b[1], …: the values in the order of the ratings compilePairs stands for.
function interleaved(a: Value[], b: Value[]): Value[] {
	const values: Value[] = new Array(2 * a.length);
	for (let i = 0; i < a.length; i++) {
		values[2 * i] = a[i];
		values[2 * i + 1] = b[i];
	}
	return values;
}

// The intervals of prepared sets, each group of sets (over the same units) drawn once per resample.
function resampled(
	prepared: ReturnType<typeof prepareCompiled>[],
	groups: number[][],
	opts: Omit<EstimateOptions, 'order' | 'clusterOf'>
): Estimates[] {
	const draws = prepared.map(({ keys }) => keys.map(() => new Float64Array(opts.resamples)));
	const valid = prepared.map(({ keys }) => keys.map(() => 0));
	for (const members of groups) {
		const compiled = members.map((i) => prepared[i].compiled!);
		// Each member's resamples evaluated for its own statistics only.
		const want = members.map((i) => wanted(prepared[i].keys));
		const n = compiled[0].units;
		// The combination of the members' types of each unit, numbered in first-seen order: one member
		// at a time, (combination so far, next type) numbered first seen first — one-to-one with the
		// whole tuple, so the same numbers as the tuples' own first-seen order.
		const comboOfUnit = Int32Array.from(compiled[0].typeOfUnit);
		let C = compiled[0].types;
		for (let m = 1; m < compiled.length; m++) {
			const { typeOfUnit, types } = compiled[m];
			const index = new Map<number, number>();
			for (let u = 0; u < n; u++) {
				const key = comboOfUnit[u] * types + typeOfUnit[u];
				let c = index.get(key);
				if (c === undefined) index.set(key, (c = index.size));
				comboOfUnit[u] = c;
			}
			C = index.size;
		}
		// Each combination's member types, read off a unit of it (its first).
		const first = new Int32Array(C).fill(-1);
		for (let u = 0; u < n; u++) if (first[comboOfUnit[u]] < 0) first[comboOfUnit[u]] = u;
		const comboTypes = Array.from(first, (u) => compiled.map((c) => c.typeOfUnit[u]));
		const drawn = new Float64Array(C);
		const counts = compiled.map((c) => new Float64Array(c.types));
		const out = new Float64Array(RATING_KEYS.length);
		const tally = seededTally(opts.seed);
		for (let s = 0; s < opts.resamples; s++) {
			drawn.fill(0);
			tally(n, comboOfUnit, drawn);
			members.forEach((setIndex, m) => {
				const own = counts[m];
				own.fill(0);
				for (let c = 0; c < C; c++) if (drawn[c]) own[comboTypes[c][m]] += drawn[c];
				compiled[m].evaluate(own, out, want[m]);
				const keys = prepared[setIndex].keys;
				const setDraws = draws[setIndex];
				const setValid = valid[setIndex];
				for (let k = 0; k < keys.length; k++) {
					const v = out[SLOT[keys[k]]];
					if (Number.isFinite(v)) setDraws[k][setValid[k]++] = v;
				}
			});
		}
	}
	return prepared.map(({ values, keys, only }, i) => ({
		values,
		intervals: finish(keys, draws[i], valid[i], opts, only)
	}));
}

/**
 * A draw of clusters with replacement, as type counts: clusters in order of their first unit (units
 * in first-seen order, as compileRatings numbers them), each drawn cluster adding its units' types.
 */
function clusterDraw(
	r: Rating[],
	typeOfUnit: Int32Array,
	clusterOf: (unit: string) => string
): (random: () => number, counts: Float64Array) => void {
	const unitIndex = new Map<string, number>();
	const clusterIndex = new Map<string, number>();
	const clusterOfUnit: number[] = [];
	for (const { unit } of r) {
		if (unitIndex.has(unit)) continue;
		unitIndex.set(unit, unitIndex.size);
		const key = clusterOf(unit);
		let c = clusterIndex.get(key);
		if (c === undefined) clusterIndex.set(key, (c = clusterIndex.size));
		clusterOfUnit.push(c);
	}
	const C = clusterIndex.size;
	// The types of each cluster's units, flat: cluster c's are typeList[start[c]] … [start[c+1]−1].
	const start = new Int32Array(C + 1);
	for (const c of clusterOfUnit) start[c + 1]++;
	for (let c = 0; c < C; c++) start[c + 1] += start[c];
	const fill = start.slice(0, C);
	const typeList = new Int32Array(clusterOfUnit.length);
	clusterOfUnit.forEach((c, u) => (typeList[fill[c]++] = typeOfUnit[u]));
	const drawn = new Float64Array(C);
	return (random, counts) => {
		drawn.fill(0);
		for (let i = 0; i < C; i++) drawn[Math.floor(random() * C)]++;
		for (let c = 0; c < C; c++) {
			const w = drawn[c];
			if (w) for (let e = start[c]; e < start[c + 1]; e++) counts[typeList[e]] += w;
		}
	};
}
