// How the dashboard writes statistics: fixed decimals, intervals in brackets, reasons in words.
import { tooFewUnits } from '$lib/stats/bootstrap';
import { kendallTauB, spearman } from '$lib/stats/correlation';
import type { Interval, Stat } from '$lib/stats/types';

export interface Estimate {
	stat: Stat;
	interval: Interval;
}

/** A statistic to 3 decimals, or a dash (its reason is shown beside it). */
export const num = (v: number | null | undefined, digits = 3) =>
	v === null || v === undefined ? '—' : v.toFixed(digits);

export const pct = (v: number | null | undefined) =>
	v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)} %`;

/** A statistic that may be undefined: its value, or "no value: <why>". */
export const statText = (s: Stat, digits = 3) =>
	s.value === null ? `no value: ${s.reason}` : num(s.value, digits);

/** "[low, high]", or why there is no interval. */
export function intervalText(i: Interval, digits = 3): string {
	return i.low === null
		? `no interval: ${i.reason}`
		: `[${num(i.low, digits)}, ${num(i.high, digits)}]`;
}

/** One row of IntervalChart. */
export interface IntervalRow {
	label: string;
	value: number | null;
	low: number | null;
	high: number | null;
	reason?: string;
	intervalReason?: string;
}

/** One chart row from an estimate. */
export function chartRow(label: string, e: Estimate): IntervalRow {
	return {
		label,
		value: e.stat.value,
		low: e.interval.low,
		high: e.interval.high,
		reason: e.stat.reason,
		intervalReason: e.interval.low === null ? e.interval.reason : undefined
	};
}

/** "3 min ago", "2 h ago", "just now": how old a cached report is. */
export function age(computedAt: Date | string, now: Date | string): string {
	const seconds = Math.max(0, (new Date(now).getTime() - new Date(computedAt).getTime()) / 1000);
	if (seconds < 60) return 'just now';
	if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
	if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
	return `${Math.round(seconds / 86400)} days ago`;
}

export const STAT_LABELS: Record<string, string> = {
	percent_agreement: 'Percent agreement',
	cohen_kappa: "Cohen's kappa",
	alpha_nominal: "Krippendorff's alpha (nominal)",
	weighted_kappa_linear: 'Weighted kappa (linear)',
	weighted_kappa_quadratic: 'Weighted kappa (quadratic)',
	alpha_ordinal: "Krippendorff's alpha (ordinal)",
	icc2_1: 'ICC(2,1)'
};

export const METRIC_LABELS: Record<string, string> = {
	value: 'Headline score',
	semantic: 'Semantic similarity',
	bleu: 'BLEU',
	rouge: 'ROUGE',
	meteor: 'METEOR',
	f1: 'List F1',
	precision: 'List precision',
	recall: 'List recall'
};

/**
 * A heat-map cell's colours for a value on the scale min..max: light to dark blue, the text white
 * on the darker half so the number stays readable. Null (undefined mean): no colour.
 */
export function heatColour(
	value: number | null,
	min: number,
	max: number
): { background: string; color: string } | null {
	if (value === null || max <= min) return null;
	const t = Math.min(1, Math.max(0, (value - min) / (max - min)));
	// From near white to a mid blue, always with dark text: its contrast stays above 4.5:1 across
	// the whole range (WCAG AA), where white text on the middle shades would not.
	return {
		background: `hsl(210 70% ${Math.round(96 - t * 41)}%)`,
		color: '#111'
	};
}

/** At most `max` items, evenly spread: a scatter of a large study stays drawable. */
export function thin<T>(items: T[], max: number): T[] {
	if (items.length <= max) return items;
	const step = items.length / max;
	return Array.from({ length: max }, (_, i) => items[Math.floor(i * step)]);
}

export const RUBRIC_STAT_LABELS: Record<string, string> = {
	icc2_1: 'ICC(2,1)',
	icc2_k: 'ICC(2,k)',
	alpha_ordinal: 'Alpha (ordinal)',
	alpha_interval: 'Alpha (interval)',
	qwk: 'QWK'
};

// Pairwise studies and Bradley–Terry leaderboards.

/** A Bradley–Terry leaderboard's row as the stats module gives it. */
export interface BoardRow {
	model: string;
	rating: Stat;
	interval: Interval;
	rankBest: number | null;
	rankWorst: number | null;
}

/** A leaderboard line as the page prints it: what to show and why something is missing. */
export interface BoardLine {
	rank: number | null;
	model: string;
	rating: Stat;
	interval: Interval;
	/** "1", "1–3", or null when the model has no interval. */
	rankRange: string | null;
	battles: number | null;
}

/**
 * No interval over fewer than MIN_INTERVAL_UNITS questions: a bootstrap that resamples two or three
 * questions says nothing about the next question. Null when there are enough.
 */
export const fewQuestions = (questions: number) => tooFewUnits(questions, 'judged questions');

/** "1" or "1–3": the ranks a model's interval allows. */
export function rankRangeText(best: number | null, worst: number | null): string | null {
	if (best === null || worst === null) return null;
	return best === worst ? String(best) : `${best}–${worst}`;
}

/** A rating on the Bradley–Terry scale (whole points), or why there is none. */
export const ratingText = (s: Stat) =>
	s.value === null ? `no rating: ${s.reason}` : s.value.toFixed(0);

/**
 * A leaderboard's lines: rated models ranked 1, 2, … in the given order (best first), unrated ones
 * last without a rank; intervals and rank ranges withheld (with the reason) over too few
 * questions; `battles` per model when known.
 */
export function boardLines(
	rows: BoardRow[],
	questions: number,
	battles: Record<string, number> = {}
): BoardLine[] {
	const few = fewQuestions(questions);
	let rank = 0;
	return rows.map((r) => {
		const interval = r.rating.value === null ? r.interval : (few ?? r.interval);
		return {
			rank: r.rating.value === null ? null : ++rank,
			model: r.model,
			rating: r.rating,
			interval,
			rankRange: interval.low === null ? null : rankRangeText(r.rankBest, r.rankWorst),
			battles: battles[r.model] ?? null
		};
	});
}

/** Battles each model took part in, from the win matrix (cells are ordered pairs: count a's). */
export function battlesPerModel(cells: { a: string; n: number }[]): Record<string, number> {
	const out: Record<string, number> = {};
	for (const c of cells) out[c.a] = (out[c.a] ?? 0) + c.n;
	return out;
}

/**
 * The length-controlled fit as leaderboard rows (best first; no rank ranges: they are the plain
 * leaderboard's), each rating with its interval or why there is none.
 */
export function styleRows(sc: {
	ratings: Record<string, Stat>;
	intervals?: { ratings: Record<string, Interval> };
}): BoardRow[] {
	return Object.entries(sc.ratings)
		.map(([model, rating]) => ({
			model,
			rating,
			interval: sc.intervals?.ratings[model] ?? {
				low: null,
				high: null,
				reason: 'no bootstrap requested'
			},
			rankBest: null,
			rankWorst: null
		}))
		.sort(
			(a, b) =>
				(b.rating.value ?? -Infinity) - (a.rating.value ?? -Infinity) ||
				a.model.localeCompare(b.model)
		);
}

/** One row of the forest plot: a rating and its interval, or the reason for either's absence. */
export interface ForestRow {
	label: string;
	value: number | null;
	low: number | null;
	high: number | null;
	reason?: string;
	intervalReason?: string;
}

export function forestRows(lines: BoardLine[]): ForestRow[] {
	return lines.map((l) => ({
		label: l.model,
		value: l.rating.value,
		low: l.interval.low,
		high: l.interval.high,
		reason: l.rating.reason,
		intervalReason: l.interval.low === null ? l.interval.reason : undefined
	}));
}

/**
 * The forest plot's axis: every value and interval end and 1000 (the mean rating), widened to
 * whole multiples of a round step (25, 50, 100, 200, 250 or 500 points) giving at most 6 ticks.
 */
export function forestScale(rows: ForestRow[]): { min: number; max: number; ticks: number[] } {
	const xs = rows.flatMap((r) => [r.value, r.low, r.high]).filter((v): v is number => v !== null);
	const lo = Math.min(...xs, 1000);
	const hi = Math.max(...xs, 1000);
	const steps = [25, 50, 100, 200, 250, 500, 1000, 2000, 5000];
	const step =
		steps.find((s) => Math.ceil(hi / s) - Math.floor(lo / s) <= 5) ?? steps[steps.length - 1];
	let min = Math.floor(lo / step) * step;
	let max = Math.ceil(hi / step) * step;
	if (max === min) [min, max] = [min - step, max + step];
	const ticks = Array.from(
		{ length: Math.round((max - min) / step) + 1 },
		(_, i) => min + i * step
	);
	return { min, max, ticks };
}

/** A share with its (Wilson) interval: "39.3 % [23.6, 57.6 %]", or why it is undefined. */
export function proportionText(p: {
	share: Stat;
	interval: { low: number; high: number } | null;
}): string {
	if (p.share.value === null) return `no value: ${p.share.reason}`;
	const i = p.interval;
	return i
		? `${pct(p.share.value)} [${(i.low * 100).toFixed(1)}, ${(i.high * 100).toFixed(1)} %]`
		: pct(p.share.value);
}

/** A length-ratio band (longer ÷ shorter answer): "1–1.25×", "2× or more". */
export const bandLabel = (b: { low: number; high: number | null }) =>
	b.high === null ? `${b.low}× or more` : `${b.low}–${b.high}×`;

/** A win-matrix cell's text: "5–3–4" (wins–ties–losses) or "never met". */
export const cellText = (c: { wins: number; ties: number; losses: number; n: number }) =>
	c.n === 0 ? 'never met' : `${c.wins}–${c.ties}–${c.losses}`;

/**
 * How closely two leaderboards order the models both rate: Kendall's tau-b and Spearman's rho of
 * their ratings over the shared models (each undefined, with its reason, under 2 shared models).
 */
export function rankAgreement(
	a: BoardRow[],
	b: BoardRow[]
): { shared: number; tau: Stat; rho: Stat } {
	const theirs = new Map(b.map((r) => [r.model, r.rating.value]));
	const x: number[] = [];
	const y: number[] = [];
	for (const r of a) {
		const other = theirs.get(r.model);
		if (r.rating.value === null || other === null || other === undefined) continue;
		x.push(r.rating.value);
		y.push(other);
	}
	const few = { value: null, reason: `needs 2 models rated in both; has ${x.length}` } as const;
	return {
		shared: x.length,
		tau: x.length < 2 ? few : kendallTauB(x, y),
		rho: x.length < 2 ? few : spearman(x, y)
	};
}

export const DESIGN_LABELS: Record<string, string> = {
	ranking: 'Ranking',
	rubric: 'Rubric',
	pairwise: 'Pairwise',
	evidence: 'Evidence'
};

/** A statistic to 2 decimals, or "undefined: <why>" (for a figure inside a sentence). */
export const plainOrReason = (s: Stat, digits = 2) =>
	s.value === null ? `undefined: ${s.reason}` : num(s.value, digits);

/** The TREC BioGen figures in the official script's order, with what each measures. */
export const EVIDENCE_FIGURES = [
	['accuracy', 'Accuracy', 'answers that answer the question'],
	['acceptable_answers', 'Acceptable answers', 'count of those answers'],
	['precision', 'Precision', 'sentences judged required'],
	['redundancy', 'Redundancy', 'sentences judged unnecessary'],
	['harmfulness', 'Harmfulness', 'sentences judged inappropriate'],
	['citation_coverage', 'Citation coverage', 'sentences with a supporting citation'],
	['citation_support_rate', 'Citation support rate', 'citations that support'],
	['citation_contradict_rate', 'Citation contradict rate', 'citations that contradict'],
	['document_recall', 'Document recall', 'of the documents judged relevant in any run'],
	['document_precision', 'Document precision', 'cited documents judged relevant']
] as const;
export type EvidenceFigure = (typeof EVIDENCE_FIGURES)[number][0];

/** One run's figure as an estimate (a percentage with its interval; a count has none). */
export function evidenceEstimate(
	value: number | null,
	interval: Interval | undefined,
	count = false
): Estimate {
	return {
		stat:
			value === null
				? { value: null, reason: 'undefined: see the notes under the table' }
				: { value },
		interval: interval ?? {
			low: null,
			high: null,
			reason: count ? 'a count' : 'no bootstrap'
		}
	};
}
