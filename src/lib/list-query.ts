// Links of server-paged, sorted and filtered tables: the current URL with some parameters changed.
// Everything is in the URL, so tables page, sort and filter without JavaScript.

export type QueryChanges = Record<string, string | number | null | undefined>;

/** `?…` of `url` with `changes` applied (null, undefined or '' removes a parameter). */
export function hrefWith(url: URL, changes: QueryChanges): string {
	const params = new URLSearchParams(url.searchParams);
	for (const [key, value] of Object.entries(changes)) {
		if (value === undefined || value === null || value === '') params.delete(key);
		else params.set(key, String(value));
	}
	const query = params.toString();
	return query ? `?${query}` : url.pathname;
}

/**
 * The link a sortable column header points to: ascending first, then toggling; the first page
 * (a page number or a keyset cursor belongs to the old sort).
 */
export function sortHref(
	url: URL,
	current: { sort: string; dir: 'asc' | 'desc' },
	column: string
): string {
	const dir = current.sort === column && current.dir === 'asc' ? 'desc' : 'asc';
	return hrefWith(url, { sort: column, dir, page: null, after: null, before: null });
}
