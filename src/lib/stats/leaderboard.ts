// The experts' leaderboard: Plackett–Luce strengths of the models from physicians' rankings.
import { checkBootstrapOptions, drain, percentileInterval, seedState } from './bootstrap';
import type { Interval, RankRow } from './types';

/** One rater's ranking of one question: tiers of candidate labels, best first (a tier of >1 is a tie). */
export interface TierRanking {
	question: string;
	rater: string;
	ranking: string[][];
}

/**
 * Rankings compiled to flat arrays once, so every fit (and every bootstrap refit) allocates nothing.
 * Identical rankings (same candidates in the same tiers) are one PATTERN, fitted once with the
 * number of its rankings as weight: the likelihood is a sum over rankings, so this is exact, and
 * a fit costs a pass over the distinct patterns. A pattern's entries lie at
 * rankingStart[p]…rankingStart[p+1] in `items`, best tier first; the first entry of each tier but
 * the last carries `choices` = the tier's size (the choices it makes, see plackettLuce), every
 * other entry 0. One flat loop per pattern then does an MM step.
 */
interface Compiled {
	labels: string[];
	questions: string[];
	/** Per ranking: its question and its pattern. */
	rankingQuestion: Int32Array;
	rankingPattern: Int32Array;
	rankingStart: Int32Array;
	items: Int32Array;
	choices: Float64Array;
	/** Whether the entry is chosen (in a tier that is not the last): it counts as a win. */
	chosen: Uint8Array;
}

function compile(rankings: TierRanking[], labels: string[]): Compiled {
	const labelIndex = new Map(labels.map((l, i) => [l, i]));
	const questionIndex = new Map<string, number>();
	const patternIndex = new Map<string, number>();
	const rankingQuestion = new Int32Array(rankings.length);
	const rankingPattern = new Int32Array(rankings.length);
	const rankingStart: number[] = [0];
	const items: number[] = [];
	const choices: number[] = [];
	const chosen: number[] = [];
	rankings.forEach((r, k) => {
		let q = questionIndex.get(r.question);
		if (q === undefined) questionIndex.set(r.question, (q = questionIndex.size));
		rankingQuestion[k] = q;
		const seen = new Set<string>();
		const tiers = r.ranking.filter((tier) => tier.length);
		const own: number[] = [];
		const ownChoices: number[] = [];
		tiers.forEach((tier, t) => {
			const isLast = t === tiers.length - 1;
			tier.forEach((label, i) => {
				if (seen.has(label))
					throw new RangeError(
						`${label} appears twice in the ranking of question ${r.question} by ${r.rater}`
					);
				seen.add(label);
				own.push(labelIndex.get(label)!);
				ownChoices.push(i === 0 && !isLast ? tier.length : 0);
			});
		});
		// The choices fix the tiers that are not the last, hence which entries are chosen.
		const key = `${own.join(',')}|${ownChoices.join(',')}`;
		let p = patternIndex.get(key);
		if (p === undefined) {
			patternIndex.set(key, (p = patternIndex.size));
			let left = 0;
			for (let e = 0; e < own.length; e++) {
				left = Math.max(left - 1, ownChoices[e]);
				items.push(own[e]);
				choices.push(ownChoices[e]);
				chosen.push(left > 0 ? 1 : 0);
			}
			rankingStart.push(items.length);
		}
		rankingPattern[k] = p;
	});
	return {
		labels,
		questions: [...questionIndex.keys()],
		rankingQuestion,
		rankingPattern,
		rankingStart: Int32Array.from(rankingStart),
		items: Int32Array.from(items),
		choices: Float64Array.from(choices),
		chosen: Uint8Array.from(chosen)
	};
}

/** The patterns alone: what a fit reads. */
type Patterns = Pick<Compiled, 'rankingStart' | 'items' | 'choices' | 'chosen'>;

/** Pattern weights: each pattern counted as often as its rankings' questions are (`count` per question). */
function patternWeights(c: Compiled, count: (question: number) => number, out: Float64Array) {
	out.fill(0);
	for (let r = 0; r < c.rankingPattern.length; r++)
		out[c.rankingPattern[r]] += count(c.rankingQuestion[r]);
	return out;
}

/** The default prior: each candidate has this many pseudo-wins and as many pseudo-losses. */
const PSEUDO = 0.5;
const TOLERANCE = 1e-9;
/** A resample's refit stops sooner: its strengths are only read to the width of an interval. */
const RESAMPLE_TOLERANCE = 1e-6;

/** The wins of each candidate (pseudo-wins included): they do not depend on gamma. */
function winsOf(c: Patterns, weights: Float64Array, pseudo: number, wins: Float64Array) {
	const { rankingStart, items, chosen } = c;
	const rankings = rankingStart.length - 1;
	// Every member of a tier that is not the last is chosen once.
	wins.fill(pseudo);
	for (let r = 0; r < rankings; r++) {
		const w = weights[r];
		if (w === 0) continue;
		for (let e = rankingStart[r]; e < rankingStart[r + 1]; e++) if (chosen[e]) wins[items[e]] += w;
	}
}

/**
 * denom[i] = Σ over the choices whose risk set holds candidate i of (weight × choices) / (the
 * risk set's total strength): MM's denominator, and with the wins the log posterior's gradient.
 */
function denominators(
	c: Patterns,
	weights: Float64Array,
	gamma: Float64Array,
	scratch: ReturnType<typeof scratchFor>
) {
	const { rankingStart, items, choices } = c;
	const { denom, stage } = scratch;
	const rankings = rankingStart.length - 1;
	denom.fill(0);
	for (let r = 0; r < rankings; r++) {
		const w = weights[r];
		if (w === 0) continue;
		const e0 = rankingStart[r];
		const e1 = rankingStart[r + 1];
		// stage[e] = Σ of gamma over entries e… : at a tier's first entry, the set still to rank.
		let sum = 0;
		for (let e = e1 - 1; e >= e0; e--) {
			sum += gamma[items[e]];
			stage[e - e0] = sum;
		}
		// A candidate is in the risk set of every choice up to its own tier's; a tier of size t
		// makes t choices from it (Breslow), adding t / stage to each candidate still there.
		let cumulative = 0;
		for (let e = e0; e < e1; e++) {
			const t = choices[e];
			if (t !== 0) cumulative += (w * t) / stage[e - e0];
			denom[items[e]] += cumulative;
		}
	}
}

/**
 * One MM step (then the best common scale) from `gamma` into `next`; returns the largest change of
 * a log strength. `scratch.wins` must hold winsOf for these weights.
 */
function mmStep(
	c: Patterns,
	weights: Float64Array,
	gamma: Float64Array,
	next: Float64Array,
	pseudo: number,
	scratch: ReturnType<typeof scratchFor>
): number {
	const nLabels = gamma.length;
	const { wins, denom } = scratch;
	denominators(c, weights, gamma, scratch);
	for (let i = 0; i < nLabels; i++) {
		// The prior: `pseudo` wins and `pseudo` losses against a virtual item of strength 1.
		next[i] = wins[i] / (denom[i] + (2 * pseudo) / (gamma[i] + 1));
	}
	// The rankings say nothing about the common scale, which only the weak prior pins: MM alone
	// crawls along it. Setting the scale to its optimum is a further ascent step, and fast.
	if (pseudo > 0) {
		const scale = Math.exp(bestLogScale(next));
		for (let i = 0; i < nLabels; i++) next[i] *= scale;
	}
	let change = 0;
	for (let i = 0; i < nLabels; i++)
		change = Math.max(change, Math.abs(Math.log(next[i] / gamma[i])));
	return change;
}

/**
 * Hunter's MM iteration on weighted rankings (weight = how often each ranking is counted; 1 for the
 * data, the resample counts in a bootstrap), accelerated by SQUAREM (Varadhan & Roland 2008, step
 * scheme 3, on log strengths): two MM steps give a direction and a step length; the extrapolated
 * point is accepted when one MM step from it moves less than the second plain step did, else the
 * plain point is kept. It ends on an MM step that changes no log strength by `tolerance` or more:
 * the fixed point of plain MM, in a fraction of its steps. Updates gamma in place (scale: the
 * virtual item is 1).
 */
function fitAccelerated(
	c: Patterns,
	weights: Float64Array,
	gamma: Float64Array,
	maxIterations: number,
	pseudo: number,
	scratch: ReturnType<typeof scratchFor>,
	tolerance: number
): { iterations: number; converged: boolean } {
	const { g1, g2, g3 } = scratch;
	winsOf(c, weights, pseudo, scratch.wins);
	const n = gamma.length;
	let iterations = 0;
	while (iterations < maxIterations) {
		iterations++;
		if (mmStep(c, weights, gamma, g1, pseudo, scratch) < tolerance) {
			gamma.set(g1);
			return { iterations, converged: true };
		}
		iterations++;
		const plain = mmStep(c, weights, g1, g2, pseudo, scratch);
		if (plain < tolerance) {
			gamma.set(g2);
			return { iterations, converged: true };
		}
		let rr = 0;
		let vv = 0;
		for (let i = 0; i < n; i++) {
			const r = Math.log(g1[i] / gamma[i]);
			const v = Math.log(g2[i] / g1[i]) - r;
			rr += r * r;
			vv += v * v;
		}
		const alpha = vv > 0 ? Math.min(-1, -Math.sqrt(rr / vv)) : -1;
		if (alpha === -1) {
			gamma.set(g2);
			continue;
		}
		for (let i = 0; i < n; i++) {
			const t0 = Math.log(gamma[i]);
			const r = Math.log(g1[i]) - t0;
			const v = Math.log(g2[i]) - Math.log(g1[i]) - r;
			g3[i] = Math.exp(t0 - 2 * alpha * r + alpha * alpha * v);
		}
		let finite = true;
		for (let i = 0; i < n; i++) if (!(g3[i] > 0 && Number.isFinite(g3[i]))) finite = false;
		if (!finite) {
			gamma.set(g2);
			continue;
		}
		iterations++;
		const jumped = mmStep(c, weights, g3, g1, pseudo, scratch);
		if (Number.isFinite(jumped) && jumped < plain) {
			gamma.set(g1);
			if (jumped < tolerance) return { iterations, converged: true };
		} else gamma.set(g2);
	}
	return { iterations: maxIterations, converged: false };
}

/**
 * A resample's refit by Newton steps with the full-data fit's curvature (the chord method), in log
 * strengths θ = log γ: θ ← θ + M·∇ℓ(θ), where ∇ℓ is the log posterior's gradient (the wins minus
 * γ times MM's denominator) and M the inverse of its negated Hessian at the full-data fit
 * (curvatureInverse). From the full-data strengths a resample's own Hessian differs from that
 * one by a few per cent, so each step gains about two digits: 4–6 passes over the patterns where
 * MM with SQUAREM takes about 19. It ends after a step that changes no log strength by `tolerance`
 * (the gradient is then zero to within it: the same maximum MM converges to). Returns false when
 * a step is not at most half the one before it (a resample far from the full data, where the
 * full data's curvature does not fit), leaving gamma wherever it got: the caller then refits by MM.
 */
function chordRefit(
	c: Patterns,
	weights: Float64Array,
	gamma: Float64Array,
	inverse: Float64Array,
	pseudo: number,
	scratch: ReturnType<typeof scratchFor>,
	tolerance: number
): boolean {
	const n = gamma.length;
	const { wins, denom, g1: gradient, g2: step } = scratch;
	winsOf(c, weights, pseudo, wins);
	let previous = Infinity;
	for (let iteration = 0; iteration < 50; iteration++) {
		denominators(c, weights, gamma, scratch);
		for (let i = 0; i < n; i++)
			gradient[i] = wins[i] - gamma[i] * (denom[i] + (2 * pseudo) / (gamma[i] + 1));
		let largest = 0;
		for (let i = 0; i < n; i++) {
			let d = 0;
			for (let j = 0; j < n; j++) d += inverse[i * n + j] * gradient[j];
			step[i] = d;
			largest = Math.max(largest, Math.abs(d));
		}
		if (!(largest <= previous / 2)) return false; // NaN included
		for (let i = 0; i < n; i++) gamma[i] *= Math.exp(step[i]);
		if (largest < tolerance) return true;
		previous = largest;
	}
	return false;
}

/**
 * The inverse of the log posterior's negated Hessian in log strengths at gamma (n × n, row by
 * row), or an empty array when it is not positive definite (no prior: the common scale is free).
 * A tier of t choices from a risk set of total S adds t·(diag(a) − a·aᵀ) with a = γ/S over the
 * set; the prior adds 2·pseudo·γᵢ/(1 + γᵢ)² to each diagonal entry.
 */
function curvatureInverse(
	c: Patterns,
	weights: Float64Array,
	gamma: Float64Array,
	pseudo: number
): Float64Array {
	const { rankingStart, items, choices } = c;
	const n = gamma.length;
	const h = new Float64Array(n * n);
	for (let r = 0; r + 1 < rankingStart.length; r++) {
		const w = weights[r];
		if (w === 0) continue;
		const e1 = rankingStart[r + 1];
		for (let e = rankingStart[r]; e < e1; e++) {
			if (choices[e] === 0) continue;
			let total = 0;
			for (let f = e; f < e1; f++) total += gamma[items[f]];
			const wt = w * choices[e];
			for (let f = e; f < e1; f++) {
				const i = items[f];
				const ai = gamma[i] / total;
				h[i * n + i] += wt * ai;
				for (let g = e; g < e1; g++) h[i * n + items[g]] -= wt * ai * (gamma[items[g]] / total);
			}
		}
	}
	for (let i = 0; i < n; i++) h[i * n + i] += (2 * pseudo * gamma[i]) / (gamma[i] + 1) ** 2;
	// Cholesky h = L·Lᵀ, then the inverse column by column.
	const l = new Float64Array(n * n);
	for (let i = 0; i < n; i++) {
		for (let j = 0; j <= i; j++) {
			let sum = h[i * n + j];
			for (let k = 0; k < j; k++) sum -= l[i * n + k] * l[j * n + k];
			if (i === j) {
				if (!(sum > 0)) return new Float64Array(0);
				l[i * n + i] = Math.sqrt(sum);
			} else l[i * n + j] = sum / l[j * n + j];
		}
	}
	const inverse = new Float64Array(n * n);
	const y = new Float64Array(n);
	for (let col = 0; col < n; col++) {
		for (let i = 0; i < n; i++) {
			let sum = i === col ? 1 : 0;
			for (let k = 0; k < i; k++) sum -= l[i * n + k] * y[k];
			y[i] = sum / l[i * n + i];
		}
		for (let i = n - 1; i >= 0; i--) {
			let sum = y[i];
			for (let k = i + 1; k < n; k++) sum -= l[k * n + i] * inverse[k * n + col];
			inverse[i * n + col] = sum / l[i * n + i];
		}
	}
	return inverse;
}

/**
 * The log scale s maximising the prior Σᵢ log(e^s γᵢ) − 2 log(1 + e^s γᵢ), i.e. the root of
 * Σᵢ (1 − e^s γᵢ)/(1 + e^s γᵢ), decreasing in s: found by bisection.
 */
function bestLogScale(gamma: Float64Array): number {
	let lo = -60;
	let hi = 60;
	for (let step = 0; step < 60 && hi - lo > 1e-13; step++) {
		const s = (lo + hi) / 2;
		const c = Math.exp(s);
		let g = 0;
		for (const v of gamma) g += (1 - c * v) / (1 + c * v);
		if (g > 0) lo = s;
		else hi = s;
	}
	return (lo + hi) / 2;
}

function scratchFor(c: Patterns, n: number) {
	let longest = 1;
	for (let r = 0; r + 1 < c.rankingStart.length; r++)
		longest = Math.max(longest, c.rankingStart[r + 1] - c.rankingStart[r]);
	return {
		wins: new Float64Array(n),
		denom: new Float64Array(n),
		next: new Float64Array(n),
		g1: new Float64Array(n),
		g2: new Float64Array(n),
		g3: new Float64Array(n),
		stage: new Float64Array(longest)
	};
}

function labelsOf(rankings: TierRanking[]): string[] {
	const labels = new Set<string>();
	for (const r of rankings) for (const tier of r.ranking) for (const l of tier) labels.add(l);
	return [...labels].sort();
}

/** Strengths scaled to sum to 1 (written into out). */
function normalise(gamma: Float64Array, out: Float64Array) {
	let sum = 0;
	for (const g of gamma) sum += g;
	for (let i = 0; i < gamma.length; i++) out[i] = gamma[i] / sum;
}

/**
 * Plackett–Luce strengths from rankings given as tiers, fitted by Hunter's (2004) MM algorithm:
 * P(ranking) = Πₖ Π_{i∈tier k} γᵢ / (Σ_{j ranked at k or later} γⱼ)^{|tier k|}.
 * Ties (Breslow's approximation, as for tied event times in a Cox model): a tier of t tied
 * candidates is t separate choices from the same remaining set, so tied candidates neither beat
 * nor lose to each other; the last tier makes no choice (what remains is last whatever the
 * strengths). Partial rankings (a question some models did not answer) are fine: a ranking only
 * compares the candidates in it. Prior: every candidate gets `pseudo` (default 0.5) wins and as many
 * losses against a virtual item of strength 1 (as in Hunter 2004 §6 and the PlackettLuce R
 * package), so a candidate that never wins or never loses still has a finite, positive strength and
 * the fit is identifiable. Strengths are normalised to sum to 1: a candidate's strength is then the
 * model's probability of being ranked first among all of them; logStrengths are their logarithms.
 */
export function plackettLuce(
	rankings: TierRanking[],
	opts: { iterations?: number; pseudo?: number } = {}
): {
	strengths: Record<string, number>;
	logStrengths: Record<string, number>;
	iterations: number;
	converged: boolean;
} {
	const labels = labelsOf(rankings);
	const c = compile(rankings, labels);
	const gamma = new Float64Array(labels.length).fill(1);
	const result = fitAccelerated(
		c,
		patternWeights(c, () => 1, new Float64Array(c.rankingStart.length - 1)),
		gamma,
		opts.iterations ?? 10_000,
		opts.pseudo ?? PSEUDO,
		scratchFor(c, labels.length),
		TOLERANCE
	);
	const normalised = new Float64Array(labels.length);
	normalise(gamma, normalised);
	const strengths: Record<string, number> = {};
	const logStrengths: Record<string, number> = {};
	labels.forEach((l, i) => {
		strengths[l] = normalised[i];
		logStrengths[l] = Math.log(normalised[i]);
	});
	return { strengths, logStrengths, ...result };
}

/**
 * Each rater's ranking of each question as tiers, from rank rows (equal ranks form one tier).
 * `labelOf` names the candidate in the leaderboard (e.g. the model behind a blinded answer);
 * by default the candidate itself.
 */
export function tierRankings(
	rows: RankRow[],
	labelOf: (row: RankRow) => string = (r) => r.candidate
): TierRanking[] {
	// Groups in order of their first row, found by question then rater (no key string per row).
	const groups: RankRow[][] = [];
	const byQuestion = new Map<string, Map<string, RankRow[]>>();
	for (const r of rows) {
		let raters = byQuestion.get(r.question);
		if (!raters) byQuestion.set(r.question, (raters = new Map()));
		const list = raters.get(r.rater);
		if (list) list.push(r);
		else {
			const created = [r];
			raters.set(r.rater, created);
			groups.push(created);
		}
	}
	return groups.map((list) => {
		list.sort((a, b) => a.rank - b.rank);
		const ranking: string[][] = [];
		let last = NaN;
		for (const r of list) {
			if (r.rank !== last) ranking.push([]);
			ranking[ranking.length - 1].push(labelOf(r));
			last = r.rank;
		}
		return { question: list[0].question, rater: list[0].rater, ranking };
	});
}

/**
 * The experts' leaderboard: Plackett–Luce strengths (see plackettLuce), best first, each with a
 * percentile bootstrap interval from resampling whole QUESTIONS with replacement (all the raters'
 * rankings of a drawn question come along). Each resample refits from the full-data strengths
 * (MM accelerated by SQUAREM, see fitAccelerated);
 * a resample whose fit does not converge is skipped (and not counted in `valid`).
 */
export function expertLeaderboard(
	rankings: TierRanking[],
	opts: ExpertLeaderboardOptions
): ExpertLeaderboard {
	return drain(expertLeaderboardSteps(rankings, opts));
}

export interface ExpertLeaderboardOptions {
	resamples: number;
	seed: string;
	level?: number;
	iterations?: number;
	pseudo?: number;
}
export type ExpertLeaderboard = { label: string; strength: number; interval: Interval }[];

/**
 * expertLeaderboard a resample at a time: yields how many resamples are done after each, and
 * returns the same leaderboard (the same operations in the same order), so a caller can pause
 * between resamples and say how far it has got.
 */
export function* expertLeaderboardSteps(
	rankings: TierRanking[],
	opts: ExpertLeaderboardOptions
): Generator<number, ExpertLeaderboard, void> {
	return yield* leaderboardSteps(planExpertLeaderboard(rankings, opts));
}

/** A plan's resamples drawn here, one at a time (see expertLeaderboardSteps). */
export function* leaderboardSteps(
	plan: ExpertLeaderboardPlan
): Generator<number, ExpertLeaderboard, void> {
	const shard = shardOf(plan, 0, plan.resamples);
	const resample = plResampler(shard);
	for (let b = 0; b < shard.to; b++) {
		resample(b);
		yield b + 1;
	}
	return leaderboardOf(plan, [resample.result]);
}

/**
 * The experts' leaderboard before its bootstrap: the rankings compiled, the full-data fit (the
 * point strengths, and where every resample's refit starts) and what the resamples need. Its
 * resamples can then be drawn in shards (shardOf, plShard), here or on other threads, and put
 * together by leaderboardOf: the same leaderboard as expertLeaderboard, to the last bit.
 */
export interface ExpertLeaderboardPlan {
	labels: string[];
	/** The point strengths (normalised to sum to 1), in the order of labels. */
	point: Float64Array;
	level: number;
	resamples: number;
	/** What every shard shares (see PlShard). */
	common: Omit<PlShard, 'from' | 'to'>;
}

export function planExpertLeaderboard(
	rankings: TierRanking[],
	opts: ExpertLeaderboardOptions
): ExpertLeaderboardPlan {
	const level = checkBootstrapOptions(opts);
	const maxIterations = opts.iterations ?? 10_000;
	const pseudo = opts.pseudo ?? PSEUDO;
	const labels = labelsOf(rankings);
	const c = compile(rankings, labels);
	const n = labels.length;
	const full = new Float64Array(n).fill(1);
	const ones = patternWeights(c, () => 1, new Float64Array(c.rankingStart.length - 1));
	fitAccelerated(c, ones, full, maxIterations, pseudo, scratchFor(c, labels.length), TOLERANCE);
	const point = new Float64Array(n);
	normalise(full, point);
	const { rankingQuestion, rankingPattern, rankingStart, items, choices, chosen } = c;
	return {
		labels,
		point,
		level,
		resamples: opts.resamples,
		common: {
			rankingQuestion,
			rankingPattern,
			rankingStart,
			items,
			choices,
			chosen,
			labels: n,
			questions: c.questions.length,
			full,
			inverse: curvatureInverse(c, ones, full, pseudo),
			state: seedState(opts.seed),
			maxIterations,
			pseudo,
			tolerance: RESAMPLE_TOLERANCE
		}
	};
}

/** The shard of plan's bootstrap that draws resamples from…to−1. */
export function shardOf(plan: ExpertLeaderboardPlan, from: number, to: number): PlShard {
	return { ...plan.common, from, to };
}

/**
 * The leaderboard from the results of shards that cover resamples 0…resamples−1 in order: each
 * label's strengths over the resamples whose refit converged, in resample order, and their
 * percentile interval (a resample whose fit does not converge is skipped and not counted in
 * `valid`).
 */
export function leaderboardOf(
	plan: ExpertLeaderboardPlan,
	results: PlShardResult[]
): ExpertLeaderboard {
	const n = plan.labels.length;
	const draws = plan.labels.map(() => new Float64Array(plan.resamples));
	let valid = 0;
	for (const { converged, strengths } of results) {
		for (let k = 0; k < converged.length; k++) {
			if (!converged[k]) continue;
			for (let i = 0; i < n; i++) draws[i][valid] = strengths[k * n + i];
			valid++;
		}
	}
	return plan.labels
		.map((label, i) => ({
			label,
			strength: plan.point[i],
			interval: percentileInterval(draws[i].subarray(0, valid), plan.level, plan.resamples)
		}))
		.sort((a, b) => b.strength - a.strength || a.label.localeCompare(b.label));
}

/**
 * A share of the experts' leaderboard bootstrap: resamples from…to−1 of the seeded sequence.
 * Plain numbers and typed arrays only, so it can be sent to a worker thread (PL_SHARD_SOURCE).
 */
export interface PlShard extends Omit<Compiled, 'labels' | 'questions'> {
	/** How many candidates (labels) and questions. */
	labels: number;
	questions: number;
	/** The full-data fit, where each refit starts (scale: the virtual item is 1). */
	full: Float64Array;
	/** The chord method's matrix (curvatureInverse at the full-data fit); empty: refit by MM. */
	inverse: Float64Array;
	/** mulberry32's state before resample 0's first draw (seedState of the seed). */
	state: number;
	from: number;
	to: number;
	maxIterations: number;
	pseudo: number;
	tolerance: number;
}

/** Per resample of a shard: whether its refit converged, and its strengths (labels per resample). */
export interface PlShardResult {
	/** 0: the refit did not converge (the resample is skipped); 1: by the chord method; 2: by MM. */
	converged: Uint8Array;
	strengths: Float64Array;
}

/*
 * plResampler, plShard and the fitting functions PL_SHARD_SOURCE lists also run on worker threads,
 * sent there as their source text: they use only each other, their arguments and JavaScript's
 * built-ins.
 */

/**
 * Resamples a shard's resamples one at a time: resample(b) draws resample b's questions with
 * replacement (the draws of seededRandom(seed) from the (b·questions)-th on: mulberry32's state
 * advances by a constant at each draw, so any resample's first state is known at once), counts
 * each pattern as often as its rankings' questions were drawn, refits from the full-data
 * strengths and writes the result into resample.result.
 */
function plResampler(job: PlShard): ((b: number) => void) & { result: PlShardResult } {
	const n = job.labels;
	const questions = job.questions;
	const counts = new Float64Array(questions);
	const weights = new Float64Array(job.rankingStart.length - 1);
	const scratch = scratchFor(job, n);
	const gamma = new Float64Array(n);
	const normalised = new Float64Array(n);
	const result: PlShardResult = {
		converged: new Uint8Array(job.to - job.from),
		strengths: new Float64Array((job.to - job.from) * n)
	};
	const resample = (b: number) => {
		counts.fill(0);
		let s = (job.state + Math.imul(b * questions, 0x6d2b79f5)) | 0;
		for (let i = 0; i < questions; i++) {
			s = (s + 0x6d2b79f5) | 0;
			let t = s;
			t = Math.imul(t ^ (t >>> 15), t | 1);
			t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
			counts[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * questions)]++;
		}
		weights.fill(0);
		for (let r = 0; r < job.rankingPattern.length; r++)
			weights[job.rankingPattern[r]] += counts[job.rankingQuestion[r]];
		gamma.set(job.full);
		let converged =
			job.inverse.length > 0 &&
			chordRefit(job, weights, gamma, job.inverse, job.pseudo, scratch, job.tolerance);
		const byMM = !converged;
		if (byMM) {
			gamma.set(job.full);
			converged = fitAccelerated(
				job,
				weights,
				gamma,
				job.maxIterations,
				job.pseudo,
				scratch,
				job.tolerance
			).converged;
		}
		if (converged) {
			normalise(gamma, normalised);
			result.strengths.set(normalised, (b - job.from) * n);
			result.converged[b - job.from] = byMM ? 2 : 1;
		}
	};
	return Object.assign(resample, { result });
}

/** Every resample of a shard; `progress(done)` after each (done: of this shard). */
export function plShard(job: PlShard, progress?: (done: number) => void): PlShardResult {
	const resample = plResampler(job);
	for (let b = job.from; b < job.to; b++) {
		resample(b);
		if (progress) progress(b - job.from + 1);
	}
	return resample.result;
}

/**
 * plShard and what it calls as source text, for a worker thread: a function expression taking
 * (shard, progress). `__name` is what some TypeScript compilers wrap functions with to keep their
 * names; the worker's own (identity) stands in for it.
 */
export const PL_SHARD_SOURCE = () =>
	`(() => {
var __name = (f) => f;
${[plResampler, chordRefit, fitAccelerated, mmStep, denominators, winsOf, bestLogScale, normalise, scratchFor].map(String).join('\n')}
return ${String(plShard)};
})()`;
