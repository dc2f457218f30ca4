import {
	and,
	asc,
	count,
	desc,
	eq,
	exists,
	ilike,
	isNull,
	not,
	or,
	sql,
	type SQL
} from 'drizzle-orm';
import { z } from 'zod';
import { listQuerySchema } from '../../../schemas/list-query';
import type { Db } from '../../db/client';
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
import { heldSql } from '../verification/held';

export const ITEM_SORTS = [
	'id',
	'type',
	'status',
	'question',
	'updatedAt',
	'finalVerdict',
	'finalRelevance',
	'provenance'
] as const;

// `none` selects items without a value (no final verdict yet, no provenance yet).
const orNone = <T extends readonly [string, ...string[]]>(values: T) =>
	z
		.enum([...values, 'none'] as [T[number] | 'none', ...(T[number] | 'none')[]])
		.optional()
		.catch(undefined);
const yesNo = z.enum(['yes', 'no']).optional().catch(undefined);

/** Query of the item table: server-side paging, sorting and filtering. */
export const itemQuerySchema = listQuerySchema(ITEM_SORTS, { sort: 'id' }).extend({
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

const sortColumns = {
	id: qaItem.id,
	type: qaItem.type,
	status: qaItem.status,
	question: qaItem.question,
	updatedAt: qaItem.updatedAt,
	finalVerdict: qaItem.finalVerdict,
	finalRelevance: qaItem.finalRelevance,
	provenance: qaItem.provenance
};

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

function itemFilters(db: Db, query: ItemQuery): SQL | undefined {
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
	if (query.q) filters.push(ilike(qaItem.question, `%${query.q.replace(/[\\%_]/g, '\\$&')}%`));
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

/** Selects one page (or, for the export, one batch) of the filtered, sorted items. */
async function selectItems(db: Db, query: ItemQuery, limit: number, offset: number) {
	const order = query.dir === 'desc' ? desc(sortColumns[query.sort]) : asc(sortColumns[query.sort]);
	const rows = await db
		.select({
			id: qaItem.id,
			itemKey: qaItem.itemKey,
			type: qaItem.type,
			status: qaItem.status,
			question: qaItem.question,
			paragraphId: qaItem.paragraphId,
			version: qaItem.currentVersion,
			updatedAt: qaItem.updatedAt,
			finalVerdict: qaItem.finalVerdict,
			finalRelevance: qaItem.finalRelevance,
			provenance: qaItem.provenance,
			held: held.mapWith(Boolean),
			hasPassage: sql<boolean>`${hasPassage}`.mapWith(Boolean),
			reviews: reviewCount(true).mapWith(Number),
			amendments: reviewCount(false).mapWith(Number)
		})
		.from(qaItem)
		.where(itemFilters(db, query))
		.orderBy(order, asc(qaItem.id))
		.limit(limit)
		.offset(offset);
	return rows.map((r) => ({ ...r, outcome: itemOutcome(r) }));
}
export type ItemRow = Awaited<ReturnType<typeof selectItems>>[number];

/** One page of items with the total count of the filtered set. */
export async function listItems(db: Db, query: ItemQuery) {
	const [rows, [{ total }]] = await Promise.all([
		selectItems(db, query, query.size, (query.page - 1) * query.size),
		db.select({ total: count() }).from(qaItem).where(itemFilters(db, query))
	]);
	return { rows, total };
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
	'reviews',
	'amendments',
	'version'
] as const;
export type ItemExportRow = Record<(typeof ITEM_EXPORT_COLUMNS)[number], unknown>;

/** Every item the table's filters select, in its sort order, as export rows (read in batches). */
export async function exportItems(db: Db, query: ItemQuery): Promise<ItemExportRow[]> {
	const out: ItemExportRow[] = [];
	const batch = 5000;
	for (let offset = 0; ; offset += batch) {
		const rows = await selectItems(db, query, batch, offset);
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
				reviews: r.reviews,
				amendments: r.amendments,
				version: r.version
			});
		if (rows.length < batch) return out;
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
		.select({ item: qaItem, held: held.mapWith(Boolean) })
		.from(qaItem)
		.where(eq(qaItem.id, id));
	if (!row) return null;
	const item = {
		...row.item,
		held: row.held,
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
