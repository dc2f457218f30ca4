// The experts' leaderboard: Plackett–Luce strengths of the models from physicians' rankings.
import { checkBootstrapOptions, percentileInterval, seededRandom } from './bootstrap';
import type { Interval, RankRow } from './types';

/** One rater's ranking of one question: tiers of candidate labels, best first (a tier of >1 is a tie). */
export interface TierRanking {
	question: string;
	rater: string;
	ranking: string[][];
}

/** Rankings compiled to flat arrays once, so every fit (and every bootstrap refit) allocates nothing. */
interface Compiled {
	labels: string[];
	questions: string[];
	/** Per ranking: its question's index, and where its tiers start in tierStart. */
	rankingQuestion: Int32Array;
	rankingTier: Int32Array; // length rankings + 1
	/** Per tier: where its entries start in items (length tiers + 1). */
	tierStart: Int32Array;
	items: Int32Array;
}

function compile(rankings: TierRanking[], labels: string[]): Compiled {
	const labelIndex = new Map(labels.map((l, i) => [l, i]));
	const questionIndex = new Map<string, number>();
	const rankingQuestion = new Int32Array(rankings.length);
	const rankingTier = new Int32Array(rankings.length + 1);
	const tierStart: number[] = [0];
	const items: number[] = [];
	rankings.forEach((r, k) => {
		let q = questionIndex.get(r.question);
		if (q === undefined) questionIndex.set(r.question, (q = questionIndex.size));
		rankingQuestion[k] = q;
		const seen = new Set<string>();
		for (const tier of r.ranking) {
			if (!tier.length) continue;
			for (const label of tier) {
				if (seen.has(label))
					throw new RangeError(
						`${label} appears twice in the ranking of question ${r.question} by ${r.rater}`
					);
				seen.add(label);
				items.push(labelIndex.get(label)!);
			}
			tierStart.push(items.length);
		}
		rankingTier[k + 1] = tierStart.length - 1;
	});
	return {
		labels,
		questions: [...questionIndex.keys()],
		rankingQuestion,
		rankingTier,
		tierStart: Int32Array.from(tierStart),
		items: Int32Array.from(items)
	};
}

/** The default prior: each candidate has this many pseudo-wins and as many pseudo-losses. */
const PSEUDO = 0.5;
const TOLERANCE = 1e-9;
/** A resample's refit stops sooner: its strengths are only read to the width of an interval. */
const RESAMPLE_TOLERANCE = 1e-7;

/**
 * Hunter's MM iteration on weighted rankings (weight = how often each ranking is counted; 1 for the
 * data, the resample counts in a bootstrap). Updates gamma in place (scale: the virtual item is 1).
 */
function fit(
	c: Compiled,
	weights: Float64Array | null,
	gamma: Float64Array,
	maxIterations: number,
	pseudo: number,
	scratch: ReturnType<typeof scratchFor>,
	tolerance = TOLERANCE
): { iterations: number; converged: boolean } {
	const { rankingTier, tierStart, items } = c;
	const nLabels = gamma.length;
	const { wins, denom, stage, next } = scratch;
	const rankings = rankingTier.length - 1;
	// Wins do not depend on gamma: every member of a tier that is not the last is chosen once.
	wins.fill(pseudo);
	for (let r = 0; r < rankings; r++) {
		const w = weights ? weights[r] : 1;
		if (w === 0) continue;
		for (let t = rankingTier[r]; t < rankingTier[r + 1] - 1; t++)
			for (let e = tierStart[t]; e < tierStart[t + 1]; e++) wins[items[e]] += w;
	}
	for (let iteration = 1; iteration <= maxIterations; iteration++) {
		denom.fill(0);
		for (let r = 0; r < rankings; r++) {
			const w = weights ? weights[r] : 1;
			const t0 = rankingTier[r];
			const tiers = rankingTier[r + 1] - t0;
			if (w === 0 || tiers < 2) continue;
			// stage[k] = Σ of gamma over tiers k… (the set still to be ranked at tier k).
			let sum = 0;
			for (let k = tiers - 1; k >= 0; k--) {
				for (let e = tierStart[t0 + k]; e < tierStart[t0 + k + 1]; e++) sum += gamma[items[e]];
				stage[k] = sum;
			}
			// A candidate in tier k is in the risk set of the choices at tiers 0…min(k, last−1); tier
			// k makes |tier k| choices from it (Breslow), so it adds |tier k| / stage[k] to each member.
			let cumulative = 0;
			for (let k = 0; k < tiers; k++) {
				const start = tierStart[t0 + k];
				const end = tierStart[t0 + k + 1];
				if (k < tiers - 1) cumulative += (end - start) / stage[k];
				for (let e = start; e < end; e++) denom[items[e]] += w * cumulative;
			}
		}
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
		for (let i = 0; i < nLabels; i++) {
			change = Math.max(change, Math.abs(Math.log(next[i] / gamma[i])));
			gamma[i] = next[i];
		}
		if (change < tolerance) return { iterations: iteration, converged: true };
	}
	return { iterations: maxIterations, converged: false };
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

function scratchFor(c: Compiled) {
	let maxTiers = 1;
	for (let r = 0; r + 1 < c.rankingTier.length; r++)
		maxTiers = Math.max(maxTiers, c.rankingTier[r + 1] - c.rankingTier[r]);
	const n = c.labels.length;
	return {
		wins: new Float64Array(n),
		denom: new Float64Array(n),
		next: new Float64Array(n),
		stage: new Float64Array(maxTiers)
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
	const result = fit(
		c,
		null,
		gamma,
		opts.iterations ?? 10_000,
		opts.pseudo ?? PSEUDO,
		scratchFor(c)
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
	const groups = new Map<string, RankRow[]>();
	for (const r of rows) {
		const key = JSON.stringify([r.question, r.rater]);
		const list = groups.get(key);
		if (list) list.push(r);
		else groups.set(key, [r]);
	}
	return [...groups.values()].map((list) => {
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
 * rankings of a drawn question come along). Each resample refits from the full-data strengths;
 * a resample whose fit does not converge is skipped (and not counted in `valid`).
 */
export function expertLeaderboard(
	rankings: TierRanking[],
	opts: { resamples: number; seed: string; level?: number; iterations?: number; pseudo?: number }
): { label: string; strength: number; interval: Interval }[] {
	const level = checkBootstrapOptions(opts);
	const maxIterations = opts.iterations ?? 10_000;
	const pseudo = opts.pseudo ?? PSEUDO;
	const labels = labelsOf(rankings);
	const c = compile(rankings, labels);
	const n = labels.length;
	const scratch = scratchFor(c);
	const full = new Float64Array(n).fill(1);
	fit(c, null, full, maxIterations, pseudo, scratch);
	const point = new Float64Array(n);
	normalise(full, point);

	const questions = c.questions.length;
	const random = seededRandom(opts.seed);
	const counts = new Float64Array(questions);
	const weights = new Float64Array(c.rankingQuestion.length);
	const gamma = new Float64Array(n);
	const normalised = new Float64Array(n);
	const draws = labels.map(() => new Float64Array(opts.resamples));
	let valid = 0;
	for (let b = 0; questions > 0 && b < opts.resamples; b++) {
		counts.fill(0);
		for (let i = 0; i < questions; i++) counts[Math.floor(random() * questions)]++;
		for (let r = 0; r < weights.length; r++) weights[r] = counts[c.rankingQuestion[r]];
		gamma.set(full);
		const refit = fit(c, weights, gamma, maxIterations, pseudo, scratch, RESAMPLE_TOLERANCE);
		if (!refit.converged) continue;
		normalise(gamma, normalised);
		for (let i = 0; i < n; i++) draws[i][valid] = normalised[i];
		valid++;
	}
	return labels
		.map((label, i) => ({
			label,
			strength: point[i],
			interval: percentileInterval(draws[i].subarray(0, valid), level, opts.resamples)
		}))
		.sort((a, b) => b.strength - a.strength || a.label.localeCompare(b.label));
}
