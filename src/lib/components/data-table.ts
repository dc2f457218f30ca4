import type { Snippet } from 'svelte';

/** One column of a DataTable. */
export interface Column<Row> {
	/** The sort key the server knows this column by (and the cell's CSS class). */
	id: string;
	header: string;
	/** The server can sort by it: the header becomes a link. */
	sortable?: boolean;
	/** How the cell shows a row; without it, `value`. */
	cell?: Snippet<[Row]>;
	/** The cell's plain value. */
	value?: (row: Row) => string | number | null | undefined;
	/** Right-aligned tabular figures. */
	numeric?: boolean;
}

/** The sort a server-sorted table is showing. */
export interface SortState {
	sort: string;
	dir: 'asc' | 'desc';
}
