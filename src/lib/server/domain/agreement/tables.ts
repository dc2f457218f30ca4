// The cells every exported table writes a statistic with: its value, interval and reason.
import type { Interval, Stat } from '../../../stats/types';
import type { Estimate } from './verification';

/** One exported table: its columns and rows. */
export interface Table {
	columns: string[];
	rows: Record<string, unknown>[];
}

export const ESTIMATE_COLUMNS = ['value', 'low', 'high', 'level', 'valid', 'resamples', 'reason'];

export function intervalCells(i: Interval) {
	return i.low === null
		? { low: null, high: null, interval_reason: i.reason }
		: { low: i.low, high: i.high, level: i.level, valid: i.valid, resamples: i.resamples };
}

export function estimateCells(e: Estimate) {
	const { interval_reason, ...interval } = {
		interval_reason: undefined as string | undefined,
		...intervalCells(e.interval)
	};
	return {
		value: e.stat.value,
		...interval,
		reason: e.stat.reason ?? (interval_reason ? `interval: ${interval_reason}` : null)
	};
}

export const statCells = (s: Stat) => ({ value: s.value, reason: s.reason ?? null });
