import {
	and,
	count,
	desc,
	eq,
	exists,
	getTableColumns,
	isNull,
	not,
	or,
	sql,
	type SQL
} from 'drizzle-orm';
import { z } from 'zod';
import { listQuerySchema } from '../../../schemas/list-query';
import { rowsOf, type Db } from '../../db/client';
import { importRecord, model, passage, qaItem, qaItemVersion, response } from '../../db/schema';
import {
	ITEM_OUTCOMES,
	ITEM_STATUSES,
	PROVENANCES,
	QA_TYPES,
	VERDICTS,
	itemOutcome,
	type ItemOutcome
} from '../../../constants';
import { toCsv } from '../../csv';
import type { RowCount } from '../../../format';
import { heldSql } from './held';
import { reviewedWithoutPassageSql } from './passage';
import {
	SORT_KEYS,
	decodeCursor,
	encodeCursor,
	orderBy,
	segmentsAfter,
	sortValue,
	type Cursor,
	type Direction,
	type ItemSort
} from './keyset';

/** The columns the item table sorts by. */
export const ITEM_SORTS = Object.keys(SORT_KEYS) as [ItemSort, ...ItemSort[]];

// `none` selects items without a value (no final verdict yet, no provenance yet).
const orNone = <T extends readonly [string, ...string[]]>(values: T) =>
	z
		.enum([...values, 'none'] as [T[number] | 'none', ...(T[number] | 'none')[]])
		.optional()
		.catch(undefined);
const yesNo = z.enum(['yes', 'no']).optional().catch(undefined);
const cursorParam = z.string().max(400).optional().catch(undefined);

/**
 * Query of the item table: keyset paging (`after` or `before` a row, `page=last`, else the
 * first page), sorting and filtering. Everything is in the URL, so a page survives a reload and
 * can be shared.
 */
export const itemQuerySchema = listQuerySchema(ITEM_SORTS, { sort: 'id' })
	.omit({ page: true })
	.extend({
		after: cursorParam,
		before: cursorParam,
		page: z.literal('last').optional().catch(undefined),
		type: z.enum(QA_TYPES).optional().catch(undefined),
		status: z.enum(ITEM_STATUSES).optional().catch(undefined),
		outcome: z.enum(ITEM_OUTCOMES).optional().catch(undefined),
		verdict: orNone(VERDICTS),
		provenance: orNone(PROVENANCES),
		held: yesNo,
		passage: z.enum(['present', 'missing']).optional().catch(undefined),
		importId: z.coerce.number().int().positive().optional().catch(undefined),
		q: z.string().trim().max(200).optional().catch(undefined)
	});
export type ItemQuery = z.infer<typeof itemQuerySchema>;

/** Parses URL search parameters into an item query; bad values fall back to defaults. */
export function parseItemQuery(params: URLSearchParams): ItemQuery {
	return itemQuerySchema.parse(Object.fromEntries(params));
}

const held = heldSql();
// Subqueries in plain SQL with aliases: drizzle leaves columns unqualified in single-table
// selects, which inside a subquery would name the subquery's own columns.
const hasPassage = sql`exists (select 1 from "passage" src where src.paragraph_id = "qa_item"."paragraph_id")`;

/** The condition of one outcome (see `itemOutcome`, which this mirrors in SQL). */
function outcomeFilter(outcome: ItemOutcome): SQL {
	const live = sql`${qaItem.status} <> 'withdrawn'`;
	switch (outcome) {
		case 'withdrawn':
			return eq(qaItem.status, 'withdrawn');
		case 'held':
			return and(live, held)!;
		case 'pending':
			return and(
				live,
				not(held),
				or(sql`${qaItem.status} <> 'done'`, isNull(qaItem.finalVerdict))
			)!;
		case 'verified':
			return and(eq(qaItem.status, 'done'), eq(qaItem.finalVerdict, 'correct'), not(held))!;
		default:
			return and(eq(qaItem.status, 'done'), eq(qaItem.finalVerdict, outcome), not(held))!;
	}
}

/**
 * The text search: the item's current question or gold answer contains the words, or its item
 * key (a hex digest) starts with them. The matching versions come from trigram indexes on the
 * versions (never updated, so reviews do not write to them), and the items whose current version
 * they are from the index on `current_version_id`: a single-column semi-join the planner
 * estimates well, so it starts from a few matches, or walks the sort order for many.
 */
function searchFilter(q: string): SQL {
	return sql`"qa_item"."current_version_id" in (${searchVersions(q)})`;
}

/** A search's `ilike` pattern (its wildcards literal), and its item key prefix if it can be one. */
function searchPatterns(q: string) {
	const key = q.toLowerCase();
	return {
		pattern: `%${q.replace(/[\\%_]/g, '\\$&')}%`,
		keyPrefix: /^[0-9a-f]{4,}$/.test(key) ? `${key}%` : null
	};
}

/** The versions (current or not) a search matches, as a query of their ids. */
function searchVersions(q: string): SQL {
	const { pattern, keyPrefix } = searchPatterns(q);
	const byKey = keyPrefix
		? sql` union all select sk.current_version_id from "qa_item" sk where sk.item_key like ${keyPrefix}`
		: sql``;
	return sql`select sv.id from "qa_item_version" sv where sv.question ilike ${pattern} or sv.answer ilike ${pattern}${byKey}`;
}

/**
 * The same search tested on the item's own row, for the statements that read the items anyway
 * (a walk of the sort order, a pass over the segment): the row's question is its current
 * version's (denormalised), so only the answer is looked up, and only when the question does
 * not match: each answer by id in a walk (`per row`: a bounded number of rows, whatever the
 * words), the matching answers read once as a hashed set in a pass over every item (`as a set`:
 * from the answers' trigram index when the words have trigrams, else in one scan of every
 * answer). Selects exactly the items `searchFilter` does.
 */
function rowSearchFilter(q: string, answers: 'per row' | 'as a set'): SQL {
	const { pattern, keyPrefix } = searchPatterns(q);
	const answer =
		answers === 'per row'
			? sql`(select av.answer from "qa_item_version" av where av.id = "qa_item"."current_version_id") ilike ${pattern}`
			: sql`"qa_item"."current_version_id" in (select av.id from "qa_item_version" av where av.answer ilike ${pattern})`;
	const byKey = keyPrefix ? sql` or "qa_item"."item_key" like ${keyPrefix}` : sql``;
	// The question as ILIKE tests it, from its stored lower case (see qaItem.questionLower).
	return sql`("qa_item"."current_version_id" is not null and ("qa_item"."question_lower" like lower(${pattern}) or ${answer}${byKey}))`;
}

/**
 * The planner's estimate of the versions a search matches (its trigram statistics), or with
 * `answers` of those whose answer matches.
 */
async function estimateMatches(db: Db, q: string, answers?: 'answers'): Promise<number> {
	const versions = answers
		? sql`select av.id from "qa_item_version" av where av.answer ilike ${searchPatterns(q).pattern}`
		: searchVersions(q);
	const [row] = rowsOf<Record<string, unknown>>(
		await db.execute(sql`explain (format json) ${versions}`)
	);
	const raw = Object.values(row ?? {})[0];
	const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [
		{ Plan: { 'Plan Rows': number } }
	];
	return plan[0].Plan['Plan Rows'];
}

/** The conditions of the table's filters; `search` in place of the text search's own. */
function itemFilters(
	db: Db,
	query: ItemQuery,
	search: SQL | undefined = query.q ? searchFilter(query.q) : undefined
): SQL | undefined {
	const filters: SQL[] = [];
	if (query.type) filters.push(eq(qaItem.type, query.type));
	if (query.status) filters.push(eq(qaItem.status, query.status));
	if (query.outcome) filters.push(outcomeFilter(query.outcome));
	if (query.verdict)
		filters.push(
			query.verdict === 'none'
				? isNull(qaItem.finalVerdict)
				: eq(qaItem.finalVerdict, query.verdict)
		);
	if (query.provenance)
		filters.push(
			query.provenance === 'none'
				? isNull(qaItem.provenance)
				: eq(qaItem.provenance, query.provenance)
		);
	if (query.held) filters.push(query.held === 'yes' ? held : not(held));
	if (query.passage) filters.push(query.passage === 'present' ? hasPassage : not(hasPassage));
	if (search) filters.push(search);
	if (query.importId) {
		filters.push(
			exists(
				db
					.select({ one: sql`1` })
					.from(qaItemVersion)
					.where(
						and(eq(qaItemVersion.itemId, qaItem.id), eq(qaItemVersion.importId, query.importId))
					)
			)
		);
	}
	return filters.length ? and(...filters) : undefined;
}

// Independent reviews are first revisions (one per round at most); amendments are the later ones.
const reviewCount = (first: boolean) =>
	sql<number>`(select count(*)::int from "review" rv where rv.item_id = "qa_item"."id" and rv.revision ${sql.raw(first ? '= 1' : '> 1')})`;

/**
 * The columns of a row of the item table, from `qa_item` or a subquery of its rows named
 * "qa_item" (the subqueries are plain SQL on "qa_item": see `hasPassage`).
 */
function itemColumns(sort: ItemSort, from: Pick<typeof qaItem, ItemColumn> = qaItem) {
	return {
		id: from.id,
		itemKey: from.itemKey,
		type: from.type,
		status: from.status,
		question: from.question,
		paragraphId: from.paragraphId,
		version: from.currentVersion,
		updatedAt: from.updatedAt,
		finalVerdict: from.finalVerdict,
		finalRelevance: from.finalRelevance,
		provenance: from.provenance,
		held: held.mapWith(Boolean),
		hasPassage: sql<boolean>`${hasPassage}`.mapWith(Boolean),
		reviewedWithoutPassage: reviewedWithoutPassageSql,
		reviews: reviewCount(true).mapWith(Number),
		amendments: reviewCount(false).mapWith(Number),
		sortValue: sortValue(sort)
	};
}
type ItemColumn =
	| 'id'
	| 'itemKey'
	| 'type'
	| 'status'
	| 'question'
	| 'paragraphId'
	| 'currentVersion'
	| 'updatedAt'
	| 'finalVerdict'
	| 'finalRelevance'
	| 'provenance';

/** Up to `limit` rows of the item table where `where`, in `orderBy(sort, dir)`. */
function selectItems(
	db: Db,
	sort: ItemSort,
	dir: Direction,
	where: SQL | undefined,
	limit: number
) {
	return db
		.select(itemColumns(sort))
		.from(qaItem)
		.where(where)
		.orderBy(...orderBy(sort, dir))
		.limit(limit);
}
type SelectedItem = Awaited<ReturnType<typeof selectItems>>[number];

/**
 * How a search chooses its way (see `searchSegment`): the matching versions it reads first per
 * row wanted (`firstRead`), the rows of the sort order it walks per row wanted (`walk`), and up
 * to how many matching versions it finds their items by id (`fewMatches`). Tests narrow them to
 * take every way on a few rows.
 */
export const SEARCH_TUNING = { firstRead: 20, walk: 50, fewMatches: 5_000 };

/**
 * Up to `limit` rows of one segment that a search (with the other filters) selects, in
 * `orderBy(sort, dir)`. A search chooses between walking the sort order, testing each row, which
 * stops after a page when the words are common and spread through the order, and finding all the
 * matches first and sorting them: by id from the trigram indexes when they are few, else in one
 * pass over the segment's items. The planner cannot know where in the order the matches lie: a
 * word at the start of many questions (“What …”) sorted by question from the other end is tested
 * on every row before the first match. So a search reads the matching versions first, up to
 * `limit × firstRead`: when that is all of them, their items are found by id and sorted. Else it
 * walks at most `walk` rows of the order per row wanted (one bounded index range); when that
 * does not fill the page, it finds the matches of the segment (by id up to `fewMatches`
 * versions, else in one pass over the items, testing each on its own row), keeps the first
 * `limit` in order and reads those. Whether the matches are more than
 * `fewMatches` is the planner's estimate (one EXPLAIN, accurate for common words, which its
 * statistics sample): reading them to find out costs as much as the pass itself when they are.
 * Sorted by question, where matches cluster (all the "What dose …" together) and a walk tends to
 * meet a word's matches in a block or none, the estimate comes first: up to `fewMatches` are
 * found by id and sorted, more are walked and, failing that, found in the pass.
 */
async function searchSegment(
	db: Db,
	query: ItemQuery,
	dir: Direction,
	segment: SQL,
	limit: number
): Promise<SelectedItem[]> {
	const q = query.q!;
	const order = orderBy(query.sort, dir);
	const d = sql.raw(dir);
	const versions = (n: number) =>
		db
			.execute(sql`select m.id from (${searchVersions(q)}) m limit ${n + 1}`)
			.then((r) => rowsOf<{ id: number | string }>(r).map((v) => v.id));
	// The first `limit` of the segment's matches, in order: from the items of these versions (a
	// materialized set, so the order is not walked again), or null for the pass over the
	// segment's items, where the planner chooses between walking the order to the last row wanted
	// and sorting every match (each tested on its row, so cheap either way). The columns are read
	// for those rows only.
	const sorted = (ids: (number | string)[] | null) => {
		if (!ids) {
			const pass = sql`"qa_item"."id" in (select "qa_item"."id" from "qa_item"
				where ${and(segment, itemFilters(db, query, rowSearchFilter(q, 'as a set')))}
				order by ${sql.join(order, sql`, `)} limit ${limit})`;
			return selectItems(db, query.sort, dir, pass, limit);
		}
		const matching = itemFilters(
			db,
			query,
			sql`"qa_item"."current_version_id" = any(${`{${ids.join(',')}}`}::int[])`
		);
		const byKey = query.sort === 'id' ? sql`m.id ${d}` : sql`m.k ${d}, m.id ${d}`;
		const matches = sql`"qa_item"."id" in (with m as materialized (
			select "qa_item"."id" as id, ${SORT_KEYS[query.sort].expr} as k from "qa_item" where ${and(segment, matching)})
			select m.id from m order by ${byKey} limit ${limit})`;
		return selectItems(db, query.sort, dir, matches, limit);
	};
	const { firstRead, walk, fewMatches } = SEARCH_TUNING;
	// Whether the matches are few enough to find by id, when a first read has not told.
	let few: boolean | null = null;
	if (query.sort === 'question') {
		few = (await estimateMatches(db, q)) <= fewMatches;
		// Many matches, few of them by their answer: the pass tests each row of the order on its own
		// question, with the matching answers a small hashed set, and stops at the page as a walk
		// would, several times cheaper a row than a walk's lookup of each answer; where the order
		// puts the matches far away (“What …” sorted by question from the other end), it reaches
		// them without walking part of the way twice.
		if (!few && (await estimateMatches(db, q, 'answers')) <= fewMatches) return sorted(null);
	}
	const bound = query.sort !== 'question' ? limit * firstRead : few ? fewMatches : -1;
	if (bound >= 0) {
		const ids = await versions(bound);
		if (ids.length <= bound) return sorted(ids);
		if (bound >= fewMatches) few = false;
	}
	// The walk: a subquery named "qa_item", so the filters and columns read its rows, with its sort
	// key as a column (ordering by that column lets the outer query stop after a page).
	const walked = db
		.select({
			...getTableColumns(qaItem),
			sortKey: sql`${SORT_KEYS[query.sort].expr}`.as('sort_key')
		})
		.from(qaItem)
		.where(segment)
		.orderBy(...order)
		.limit(limit * walk)
		.as('qa_item');
	const first = await db
		.select(itemColumns(query.sort, walked))
		.from(walked)
		.where(itemFilters(db, query, rowSearchFilter(q, 'per row')))
		.orderBy(sql`"qa_item"."sort_key" ${d}`, sql`"qa_item"."id" ${d}`)
		.limit(limit);
	if (first.length >= limit) return first;
	few ??= (await estimateMatches(db, q)) <= fewMatches;
	if (few) {
		const ids = await versions(fewMatches);
		if (ids.length <= fewMatches) return sorted(ids);
	}
	return sorted(null);
}

/**
 * Up to `limit` items of the filtered table after `cursor` (from the start without one), read in
 * `dir`: the table's order for `asc`, its reverse for `desc`. At most one statement per segment
 * (see `segmentsAfter`; a search two, see `searchSegment`); usually one.
 */
async function scanItems(
	db: Db,
	query: ItemQuery,
	dir: Direction,
	cursor: Cursor | null,
	limit: number
) {
	const filters = query.q ? undefined : itemFilters(db, query);
	const rows: SelectedItem[] = [];
	for (const segment of segmentsAfter(query.sort, dir, cursor)) {
		const got = query.q
			? await searchSegment(db, query, dir, segment, limit - rows.length)
			: await selectItems(db, query.sort, dir, and(segment, filters), limit - rows.length);
		rows.push(...got);
		if (rows.length >= limit) break;
	}
	return rows.map(({ sortValue: value, ...r }) => ({
		...r,
		outcome: itemOutcome(r),
		cursor: { id: r.id, value } as Cursor
	}));
}

/** The table's order of a query: `asc` is its sort direction, `desc` the reverse. */
const reading = (query: ItemQuery, forwards: boolean): Direction =>
	(query.dir === 'asc') === forwards ? 'asc' : 'desc';

/**
 * One page of the item table: after `query.after`, before `query.before`, the last page, or the
 * first. Reads one row more than a page to know whether there is a further one.
 */
async function itemPage(db: Db, query: ItemQuery) {
	const size = query.size;
	const after = decodeCursor(query.sort, query.after);
	const before = after ? null : decodeCursor(query.sort, query.before);
	const backwards = Boolean(before) || query.page === 'last';
	if (!backwards) {
		const rows = await scanItems(db, query, reading(query, true), after, size + 1);
		return { rows: rows.slice(0, size), hasPrevious: Boolean(after), hasNext: rows.length > size };
	}
	const rows = await scanItems(db, query, reading(query, false), before, size + 1);
	// Fewer rows than a page before the cursor: the first page, whole.
	if (before && rows.length <= size)
		return itemPage(db, { ...query, before: undefined, page: undefined });
	return {
		rows: rows.slice(0, size).reverse(),
		hasPrevious: rows.length > size,
		hasNext: Boolean(before)
	};
}
export type ItemRow = Awaited<ReturnType<typeof scanItems>>[number];

/** Filtered sets up to this size are counted exactly; above it, see `countItems`. */
export const EXACT_COUNT_LIMIT = 1_000;

/**
 * The number of items the filters select: exact up to `EXACT_COUNT_LIMIT` (counting stops
 * there, so the cost is bounded); above it the planner's estimate for the unfiltered table
 * ("about"), which tracks its size from the table's pages and last statistics, and a lower
 * bound for a filtered set, whose estimate could be far off.
 */
export async function countItems(db: Db, query: ItemQuery): Promise<RowCount> {
	const filters = itemFilters(db, query);
	if (!filters) {
		const estimate = await estimateItemCount(db);
		if (estimate !== null && estimate > 2 * EXACT_COUNT_LIMIT)
			return { kind: 'about', n: roughly(estimate) };
	}
	const capped = db
		.select({ one: sql`1` })
		.from(qaItem)
		.where(filters)
		.limit(EXACT_COUNT_LIMIT + 1)
		.as('capped');
	const [{ n }] = await db.select({ n: count() }).from(capped);
	if (n <= EXACT_COUNT_LIMIT) return { kind: 'exact', n };
	return { kind: 'more-than', n: EXACT_COUNT_LIMIT };
}

/** The planner's row estimate of `qa_item` (statistics scaled to its current size), or null. */
async function estimateItemCount(db: Db): Promise<number | null> {
	const [row] = rowsOf<{ n: number | string | null }>(
		await db.execute(sql`
			select case when c.reltuples < 0 or c.relpages = 0 then null
				else c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::int) end as n
			from pg_class c where c.oid = 'qa_item'::regclass`)
	);
	return row?.n === null || row?.n === undefined ? null : Number(row.n);
}

/** Three significant figures: 48,873 → 48,900. */
function roughly(n: number): number {
	const step = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 2);
	return Math.round(n / step) * step;
}

/**
 * One page of the item table with the links around it (cursors of its first and last rows) and
 * the count of the filtered set.
 */
export async function listItems(db: Db, query: ItemQuery) {
	const [page, total] = await Promise.all([itemPage(db, query), countItems(db, query)]);
	const first = page.rows[0]?.cursor;
	const last = page.rows.at(-1)?.cursor;
	return {
		rows: page.rows.map(({ cursor: _, ...r }) => r),
		total,
		previous: page.hasPrevious && first ? encodeCursor(query.sort, first) : null,
		next: page.hasNext && last ? encodeCursor(query.sort, last) : null,
		isFirst: !page.hasPrevious,
		isLast: !page.hasNext
	};
}

/** The columns of the organiser's item export, in order (CSV header and JSON keys). */
export const ITEM_EXPORT_COLUMNS = [
	'itemId',
	'itemKey',
	'type',
	'paragraphId',
	'state',
	'outcome',
	'finalVerdict',
	'finalRelevance',
	'provenance',
	'held',
	'reviewedWithoutPassage',
	'reviews',
	'amendments',
	'version'
] as const;
export type ItemExportRow = Record<(typeof ITEM_EXPORT_COLUMNS)[number], unknown>;

/** Every item the table's filters select, in its sort order, as export rows (read in batches). */
export async function exportItems(db: Db, query: ItemQuery): Promise<ItemExportRow[]> {
	const out: ItemExportRow[] = [];
	const batch = 5000;
	for (let cursor: Cursor | null = null; ;) {
		const rows = await scanItems(db, query, query.dir, cursor, batch);
		for (const r of rows)
			out.push({
				itemId: r.id,
				itemKey: r.itemKey,
				type: r.type,
				paragraphId: r.paragraphId,
				state: r.status,
				outcome: r.outcome,
				finalVerdict: r.finalVerdict,
				finalRelevance: r.finalRelevance,
				provenance: r.provenance,
				held: r.held,
				reviewedWithoutPassage: r.reviewedWithoutPassage,
				reviews: r.reviews,
				amendments: r.amendments,
				version: r.version
			});
		if (rows.length < batch) return out;
		cursor = rows[rows.length - 1].cursor;
	}
}

/** The item export as CSV (header row first). */
export function itemsCsv(rows: ItemExportRow[]): string {
	return toCsv([...ITEM_EXPORT_COLUMNS], rows);
}

/** Item counts per type (all datasets). */
export async function countItemsByType(db: Db) {
	return db
		.select({ type: qaItem.type, n: count() })
		.from(qaItem)
		.groupBy(qaItem.type)
		.orderBy(qaItem.type);
}

/** Everything the item page shows: current version, history, passage, responses. */
export async function getItem(db: Db, id: number) {
	const [row] = await db
		.select({
			item: qaItem,
			held: held.mapWith(Boolean),
			reviewedWithoutPassage: reviewedWithoutPassageSql
		})
		.from(qaItem)
		.where(eq(qaItem.id, id));
	if (!row) return null;
	const item = {
		...row.item,
		held: row.held,
		reviewedWithoutPassage: row.reviewedWithoutPassage,
		outcome: itemOutcome({ ...row.item, held: row.held })
	};
	const versions = await db
		.select()
		.from(qaItemVersion)
		.where(eq(qaItemVersion.itemId, id))
		.orderBy(desc(qaItemVersion.version));
	const current = versions.find((v) => v.id === item.currentVersionId) ?? versions[0];
	const [source] = item.paragraphId
		? await db.select().from(passage).where(eq(passage.paragraphId, item.paragraphId))
		: [];
	const responses = await db
		.select({
			id: response.id,
			model: model.name,
			text: response.text,
			updatedAt: response.updatedAt
		})
		.from(response)
		.innerJoin(model, eq(model.id, response.modelId))
		.where(eq(response.itemId, id))
		.orderBy(model.name);
	return { item, current, versions, passage: source ?? null, responses };
}

/** The most recent imports, newest first. */
export function listImports(db: Db, limit = 50) {
	return db.select().from(importRecord).orderBy(desc(importRecord.id)).limit(limit);
}
