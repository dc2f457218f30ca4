import { describe, expect, it } from 'vitest';
import { shareOf, sortRows, workloadWindows } from './windows';

describe('workload windows', () => {
	it('take the UTC calendar day and the ISO week (Monday 00:00 UTC) of the moment', () => {
		// Wednesday 25 November 2026, 15:02 UTC: ISO week 48 runs Monday 23rd to Sunday 29th.
		const w = workloadWindows(new Date('2026-11-25T15:02:00Z'));
		expect(w.dayStart.toISOString()).toBe('2026-11-25T00:00:00.000Z');
		expect(w.dayEnd.toISOString()).toBe('2026-11-26T00:00:00.000Z');
		expect(w.weekStart.toISOString()).toBe('2026-11-23T00:00:00.000Z');
		expect(w.weekEnd.toISOString()).toBe('2026-11-30T00:00:00.000Z');
		expect(w.isoWeek).toBe('2026-W48');
	});

	it('put Sunday 23:59 in the week that began the Monday before, and Monday 00:00 in a new one', () => {
		const sunday = workloadWindows(new Date('2026-11-29T23:59:59.999Z'));
		expect(sunday.weekStart.toISOString()).toBe('2026-11-23T00:00:00.000Z');
		expect(sunday.dayStart.toISOString()).toBe('2026-11-29T00:00:00.000Z');
		const monday = workloadWindows(new Date('2026-11-30T00:00:00.000Z'));
		expect(monday.weekStart.toISOString()).toBe('2026-11-30T00:00:00.000Z');
		expect(monday.dayStart.toISOString()).toBe('2026-11-30T00:00:00.000Z');
		expect(monday.isoWeek).toBe('2026-W49');
	});

	it('number weeks across the new year as ISO 8601 does', () => {
		// 1 January 2027 is a Friday: it belongs to 2026-W53, which began Monday 28 December.
		const w = workloadWindows(new Date('2027-01-01T12:00:00Z'));
		expect(w.isoWeek).toBe('2026-W53');
		expect(w.weekStart.toISOString()).toBe('2026-12-28T00:00:00.000Z');
		// 31 December 2024 is a Tuesday of 2025-W01.
		expect(workloadWindows(new Date('2024-12-31T08:00:00Z')).isoWeek).toBe('2025-W01');
	});

	it('leave a share of nothing undefined', () => {
		expect(shareOf(1, 4)).toBe(0.25);
		expect(shareOf(0, 3)).toBe(0);
		expect(shareOf(0, 0)).toBeNull();
	});
});

describe('sorting a workload table', () => {
	const rows = [
		{ pseudonym: 'P-b', share: 0.5 },
		{ pseudonym: 'P-a', share: null },
		{ pseudonym: 'P-c', share: 0.1 },
		{ pseudonym: 'P-d', share: 0.5 }
	];
	it('orders by the column both ways, keeps undefined values last and breaks ties by pseudonym', () => {
		expect(sortRows(rows, 'share', 'asc').map((r) => r.pseudonym)).toEqual([
			'P-c',
			'P-b',
			'P-d',
			'P-a'
		]);
		expect(sortRows(rows, 'share', 'desc').map((r) => r.pseudonym)).toEqual([
			'P-b',
			'P-d',
			'P-c',
			'P-a'
		]);
	});
});
