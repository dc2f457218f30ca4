// Bradley–Terry ratings of pairwise battles, as FastChat defines them for the LMArena leaderboard
// (`compute_mle_elo` in fastchat/serve/monitor/elo_analysis.py): the maximum-likelihood fit of
// P(a beats b) = 1 / (1 + 10^((R_b − R_a)/400)), a tie counting as half a win for each side,
// ratings centred so that their mean is 1000; intervals from a bootstrap that resamples whole
// questions (the battles of one question are not independent).
import { checkBootstrapOptions, drain, percentileInterval, seededRandom } from './bootstrap';
import { defined, undefinedStat, type Interval, type Stat } from './types';

/** FastChat's battle labels: which side won, or a tie (`tie (bothbad)`: both answers bad). */
export const BATTLE_WINNERS = ['model_a', 'model_b', 'tie', 'tie (bothbad)'] as const;
export type BattleWinner = (typeof BATTLE_WINNERS)[number];

/** One pairwise outcome of a question. */
export interface Battle {
	question: string;
	modelA: string;
	modelB: string;
	winner: BattleWinner;
}

export const BT_BASE = 10;
export const BT_SCALE = 400;
export const BT_INIT = 1000;

/** The fit of a set of battles: each model's rating, or why it has no finite value. */
export interface BtRatings {
	models: string[];
	battles: number;
	ratings: Record<string, Stat>;
}

/** Battles compiled into a weight matrix: w[i][j] = 2 × wins of i over j + ties of i and j. */
export interface BattleWeights {
	models: string[];
	w: Float64Array;
}

/** Refuses a battle with an unknown winner label or of a model against itself (RangeError). */
export function checkBattle(b: Battle): void {
	if (!BATTLE_WINNERS.includes(b.winner))
		throw new RangeError(`unknown winner label "${b.winner}" (question ${b.question})`);
	if (b.modelA === b.modelB)
		throw new RangeError(`a battle of ${b.modelA} against itself (question ${b.question})`);
}

/** The weight matrix of battles over `models` (which must name every model of the battles). */
export function battleWeights(battles: Battle[], models: string[]): BattleWeights {
	const index = new Map(models.map((m, i) => [m, i]));
	const k = models.length;
	const w = new Float64Array(k * k);
	for (const b of battles) {
		const a = index.get(b.modelA)!;
		const c = index.get(b.modelB)!;
		// FastChat: a win weighs 2 for the winner; a tie 1 for each side (half a win each).
		if (b.winner === 'model_a') w[a * k + c] += 2;
		else if (b.winner === 'model_b') w[c * k + a] += 2;
		else {
			w[a * k + c] += 1;
			w[c * k + a] += 1;
		}
	}
	return { models, w };
}

/**
 * The models whose maximum-likelihood rating is infinite, peeled off one at a time: a model that
 * (among the models left) never lost, or never won, any share of a comparison. What remains has a
 * finite fit only if its comparisons connect every model both ways; `connected` says whether.
 */
function unbounded(c: BattleWeights): {
	out: Map<number, string>;
	connected: boolean;
	left: number[];
} {
	const k = c.models.length;
	let left = [...Array(k).keys()];
	const out = new Map<number, string>();
	for (let changed = true; changed;) {
		changed = false;
		for (const i of left) {
			let won = 0;
			let lost = 0;
			for (const j of left) {
				won += c.w[i * k + j];
				lost += c.w[j * k + i];
			}
			if (won + lost === 0) continue;
			if (lost === 0 || won === 0) {
				out.set(
					i,
					lost === 0
						? `${c.models[i]} won every comparison it took part in: its rating has no finite maximum-likelihood value`
						: `${c.models[i]} lost every comparison it took part in: its rating has no finite maximum-likelihood value`
				);
				changed = true;
			}
		}
		left = left.filter((i) => !out.has(i));
	}
	// Strong connectivity of "took a share of a win from": from the first model, both directions.
	const reach = (forward: boolean) => {
		const seen = new Set<number>(left.slice(0, 1));
		const stack = left.slice(0, 1);
		while (stack.length) {
			const i = stack.pop()!;
			for (const j of left)
				if (!seen.has(j) && (forward ? c.w[i * k + j] : c.w[j * k + i]) > 0) {
					seen.add(j);
					stack.push(j);
				}
		}
		return seen.size;
	};
	const compared = left.filter((i) => left.some((j) => c.w[i * k + j] + c.w[j * k + i] > 0));
	left = compared;
	const connected = left.length > 0 && reach(true) === left.length && reach(false) === left.length;
	return { out, connected, left };
}

/**
 * Newton's method on the log-likelihood Σ w_ij log σ(ln 10 · (β_i − β_j)) over the models `left`
 * (strongly connected, so the maximum is finite and unique up to a common shift, fixed by β = 0
 * for the last model). Returns the log10-strengths β, centred to mean 0.
 */
function fit(c: BattleWeights, left: number[]): Float64Array {
	const k = c.models.length;
	const n = left.length;
	const beta = new Float64Array(n);
	const LN10 = Math.LN10;
	const loglik = (b: Float64Array) => {
		let ll = 0;
		for (let x = 0; x < n; x++)
			for (let y = 0; y < n; y++) {
				const wij = c.w[left[x] * k + left[y]];
				if (wij > 0) ll -= wij * Math.log1p(Math.exp(-LN10 * (b[x] - b[y])));
			}
		return ll;
	};
	let current = loglik(beta);
	for (let iteration = 0; iteration < 200; iteration++) {
		// Gradient and (negative) Hessian over the first n − 1 parameters; the last is pinned at 0.
		const m = n - 1;
		const g = new Float64Array(m);
		const h = new Float64Array(m * m);
		for (let x = 0; x < n; x++)
			for (let y = x + 1; y < n; y++) {
				const wxy = c.w[left[x] * k + left[y]];
				const wyx = c.w[left[y] * k + left[x]];
				const total = wxy + wyx;
				if (total === 0) continue;
				const p = 1 / (1 + Math.exp(-LN10 * (beta[x] - beta[y])));
				const gx = LN10 * (wxy - total * p);
				const hxy = LN10 * LN10 * total * p * (1 - p);
				if (x < m) {
					g[x] += gx;
					h[x * m + x] += hxy;
				}
				if (y < m) {
					g[y] -= gx;
					h[y * m + y] += hxy;
				}
				if (x < m && y < m) {
					h[x * m + y] -= hxy;
					h[y * m + x] -= hxy;
				}
			}
		const step = solve(h, g, m);
		let scale = 1;
		let next = beta;
		let value = current;
		for (let halving = 0; halving < 60; halving++) {
			next = beta.slice();
			for (let x = 0; x < m; x++) next[x] += scale * step[x];
			value = loglik(next);
			if (value >= current - 1e-12 * Math.abs(current)) break;
			scale /= 2;
		}
		let change = 0;
		for (let x = 0; x < m; x++) change = Math.max(change, Math.abs(next[x] - beta[x]));
		beta.set(next);
		current = value;
		if (change < 1e-12) break;
	}
	let mean = 0;
	for (const b of beta) mean += b / n;
	for (let x = 0; x < n; x++) beta[x] -= mean;
	return beta;
}

/** Solves the symmetric positive-definite system H s = g (Gaussian elimination with pivoting). */
export function solve(h: Float64Array, g: Float64Array, m: number): Float64Array {
	const a = h.slice();
	const b = g.slice();
	for (let col = 0; col < m; col++) {
		let pivot = col;
		for (let r = col + 1; r < m; r++)
			if (Math.abs(a[r * m + col]) > Math.abs(a[pivot * m + col])) pivot = r;
		if (pivot !== col) {
			for (let c2 = 0; c2 < m; c2++) {
				const t = a[col * m + c2];
				a[col * m + c2] = a[pivot * m + c2];
				a[pivot * m + c2] = t;
			}
			const t = b[col];
			b[col] = b[pivot];
			b[pivot] = t;
		}
		const d = a[col * m + col];
		for (let r = col + 1; r < m; r++) {
			const f = a[r * m + col] / d;
			if (f === 0) continue;
			for (let c2 = col; c2 < m; c2++) a[r * m + c2] -= f * a[col * m + c2];
			b[r] -= f * b[col];
		}
	}
	const s = new Float64Array(m);
	for (let r = m - 1; r >= 0; r--) {
		let t = b[r];
		for (let c2 = r + 1; c2 < m; c2++) t -= a[r * m + c2] * s[c2];
		s[r] = t / a[r * m + r];
	}
	return s;
}

/**
 * The models of a weight matrix that have no finite rating, each with its reason, and the models
 * (indices) left to fit, or null when no finite fit exists. Shared with the style-controlled fit,
 * whose ratings are finite under the same conditions.
 */
export function unratedModels(c: BattleWeights): {
	ratings: Record<string, Stat>;
	left: number[] | null;
} {
	const { out, connected, left } = unbounded(c);
	const ratings: Record<string, Stat> = {};
	for (const [i, reason] of out) ratings[c.models[i]] = undefinedStat(reason);
	const fitted = new Set(left);
	for (const [i, m] of c.models.entries())
		if (!out.has(i) && !fitted.has(i)) ratings[m] = undefinedStat(`${m} took part in no battle`);
	if (!left.length) return { ratings, left: null };
	if (!connected || left.length < 2) {
		for (const i of left)
			ratings[c.models[i]] = undefinedStat(
				left.length < 2
					? 'a rating needs battles between at least two models that each won and lost a share'
					: 'the battles split the models into groups that never won a share against each other both ways: no finite maximum-likelihood ratings'
			);
		return { ratings, left: null };
	}
	return { ratings, left };
}

/** Ratings of compiled battles: finite ones centred at BT_INIT, the others with their reason. */
function ratingsOf(c: BattleWeights): Record<string, Stat> {
	const { ratings, left } = unratedModels(c);
	if (!left) return ratings;
	const beta = fit(c, left);
	left.forEach((i, x) => (ratings[c.models[i]] = defined(BT_SCALE * beta[x] + BT_INIT)));
	return ratings;
}

/**
 * Bradley–Terry ratings of battles with FastChat's definition: base 10, scale 400, a tie (either
 * kind) half a win for each side, the finite ratings centred to mean 1000. A model that won (or
 * lost) every comparison it took part in has no finite maximum-likelihood rating: it is undefined,
 * saying so, and the others are fitted without it. A battle of a model against itself or with an
 * unknown winner label is an error (RangeError).
 */
export function bradleyTerry(battles: Battle[]): BtRatings {
	for (const b of battles) checkBattle(b);
	const models = [...new Set(battles.flatMap((b) => [b.modelA, b.modelB]))].sort();
	return { models, battles: battles.length, ratings: ratingsOf(battleWeights(battles, models)) };
}

/** A model's rating with its interval and the range of ranks the intervals allow. */
export interface BtLeaderboardRow {
	model: string;
	rating: Stat;
	interval: Interval;
	/** 1 + the number of models whose lower bound exceeds this model's upper bound. */
	rankBest: number | null;
	/** The number of models whose upper bound is not below this model's lower bound. */
	rankWorst: number | null;
}

/**
 * The leaderboard: `bradleyTerry` ratings, best first, each with a percentile interval from a
 * bootstrap that resamples whole QUESTIONS (every battle of a drawn question comes along; seeded,
 * so the same seed gives the same intervals). A resample in which a model has no finite rating is
 * skipped for that model (counted out of `valid`).
 */
export function btLeaderboard(
	battles: Battle[],
	opts: { resamples: number; seed: string; level?: number }
): BtLeaderboard {
	return drain(btLeaderboardSteps(battles, opts));
}

export interface BtLeaderboard {
	rows: BtLeaderboardRow[];
	battles: number;
	questions: number;
}

/**
 * btLeaderboard a resample at a time: yields how many resamples are done after each, and returns
 * the same leaderboard (the same operations in the same order), so a caller can pause between
 * resamples and say how far it has got.
 */
export function* btLeaderboardSteps(
	battles: Battle[],
	opts: { resamples: number; seed: string; level?: number }
): Generator<number, BtLeaderboard, void> {
	const level = checkBootstrapOptions(opts);
	const base = bradleyTerry(battles);
	const k = base.models.length;
	const index = new Map(base.models.map((m, i) => [m, i]));
	// Each question's battles compiled once into a sparse list of weight-matrix cells (cell, weight):
	// a resample counts how often each question was drawn and adds count × weight per cell. The
	// weights are small whole numbers, so the sums are exact in any order: the same matrix, and the
	// same ratings, as compiling the drawn battles one by one.
	const cellsOf = new Map<string, Map<number, number>>();
	for (const b of battles) {
		let cells = cellsOf.get(b.question);
		if (!cells) cellsOf.set(b.question, (cells = new Map()));
		const a = index.get(b.modelA)!;
		const c = index.get(b.modelB)!;
		const add = (cell: number, w: number) => cells.set(cell, (cells.get(cell) ?? 0) + w);
		if (b.winner === 'model_a') add(a * k + c, 2);
		else if (b.winner === 'model_b') add(c * k + a, 2);
		else {
			add(a * k + c, 1);
			add(c * k + a, 1);
		}
	}
	const questions = [...cellsOf.values()].map((cells) => ({
		cells: Int32Array.from(cells.keys()),
		weights: Float64Array.from(cells.values())
	}));
	const samples = new Map(base.models.map((m) => [m, new Float64Array(opts.resamples)]));
	const valid = new Map(base.models.map((m) => [m, 0]));
	const random = seededRandom(opts.seed);
	const q = questions.length;
	const drawn = new Float64Array(q);
	const w = new Float64Array(k * k);
	for (let r = 0; r < opts.resamples && q > 0; r++) {
		drawn.fill(0);
		for (let i = 0; i < q; i++) drawn[Math.floor(random() * q)]++;
		w.fill(0);
		for (let i = 0; i < q; i++) {
			const times = drawn[i];
			if (times === 0) continue;
			const { cells, weights } = questions[i];
			for (let j = 0; j < cells.length; j++) w[cells[j]] += times * weights[j];
		}
		const ratings = ratingsOf({ models: base.models, w: w.slice() });
		for (const m of base.models) {
			const v = ratings[m]?.value;
			if (v !== null && v !== undefined && Number.isFinite(v))
				samples.get(m)![valid.set(m, valid.get(m)! + 1).get(m)! - 1] = v;
		}
		yield r + 1;
	}
	const intervals = new Map(
		base.models.map((m) => {
			const rating = base.ratings[m];
			const interval: Interval =
				rating.value === null
					? { low: null, high: null, reason: rating.reason }
					: q === 0
						? { low: null, high: null, reason: 'no questions to resample' }
						: percentileInterval(samples.get(m)!.subarray(0, valid.get(m)!), level, opts.resamples);
			return [m, interval] as const;
		})
	);
	const rows = base.models
		.map((model) => {
			const interval = intervals.get(model)!;
			let rankBest: number | null = null;
			let rankWorst: number | null = null;
			if (interval.low !== null) {
				const others = [...intervals.entries()].filter(([m, i]) => m !== model && i.low !== null);
				rankBest = 1 + others.filter(([, i]) => i.low! > interval.high).length;
				rankWorst = 1 + others.filter(([, i]) => i.high! >= interval.low).length;
			}
			return { model, rating: base.ratings[model], interval, rankBest, rankWorst };
		})
		.sort(
			(a, b) =>
				(b.rating.value ?? -Infinity) - (a.rating.value ?? -Infinity) ||
				a.model.localeCompare(b.model)
		);
	return { rows, battles: battles.length, questions: q };
}
