// Bradley–Terry ratings controlled for answer length, as LMArena's "style control" does it
// (FastChat `construct_style_matrices` + `fit_mle_elo`; LMArena blog "Does style matter?", Aug
// 2024): one logistic regression P(a beats b) = σ(ln 10 · (β_a − β_b) + γ · x) with x the
// normalised length difference (len_a − len_b)/(len_a + len_b) standardised over the battles. The
// ratings 400·β + 1000 then say how the models compare at equal length, and γ how much a longer
// answer gains by its length alone. Ties weigh as in `bradleyTerry` (half a win each side).
import { checkBootstrapOptions, percentileInterval, seededRandom } from './bootstrap';
import {
	BT_INIT,
	BT_SCALE,
	battleWeights,
	checkBattle,
	solve,
	unratedModels,
	type Battle,
	type BattleWeights
} from './bradley-terry';
import { defined, undefinedStat, type Interval, type Stat } from './types';

/** A battle with the lengths (characters) of the two answers shown. */
export interface LengthBattle extends Battle {
	lengthA: number;
	lengthB: number;
}

/** The length-controlled fit: ratings on the Bradley–Terry scale and the length coefficient γ. */
export interface StyleControlledBt {
	models: string[];
	battles: number;
	ratings: Record<string, Stat>;
	/** γ: change in the log-odds of winning per standard deviation of the length feature. */
	lengthCoefficient: Stat;
	/** Mean and (population) standard deviation of (len_a − len_b)/(len_a + len_b) over the battles. */
	lengthFeature: { mean: number; sd: number };
	/** With a bootstrap over questions: percentile intervals of each rating and of γ. */
	intervals?: {
		ratings: Record<string, Interval>;
		lengthCoefficient: Interval;
		questions: number;
	};
}

/** Battles as parallel arrays; wa, wb = weight of a's and b's share (2/0 win, 1/1 tie). */
interface Compiled {
	models: string[];
	a: Int32Array;
	b: Int32Array;
	x: Float64Array;
	wa: Float64Array;
	wb: Float64Array;
	question: Int32Array;
	questions: number;
	useLength: boolean;
}

const LN10 = Math.LN10;
function compile(battles: LengthBattle[], models: string[]): Compiled {
	const index = new Map(models.map((m, i) => [m, i]));
	const n = battles.length;
	const c: Compiled = {
		models,
		a: new Int32Array(n),
		b: new Int32Array(n),
		x: new Float64Array(n),
		wa: new Float64Array(n),
		wb: new Float64Array(n),
		question: new Int32Array(n),
		questions: 0,
		useLength: false
	};
	const questionIndex = new Map<string, number>();
	let min = Infinity;
	let max = -Infinity;
	battles.forEach((bt, i) => {
		c.a[i] = index.get(bt.modelA)!;
		c.b[i] = index.get(bt.modelB)!;
		const total = bt.lengthA + bt.lengthB;
		// Two empty answers differ by nothing.
		c.x[i] = total === 0 ? 0 : (bt.lengthA - bt.lengthB) / total;
		min = Math.min(min, c.x[i]);
		max = Math.max(max, c.x[i]);
		c.wa[i] = bt.winner === 'model_a' ? 2 : bt.winner === 'model_b' ? 0 : 1;
		c.wb[i] = 2 - c.wa[i];
		let q = questionIndex.get(bt.question);
		if (q === undefined) questionIndex.set(bt.question, (q = questionIndex.size));
		c.question[i] = q;
	});
	c.questions = questionIndex.size;
	c.useLength = n > 0 && max > min;
	return c;
}

/** Standardises x in place (mean 0, population sd 1, as numpy's std); returns mean and sd. */
function standardise(x: Float64Array, useLength: boolean): { mean: number; sd: number } {
	const n = x.length;
	let mean = 0;
	for (const v of x) mean += v / n;
	let ss = 0;
	for (const v of x) ss += (v - mean) ** 2;
	const sd = n ? Math.sqrt(ss / n) : 0;
	// A constant feature carries nothing: x ≡ 0 and γ is not estimated (the plain fit).
	for (let i = 0; i < n; i++) x[i] = useLength ? (x[i] - mean) / sd : 0;
	return { mean: n ? mean : 0, sd };
}

/**
 * Newton's method with step halving on Σ count·(wa log σ(z) + wb log σ(−z)),
 * z = ln 10 (β_a − β_b) + γ x, over the models `left` (β of the last pinned at 0) and γ.
 * `start` gives log10-strengths per model index (warm start) and γ. Returns the centred β per
 * model index (NaN outside `left`) and γ, or null when it does not converge.
 */
function fitStyle(
	c: Compiled,
	left: number[],
	counts: Float64Array | null,
	start: { beta: Float64Array; gamma: number } | null
): { beta: Float64Array; gamma: number } | null {
	const k = c.models.length;
	const pos = new Int32Array(k).fill(-1);
	left.forEach((i, x) => (pos[i] = x));
	const n = left.length;
	const nb = n - 1; // free β parameters
	const m = nb + (c.useLength ? 1 : 0);
	const g0 = nb; // index of γ
	// The battles among the models fitted, with their weights in this sample, as compact arrays.
	let r = 0;
	for (let i = 0; i < c.a.length; i++)
		if (pos[c.a[i]] >= 0 && pos[c.b[i]] >= 0 && (!counts || counts[c.question[i]] > 0)) r++;
	const pa = new Int32Array(r);
	const pb = new Int32Array(r);
	const xs = new Float64Array(r);
	const was = new Float64Array(r);
	const wbs = new Float64Array(r);
	r = 0;
	for (let i = 0; i < c.a.length; i++) {
		if (pos[c.a[i]] < 0 || pos[c.b[i]] < 0) continue;
		const w = counts ? counts[c.question[i]] : 1;
		if (w === 0) continue;
		pa[r] = pos[c.a[i]];
		pb[r] = pos[c.b[i]];
		xs[r] = c.x[i];
		was[r] = w * c.wa[i];
		wbs[r] = w * c.wb[i];
		r++;
	}
	const theta = new Float64Array(n + 1); // β per position (last stays 0), then γ at index n
	if (start) {
		// A model without a full-data rating starts from 0.
		const at = (i: number) => (Number.isFinite(start.beta[i]) ? start.beta[i] : 0);
		for (let x = 0; x < n; x++) theta[x] = at(left[x]) - at(left[n - 1]);
		if (c.useLength) theta[n] = start.gamma;
	}
	const L2 = LN10 * LN10;
	// Per ordered pair of positions: Σ dℓ/dz, Σ −d²ℓ/dz² and Σ x·(−d²ℓ/dz²) over its battles; the
	// gradient and Hessian follow from these k² sums, so the loop over battles stays short.
	const pair = new Int32Array(r);
	for (let j = 0; j < r; j++) pair[j] = pa[j] * n + pb[j];
	const sumG = new Float64Array(n * n);
	const sumH = new Float64Array(n * n);
	const sumHx = new Float64Array(n * n);
	const evaluate = (t: Float64Array, g: Float64Array, h: Float64Array) => {
		sumG.fill(0);
		sumH.fill(0);
		sumHx.fill(0);
		let gg = 0;
		let hgg = 0;
		let ll = 0;
		const gammaT = c.useLength ? t[n] : 0;
		for (let j = 0; j < r; j++) {
			const x = xs[j];
			const z = LN10 * (t[pa[j]] - t[pb[j]]) + gammaT * x;
			const wa = was[j];
			const wb = wbs[j];
			// p = σ(z) and log σ(z) from one exponential (of −|z|, so it cannot overflow);
			// log σ(−z) = log σ(z) − z.
			const e = Math.exp(-Math.abs(z));
			const logP = (z < 0 ? z : 0) - Math.log1p(e);
			const p = z < 0 ? e / (1 + e) : 1 / (1 + e);
			ll += (wa + wb) * logP - wb * z;
			const gz = wa - (wa + wb) * p;
			const hz = (wa + wb) * p * (1 - p);
			const q = pair[j];
			sumG[q] += gz;
			sumH[q] += hz;
			sumHx[q] += x * hz;
			gg += x * gz;
			hgg += x * x * hz;
		}
		g.fill(0);
		h.fill(0);
		// dz/dβ_a = ln 10, dz/dβ_b = −ln 10, dz/dγ = x; the pinned β has no parameter.
		for (let a = 0; a < n; a++)
			for (let b = 0; b < n; b++) {
				const q = a * n + b;
				if (sumH[q] === 0 && sumG[q] === 0) continue;
				const ia = a < nb ? a : -1;
				const ib = b < nb ? b : -1;
				if (ia >= 0) {
					g[ia] += LN10 * sumG[q];
					h[ia * m + ia] += L2 * sumH[q];
				}
				if (ib >= 0) {
					g[ib] -= LN10 * sumG[q];
					h[ib * m + ib] += L2 * sumH[q];
				}
				if (ia >= 0 && ib >= 0) {
					h[ia * m + ib] -= L2 * sumH[q];
					h[ib * m + ia] -= L2 * sumH[q];
				}
				if (c.useLength) {
					if (ia >= 0) {
						h[ia * m + g0] += LN10 * sumHx[q];
						h[g0 * m + ia] += LN10 * sumHx[q];
					}
					if (ib >= 0) {
						h[ib * m + g0] -= LN10 * sumHx[q];
						h[g0 * m + ib] -= LN10 * sumHx[q];
					}
				}
			}
		if (c.useLength) {
			g[g0] = gg;
			h[g0 * m + g0] = hgg;
		}
		return ll;
	};
	const g = new Float64Array(m);
	const h = new Float64Array(m * m);
	const param = (x: number) => (x < nb ? x : n); // parameter index → slot in theta
	let current = evaluate(theta, g, h);
	let converged = false;
	for (let iteration = 0; iteration < 100 && !converged; iteration++) {
		const step = solve(h, g, m);
		if (!step.every(Number.isFinite)) return null;
		// Newton converges quadratically: a step this small is the last one worth taking.
		if (step.every((v) => Math.abs(v) < 1e-12)) {
			for (let x = 0; x < m; x++) theta[param(x)] += step[x];
			converged = true;
			break;
		}
		let scale = 1;
		const next = theta.slice();
		for (let halving = 0; halving < 60; halving++) {
			for (let x = 0; x < m; x++) next[param(x)] = theta[param(x)] + scale * step[x];
			const value = evaluate(next, g, h);
			if (value >= current - 1e-12 * Math.abs(current)) {
				current = value;
				break;
			}
			scale /= 2;
		}
		let change = 0;
		for (let x = 0; x < m; x++)
			change = Math.max(change, Math.abs(next[param(x)] - theta[param(x)]));
		theta.set(next);
		converged = change < 1e-12;
	}
	if (!converged) return null;
	let mean = 0;
	for (let x = 0; x < n; x++) mean += theta[x] / n;
	const beta = new Float64Array(k).fill(NaN);
	left.forEach((i, x) => (beta[i] = theta[x] - mean));
	return { beta, gamma: c.useLength ? theta[n] : 0 };
}

/** The weight matrix of a (resampled) set of compiled battles, as `battleWeights` builds it. */
function weightsOf(c: Compiled, counts: Float64Array | null): BattleWeights {
	const k = c.models.length;
	const w = new Float64Array(k * k);
	for (let i = 0; i < c.a.length; i++) {
		const times = counts ? counts[c.question[i]] : 1;
		if (times === 0) continue;
		w[c.a[i] * k + c.b[i]] += times * c.wa[i];
		w[c.b[i] * k + c.a[i]] += times * c.wb[i];
	}
	return { models: c.models, w };
}

const NOT_CONVERGED =
	'the length-controlled fit did not converge (the length difference may separate winners from losers)';

/**
 * Length-controlled Bradley–Terry ratings (LMArena's style control with length as the one style
 * feature): the maximum-likelihood fit of P(a beats b) = σ(ln 10·(R_a − R_b)/400 + γ·x), x the
 * normalised length difference (len_a − len_b)/(len_a + len_b) standardised over the battles
 * (mean 0, population sd 1); ties half a win each side; the finite ratings centred to mean 1000.
 * A model that won or lost every comparison is undefined as in `bradleyTerry`. When x is the same
 * in every battle γ is undefined and the ratings are `bradleyTerry`'s. With `{resamples, seed}`,
 * percentile intervals of the ratings and γ from a bootstrap over questions (the standardisation
 * is fixed on the full data, as FastChat's bootstrap fixes its design matrix).
 */
export function styleControlledBt(
	battles: LengthBattle[],
	opts?: { resamples: number; seed: string; level?: number }
): StyleControlledBt {
	for (const b of battles) {
		checkBattle(b);
		for (const len of [b.lengthA, b.lengthB])
			if (!(Number.isFinite(len) && len >= 0))
				throw new RangeError(`a length must be a number ≥ 0; got ${len} (question ${b.question})`);
	}
	const level = opts ? checkBootstrapOptions(opts) : 0;
	const models = [...new Set(battles.flatMap((b) => [b.modelA, b.modelB]))].sort();
	const c = compile(battles, models);
	const lengthFeature = standardise(c.x, c.useLength);
	const { ratings, left } = unratedModels(battleWeights(battles, models));
	const noLength =
		'the normalised length difference is the same in every battle: no length effect can be estimated';
	let lengthCoefficient: Stat = c.useLength
		? undefinedStat('no finite ratings to fit the length effect with')
		: undefinedStat(noLength);
	const full = left ? fitStyle(c, left, null, null) : null;
	if (left && !full) {
		for (const i of left) ratings[models[i]] = undefinedStat(NOT_CONVERGED);
		if (c.useLength) lengthCoefficient = undefinedStat(NOT_CONVERGED);
	}
	if (left && full) {
		for (const i of left) ratings[models[i]] = defined(BT_SCALE * full.beta[i] + BT_INIT);
		if (c.useLength) lengthCoefficient = defined(full.gamma);
	}
	const result: StyleControlledBt = {
		models,
		battles: battles.length,
		ratings,
		lengthCoefficient,
		lengthFeature
	};
	if (!opts) return result;

	const q = c.questions;
	const samples = models.map(() => new Float64Array(opts.resamples));
	const valid = new Int32Array(models.length);
	const gammas = new Float64Array(opts.resamples);
	let gammaValid = 0;
	const random = seededRandom(opts.seed);
	const counts = new Float64Array(q);
	for (let r = 0; r < opts.resamples && q > 0; r++) {
		counts.fill(0);
		for (let i = 0; i < q; i++) counts[Math.floor(random() * q)]++;
		const drawn = unratedModels(weightsOf(c, counts));
		if (!drawn.left) continue;
		const f = fitStyle(c, drawn.left, counts, full);
		if (!f) continue;
		for (const i of drawn.left) samples[i][valid[i]++] = BT_SCALE * f.beta[i] + BT_INIT;
		if (c.useLength) gammas[gammaValid++] = f.gamma;
	}
	const interval = (stat: Stat, values: Float64Array): Interval =>
		stat.value === null
			? { low: null, high: null, reason: stat.reason }
			: q === 0
				? { low: null, high: null, reason: 'no questions to resample' }
				: percentileInterval(values, level, opts.resamples);
	result.intervals = {
		ratings: Object.fromEntries(
			models.map((m, i) => [m, interval(ratings[m], samples[i].subarray(0, valid[i]))])
		),
		lengthCoefficient: interval(lengthCoefficient, gammas.subarray(0, gammaValid)),
		questions: q
	};
	return result;
}
