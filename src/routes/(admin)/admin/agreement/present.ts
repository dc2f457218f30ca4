// How the dashboard writes statistics: fixed decimals, intervals in brackets, reasons in words.
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
