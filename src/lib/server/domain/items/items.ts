import { and, asc, count, desc, eq, exists, ilike, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { listQuerySchema } from '../../../schemas/list-query';
import type { Db } from '../../db/client';
import { importRecord, model, passage, qaItem, qaItemVersion, response } from '../../db/schema';
import { ITEM_STATUSES, QA_TYPES } from '../../../constants';

export const ITEM_SORTS = ['id', 'type', 'status', 'question', 'updatedAt'] as const;

/** Query of the item table: server-side paging, sorting and filtering. */
export const itemQuerySchema = listQuerySchema(ITEM_SORTS, { sort: 'id' }).extend({
	type: z.enum(QA_TYPES).optional().catch(undefined),
	status: z.enum(ITEM_STATUSES).optional().catch(undefined),
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
	updatedAt: qaItem.updatedAt
};

/** One page of items with the total count of the filtered set. */
export async function listItems(db: Db, query: ItemQuery) {
	const filters: SQL[] = [];
	if (query.type) filters.push(eq(qaItem.type, query.type));
	if (query.status) filters.push(eq(qaItem.status, query.status));
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
	const where = filters.length ? and(...filters) : undefined;
	const order = query.dir === 'desc' ? desc(sortColumns[query.sort]) : asc(sortColumns[query.sort]);
	const [rows, [{ total }]] = await Promise.all([
		db
			.select({
				id: qaItem.id,
				type: qaItem.type,
				status: qaItem.status,
				question: qaItem.question,
				paragraphId: qaItem.paragraphId,
				version: qaItem.currentVersion,
				updatedAt: qaItem.updatedAt
			})
			.from(qaItem)
			.where(where)
			.orderBy(order, asc(qaItem.id))
			.limit(query.size)
			.offset((query.page - 1) * query.size),
		db.select({ total: count() }).from(qaItem).where(where)
	]);
	return { rows, total };
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
	const [item] = await db.select().from(qaItem).where(eq(qaItem.id, id));
	if (!item) return null;
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
