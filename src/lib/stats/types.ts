/** A statistic's value, or why it is undefined (never 0 or NaN in its place). */
export type Stat = { value: number; reason?: undefined } | { value: null; reason: string };
export const defined = (value: number): Stat => ({ value });
export const undefinedStat = (reason: string): Stat => ({ value: null, reason });
/** A 95 % (or other) percentile interval from a bootstrap, or why there is none. */
export type Interval =
	| { low: number; high: number; level: number; resamples: number; valid: number }
	| { low: null; high: null; reason: string };
/** One rating: a rater's value for a unit (an item, a candidate…). A missing rating is an absent row. */
export interface Rating {
	unit: string;
	rater: string;
	value: string | number;
}
export type Level = 'nominal' | 'ordinal' | 'interval';
/** One rater's rank of one candidate of one question (1 is best; tied candidates share a rank). */
export interface RankRow {
	question: string;
	rater: string;
	candidate: string;
	rank: number;
}
