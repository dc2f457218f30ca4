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
	/** A header above this and the neighbouring columns of the same group. */
	group?: string;
	/** The cell names its row (`<th scope="row">`). */
	rowHeader?: boolean;
	/** Extra CSS class of the column's cells. */
	class?: string;
	/** A CSS class of one cell, from its row (e.g. marking the best value). */
	cellClass?: (row: Row) => string | undefined;
}

/** The sort a server-sorted table is showing. */
export interface SortState {
	sort: string;
	dir: 'asc' | 'desc';
}
