import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ITEM_STATUSES, PROVENANCES, QA_TYPES, VERDICTS } from '../../../constants';

// Keyset paging of the item table: a page starts after (or ends before) the row it names by its
// sort value and id, so every page costs the same index range scan however deep it is, and rows
// inserted meanwhile never shift a page. Plain SQL on "qa_item" (see items.ts for why).

const ID = sql.raw('"qa_item"."id"');
const column = (name: string) => sql.raw(`"qa_item"."${name}"`);

interface SortKey {
	/** The sorted expression, exactly as its index (see schema/content.ts) has it. */
	expr: SQL;
	/** The SQL type a cursor's text value is cast back to. */
	type: string;
	/** Whether the column has nulls (they sort last ascending, first descending). */
	nullable: boolean;
	/** The cursor values this column can have, as text. */
	value: z.ZodType<string>;
}

const oneOf = (values: readonly [string, ...string[]]) => z.enum(values);
const integer = z.string().regex(/^-?\d{1,9}$/);

/** The sortable columns of the item table. */
export const SORT_KEYS = {
	id: { expr: ID, type: 'integer', nullable: false, value: integer },
	type: { expr: column('type'), type: 'qa_type', nullable: false, value: oneOf(QA_TYPES) },
	status: {
		expr: column('status'),
		type: 'item_status',
		nullable: false,
		value: oneOf(ITEM_STATUSES)
	},
	// The first 200 characters: a btree entry must stay small, and ties fall back to the id.
	question: {
		expr: sql.raw('left("qa_item"."question", 200)'),
		type: 'text',
		nullable: false,
		value: z.string().max(200)
	},
	updatedAt: {
		expr: column('updated_at'),
		type: 'timestamptz',
		nullable: false,
		// PostgreSQL's own text of a timestamptz (microseconds: a JavaScript Date would lose them).
		value: z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d){0,2}$/)
	},
	finalVerdict: {
		expr: column('final_verdict'),
		type: 'verdict',
		nullable: true,
		value: oneOf(VERDICTS)
	},
	finalRelevance: {
		expr: column('final_relevance'),
		type: 'smallint',
		nullable: true,
		value: integer
	},
	provenance: {
		expr: column('provenance'),
		type: 'provenance',
		nullable: true,
		value: oneOf(PROVENANCES)
	}
} satisfies Record<string, SortKey>;
export type ItemSort = keyof typeof SORT_KEYS;

/** A position in the sorted table: the sort value (as text; null for a null value) and the id. */
export interface Cursor {
	id: number;
	value: string | null;
}

/**
 * A cursor as a URL parameter: `<id>` for a null value (or the id sort), `<id>:<value>` else.
 * Readable, and exact (timestamps keep their microseconds).
 */
export function encodeCursor(sort: ItemSort, cursor: Cursor): string {
	return sort === 'id' || cursor.value === null ? `${cursor.id}` : `${cursor.id}:${cursor.value}`;
}

/** Parses a cursor parameter for `sort`; null when it is not a valid position of that sort. */
export function decodeCursor(sort: ItemSort, raw: string | undefined): Cursor | null {
	if (!raw) return null;
	const match = /^(\d{1,9})(?::([\s\S]*))?$/.exec(raw);
	if (!match) return null;
	const id = Number(match[1]);
	if (sort === 'id') return { id, value: match[1] };
	const value = match[2] ?? null;
	const key: SortKey = SORT_KEYS[sort];
	if (value === null) return key.nullable ? { id, value } : null;
	return key.value.safeParse(value).success ? { id, value } : null;
}

/** `asc`: the table's order; `desc`: its exact reverse. */
export type Direction = 'asc' | 'desc';

/** The ORDER BY of a scan in `dir` (the index order, forwards or backwards). */
export function orderBy(sort: ItemSort, dir: Direction): SQL[] {
	const d = sql.raw(dir);
	return sort === 'id' ? [sql`${ID} ${d}`] : [sql`${SORT_KEYS[sort].expr} ${d}`, sql`${ID} ${d}`];
}

/** The sort value of a row as cursor text (select it beside the row). */
export function sortValue(sort: ItemSort): SQL<string | null> {
	return sql<string | null>`${SORT_KEYS[sort].expr}::text`;
}

/**
 * The conditions of the rows after `cursor` (all rows without one) in `dir`, as segments to
 * read one after another, each in `orderBy(sort, dir)`. A nullable column has two: its values
 * and its nulls (in the scan's order), so that each is one index range, where a single `or`
 * would make PostgreSQL filter the whole index.
 */
export function segmentsAfter(sort: ItemSort, dir: Direction, cursor: Cursor | null): SQL[] {
	const key: SortKey = SORT_KEYS[sort];
	const cmp = sql.raw(dir === 'asc' ? '>' : '<');
	if (sort === 'id') return [cursor ? sql`${ID} ${cmp} ${cursor.id}` : sql`true`];
	const at = (value: string) =>
		sql`(${key.expr}, ${ID}) ${cmp} (${value}::${sql.raw(key.type)}, ${cursor!.id})`;
	if (!key.nullable) return [cursor ? at(cursor.value!) : sql`true`];
	const values = sql`${key.expr} is not null`;
	const nulls = sql`${key.expr} is null`;
	if (dir === 'asc') {
		if (!cursor) return [values, nulls];
		if (cursor.value === null) return [sql`${nulls} and ${ID} > ${cursor.id}`];
		return [at(cursor.value), nulls];
	}
	if (!cursor) return [nulls, values];
	if (cursor.value === null) return [sql`${nulls} and ${ID} < ${cursor.id}`, values];
	return [at(cursor.value)];
}
