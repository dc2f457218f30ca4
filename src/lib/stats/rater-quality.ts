// Per-rater quality figures: agreement with peers (leave one out), time on task with implausibly
// fast judgements, position bias, and ISO-week buckets for drift. Pure: labels in, figures out.
import { wilson } from './blinding-attack';
import { bootstrap, tooFewUnits } from './bootstrap';
import { cohenKappa } from './ratings';
import type { Interval, Rating, Stat } from './types';
import { defined, undefinedStat } from './types';

/** One categorical label of one judgement: `unit` is what is labelled (question and key). */
export interface UnitLabel {
	question: string;
	unit: string;
	rater: string;
	label: string;
}

export interface PeerAgreement {
	/** Pairs (the rater's label, one peer's label on the same unit) pooled. */
	pairs: number;
	/** Questions with at least one pair: the units the bootstrap resamples. */
	questions: number;
	kappa: Stat;
	interval: Interval;
}

type Pair = [string, string];

function pairsByQuestion(labels: UnitLabel[], rater: string): Map<string, Pair[]> {
	const byUnit = new Map<string, UnitLabel[]>();
	for (const l of labels) byUnit.set(l.unit, [...(byUnit.get(l.unit) ?? []), l]);
	const out = new Map<string, Pair[]>();
	for (const list of byUnit.values()) {
		const own = list.filter((l) => l.rater === rater);
		const peers = list.filter((l) => l.rater !== rater);
		for (const o of own)
			for (const p of peers)
				out.set(o.question, [...(out.get(o.question) ?? []), [o.label, p.label]]);
	}
	return out;
}

function pooledKappa(groups: Pair[][]): Stat {
	const ratings: Rating[] = [];
	let n = 0;
	for (const g of groups)
		for (const [self, peer] of g) {
			ratings.push({ unit: String(n), rater: 'self', value: self });
			ratings.push({ unit: String(n++), rater: 'peer', value: peer });
		}
	if (n === 0) return undefinedStat('shares no labelled unit with another rater');
	return cohenKappa(ratings);
}

/**
 * Leave-one-out agreement of one rater with their peers: every unit the rater labelled that another
 * rater also labelled gives one pair (the rater's label, the peer's label) per peer; the pairs of
 * all peers are pooled into one table and Cohen's kappa (cohenKappa, Cohen 1960) is computed on
 * it. The interval is the seeded percentile bootstrap over the questions (all pairs of a question
 * kept together), not drawn over fewer than MIN_INTERVAL_UNITS questions.
 */
export function peerAgreement(
	labels: UnitLabel[],
	rater: string,
	opts: { resamples: number; seed: string }
): PeerAgreement {
	const { groups, questions, kappa } = grouped(labels, rater);
	const interval: Interval =
		kappa.value === null
			? { low: null, high: null, reason: kappa.reason }
			: (tooFewUnits(questions, 'questions shared with a peer') ??
				bootstrap(groups, (sample) => pooledKappa(sample).value, opts));
	return { pairs: groups.reduce((n, g) => n + g.length, 0), questions, kappa, interval };
}

function grouped(labels: UnitLabel[], rater: string) {
	const byQuestion = pairsByQuestion(labels, rater);
	const groups = [...byQuestion.keys()].sort().map((q) => byQuestion.get(q)!);
	return { groups, questions: groups.length, kappa: pooledKappa(groups) };
}

/** peerAgreement without the interval (for small slices such as one week). */
export function peerKappa(labels: UnitLabel[], rater: string): Omit<PeerAgreement, 'interval'> {
	const { groups, questions, kappa } = grouped(labels, rater);
	return { pairs: groups.reduce((n, g) => n + g.length, 0), questions, kappa };
}

/** A judgement faster than this is implausible whatever the study (milliseconds). */
export const FAST_FLOOR_MS = 10_000;
/** …and so is one faster than this share of the study's median time on task. */
export const FAST_SHARE_OF_MEDIAN = 1 / 5;

/** The median of numbers (mean of the middle two for an even count); null for none. */
export function median(values: number[]): number | null {
	if (values.length === 0) return null;
	const s = [...values].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The time under which a judgement is implausibly fast: the larger of FAST_FLOOR_MS and
 * FAST_SHARE_OF_MEDIAN × the median time of every measured judgement of the study (all raters).
 */
export function fastThreshold(studyTimesMs: number[]): number {
	const m = median(studyTimesMs);
	return Math.max(FAST_FLOOR_MS, m === null ? 0 : m * FAST_SHARE_OF_MEDIAN);
}

export interface TimeOnTask {
	/** Judgements with a measured time. */
	n: number;
	medianMs: number | null;
	/** Judgements faster than the threshold. */
	fast: number;
	thresholdMs: number;
}

/** A rater's median time on task and how many of their judgements fall under `thresholdMs`. */
export function timeOnTask(timesMs: number[], thresholdMs: number): TimeOnTask {
	return {
		n: timesMs.length,
		medianMs: median(timesMs),
		fast: timesMs.filter((t) => t < thresholdMs).length,
		thresholdMs
	};
}

function logChoose(n: number, k: number): number {
	let s = 0;
	for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
	return s;
}

/**
 * The exact two-sided binomial test of `k` successes in `n` trials against probability `p`: the
 * total probability of every outcome no more likely than the observed one (the definition R's
 * binom.test uses, with its relative tolerance 1 + 1e-7). Undefined for n = 0.
 */
export function binomialTest(k: number, n: number, p = 0.5): Stat {
	if (n <= 0) return undefinedStat('no trials');
	if (!(p > 0 && p < 1)) return undefinedStat('p must be strictly between 0 and 1');
	const logPmf = (x: number) => logChoose(n, x) + x * Math.log(p) + (n - x) * Math.log(1 - p);
	const observed = logPmf(k);
	let total = 0;
	for (let x = 0; x <= n; x++) {
		const lp = logPmf(x);
		if (lp <= observed + Math.log(1 + 1e-7)) total += Math.exp(lp);
	}
	return defined(Math.min(1, total));
}

export interface Proportion {
	hits: number;
	n: number;
	share: Stat;
	/** Wilson 95 % interval; null bounds when n = 0. */
	low: number | null;
	high: number | null;
}

export function proportion(hits: number, n: number, none: string): Proportion {
	if (n === 0) return { hits, n, share: undefinedStat(none), low: null, high: null };
	const { low, high } = wilson(hits, n);
	return { hits, n, share: defined(hits / n), low, high };
}

export interface LeftBias extends Proportion {
	/** Exact two-sided binomial p-value against 0.5. */
	pValue: Stat;
}

/**
 * Pairwise position bias: the share of a rater's non-tie preferences that went to the answer shown
 * on the left, with its Wilson interval and the exact binomial test against 1/2. Ties carry no side
 * and are left out.
 */
export function leftPreference(left: number, right: number): LeftBias {
	const n = left + right;
	return {
		...proportion(left, n, 'no preference that is not a tie'),
		pValue: binomialTest(left, n, 0.5)
	};
}

export interface FirstShownBias extends Proportion {
	/** Σ 1/n_i over the rankings: the share expected if position did not matter. */
	chance: number | null;
}

/**
 * Ranking position bias: the share of a rater's rankings that ranked first the answer shown first,
 * against chance Σ(1/nᵢ)/N, nᵢ the answers in ranking i (a ranking whose first-shown answer shares
 * rank 1 with others counts as ranked first). Wilson interval.
 */
export function firstShownRankedFirst(
	rankings: { answers: number; firstShownRankedFirst: boolean }[]
): FirstShownBias {
	const hits = rankings.filter((r) => r.firstShownRankedFirst).length;
	const n = rankings.length;
	return {
		...proportion(hits, n, 'no ranking'),
		chance: n === 0 ? null : rankings.reduce((s, r) => s + 1 / r.answers, 0) / n
	};
}

/**
 * The ISO 8601 week of a moment in UTC, as `YYYY-Www`: weeks start on Monday and week 1 is the
 * one containing the year's first Thursday, so 2026-01-01 (a Thursday) is 2026-W01 and
 * 2027-01-01 (a Friday) is 2026-W53.
 */
export function isoWeek(at: Date): string {
	const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
	const day = d.getUTCDay() || 7;
	d.setUTCDate(d.getUTCDate() + 4 - day);
	const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
	const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
	return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Groups values by the ISO week of their moment, weeks in order. */
export function byIsoWeek<T>(values: T[], at: (v: T) => Date): [string, T[]][] {
	const out = new Map<string, T[]>();
	for (const v of values) {
		const w = isoWeek(at(v));
		out.set(w, [...(out.get(w) ?? []), v]);
	}
	return [...out].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
