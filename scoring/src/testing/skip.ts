// How a skipped suite says why: when it is skipped, its title ends in `[skipped: <reason>]`, and
// `npm test` (scripts/test-all.js) prints every skipped test with that reason at the end of the run.

/** The title of a suite that runs only when `unmet` is null; otherwise it carries the reason. */
export function skippedTitle(title: string, unmet: string | null): string {
	return unmet === null ? title : `${title} [skipped: ${unmet}]`;
}

/** The reason in a skipped test's full name, or null when it gives none. */
export function skipReason(fullName: string): string | null {
	return /\[skipped: ([^\]]+)\]/.exec(fullName)?.[1] ?? null;
}
