const DAY_MS = 24 * 60 * 60 * 1000;

/** The two windows the workload view counts in: the UTC calendar day and the ISO week of `now`. */
export interface WorkloadWindows {
	/** 00:00 UTC of today, inclusive. */
	dayStart: Date;
	/** 00:00 UTC of tomorrow, exclusive. */
	dayEnd: Date;
	/** Monday 00:00 UTC of the ISO week, inclusive. */
	weekStart: Date;
	/** The next Monday 00:00 UTC, exclusive. */
	weekEnd: Date;
	/** ISO 8601 week-numbering year and week, e.g. `2026-W48`. */
	isoWeek: string;
}

/** The UTC day and ISO week (Monday to Sunday, UTC) that contain `now`. */
export function workloadWindows(now: Date): WorkloadWindows {
	const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
	// getUTCDay: Sunday 0 … Saturday 6; the ISO week starts on Monday.
	const sinceMonday = (dayStart.getUTCDay() + 6) % 7;
	const weekStart = new Date(dayStart.getTime() - sinceMonday * DAY_MS);
	// The ISO week belongs to the year of its Thursday.
	const thursday = new Date(weekStart.getTime() + 3 * DAY_MS);
	const year = thursday.getUTCFullYear();
	const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
	return {
		dayStart,
		dayEnd: new Date(dayStart.getTime() + DAY_MS),
		weekStart,
		weekEnd: new Date(weekStart.getTime() + 7 * DAY_MS),
		isoWeek: `${year}-W${String(week).padStart(2, '0')}`
	};
}

/** `part ÷ whole`, or null when the whole is zero (a share of nothing is undefined, not 0). */
export function shareOf(part: number, whole: number): number | null {
	return whole > 0 ? part / whole : null;
}

/**
 * `rows` sorted by `key` (`dir` ascending or descending); rows whose value is null (undefined:
 * nothing to measure) go last either way, and ties keep the pseudonym order.
 */
export function sortRows<Row extends { pseudonym: string }>(
	rows: Row[],
	key: keyof Row,
	dir: 'asc' | 'desc'
): Row[] {
	const sign = dir === 'asc' ? 1 : -1;
	return [...rows].sort((a, b) => {
		const x = a[key] as unknown;
		const y = b[key] as unknown;
		if (x === null || y === null) {
			if (x === y) return a.pseudonym.localeCompare(b.pseudonym);
			return x === null ? 1 : -1;
		}
		const order =
			typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
		return order * sign || a.pseudonym.localeCompare(b.pseudonym);
	});
}
