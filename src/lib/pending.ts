// A report the page waited for and did not get in time stands as its progress (see
// $lib/server/domain/agreement/background): these tell the two apart on the server and the page.
import type { ReportProgress } from '$lib/server/progress';

/** What a report is while it is computed. */
export interface Pending {
	pending: ReportProgress;
}

export function isPending<T>(value: T | Pending | null): value is Pending {
	return value !== null && typeof value === 'object' && 'pending' in value;
}

/** Where a report's computation has got, or null when it is there (or absent). */
export function pendingOf<T>(value: T | Pending | null): ReportProgress | null {
	return isPending(value) ? value.pending : null;
}

/** The report when it is there; null while it is computed (or when there is none). */
export function readyOf<T>(value: T | Pending | null): Exclude<T, Pending> | null {
	return value === null || isPending(value) ? null : (value as Exclude<T, Pending>);
}
