import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { model, passage, qaItem, response } from '../../db/schema';
import { countItemsByType } from './items';

/** Counts for the organiser's overview page. */
export async function adminOverview(db: Db) {
	const [byType, byStatus, byModel, [p], [r]] = await Promise.all([
		countItemsByType(db),
		db
			.select({ status: qaItem.status, n: count() })
			.from(qaItem)
			.groupBy(qaItem.status)
			.orderBy(qaItem.status),
		db
			.select({ name: model.name, n: count(response.id) })
			.from(model)
			.leftJoin(response, eq(response.modelId, model.id))
			.groupBy(model.name)
			.orderBy(desc(count(response.id)), model.name),
		db.select({ n: count() }).from(passage),
		db.select({ n: count() }).from(response)
	]);
	return {
		byType,
		byStatus,
		byModel,
		totals: {
			items: byType.reduce((s, t) => s + t.n, 0),
			passages: p.n,
			models: byModel.length,
			responses: r.n
		}
	};
}
