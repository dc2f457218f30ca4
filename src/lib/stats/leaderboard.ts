// The experts' leaderboard: Plackett–Luce strengths of the models from physicians' rankings.
import { checkBootstrapOptions, drain, percentileInterval, seededRandom } from './bootstrap';
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
function winsOf(c: Compiled, weights: Float64Array, pseudo: number, wins: Float64Array) {
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
 * One MM step (then the best common scale) from `gamma` into `next`; returns the largest change of
 * a log strength. `scratch.wins` must hold winsOf for these weights.
 */
function mmStep(
	c: Compiled,
	weights: Float64Array,
	gamma: Float64Array,
	next: Float64Array,
	pseudo: number,
	scratch: ReturnType<typeof scratchFor>
): number {
	const { rankingStart, items, choices } = c;
	const nLabels = gamma.length;
	const { wins, denom, stage } = scratch;
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
	c: Compiled,
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
	let longest = 1;
	for (let r = 0; r + 1 < c.rankingStart.length; r++)
		longest = Math.max(longest, c.rankingStart[r + 1] - c.rankingStart[r]);
	const n = c.labels.length;
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
		scratchFor(c),
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
	const level = checkBootstrapOptions(opts);
	const maxIterations = opts.iterations ?? 10_000;
	const pseudo = opts.pseudo ?? PSEUDO;
	const labels = labelsOf(rankings);
	const c = compile(rankings, labels);
	const n = labels.length;
	const scratch = scratchFor(c);
	const full = new Float64Array(n).fill(1);
	fitAccelerated(
		c,
		patternWeights(c, () => 1, new Float64Array(c.rankingStart.length - 1)),
		full,
		maxIterations,
		pseudo,
		scratch,
		TOLERANCE
	);
	const point = new Float64Array(n);
	normalise(full, point);

	const questions = c.questions.length;
	const random = seededRandom(opts.seed);
	const counts = new Float64Array(questions);
	const weights = new Float64Array(c.rankingStart.length - 1);
	const drawn = (q: number) => counts[q];
	const gamma = new Float64Array(n);
	const normalised = new Float64Array(n);
	const draws = labels.map(() => new Float64Array(opts.resamples));
	let valid = 0;
	for (let b = 0; questions > 0 && b < opts.resamples; b++) {
		counts.fill(0);
		for (let i = 0; i < questions; i++) counts[Math.floor(random() * questions)]++;
		patternWeights(c, drawn, weights);
		gamma.set(full);
		const refit = fitAccelerated(
			c,
			weights,
			gamma,
			maxIterations,
			pseudo,
			scratch,
			RESAMPLE_TOLERANCE
		);
		if (refit.converged) {
			normalise(gamma, normalised);
			for (let i = 0; i < n; i++) draws[i][valid] = normalised[i];
			valid++;
		}
		yield b + 1;
	}
	return labels
		.map((label, i) => ({
			label,
			strength: point[i],
			interval: percentileInterval(draws[i].subarray(0, valid), level, opts.resamples)
		}))
		.sort((a, b) => b.strength - a.strength || a.label.localeCompare(b.label));
}
