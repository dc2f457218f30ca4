// How dates and numbers read on every page (one place, so all pages agree).

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat('en-GB', {
	dateStyle: 'medium',
	timeStyle: 'medium'
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const integer = new Intl.NumberFormat('en');

type DateLike = Date | string | number;

/** "24 Nov 2026, 14:05" */
export function formatDateTime(value: DateLike): string {
	return dateTime.format(new Date(value));
}

/** "24 Nov 2026, 14:05:09" (for things that take seconds, such as scoring runs) */
export function formatDateTimeSeconds(value: DateLike): string {
	return dateTimeSeconds.format(new Date(value));
}

/** "24 Nov 2026" */
export function formatDate(value: DateLike): string {
	return dateOnly.format(new Date(value));
}

/** "2026-11-24", the ISO calendar date in UTC (for file names and default names). */
export function isoDate(value: DateLike = Date.now()): string {
	return new Date(value).toISOString().slice(0, 10);
}

/** "12,345" */
export function formatCount(n: number): string {
	return integer.format(n);
}

/** A count that stops at `cap`: above it, "more than 1,000". */
export function countUpTo(n: number, cap: number): string {
	return n > cap ? `more than ${formatCount(cap)}` : formatCount(n);
}

/** "12 items", "1 item" */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
	return `${formatCount(n)} ${n === 1 ? noun : nouns}`;
}

/**
 * A row count as a page states it: exact ("1,234 items"), an estimate of an unfiltered table
 * ("about 48,900 items") or a lower bound where counting every match would cost too much ("more
 * than 10,000 items").
 */
export interface RowCount {
	kind: 'exact' | 'about' | 'more-than';
	n: number;
}

/** "1,234 items", "about 48,900 items", "more than 10,000 items" */
export function countPhrase(count: RowCount, noun: string, nouns = `${noun}s`): string {
	if (count.kind === 'exact') return plural(count.n, noun, nouns);
	return `${count.kind === 'about' ? 'about' : 'more than'} ${formatCount(count.n)} ${nouns}`;
}
