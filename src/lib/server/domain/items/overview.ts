import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { model, passage, qaItem, response } from '../../db/schema';
import {
	ITEM_OUTCOMES,
	ITEM_STATUSES,
	QA_TYPES,
	itemOutcome,
	type ItemOutcome,
	type ItemStatus,
	type QaType
} from '../../../constants';
import { heldSql } from './held';

/** Item counts per type, workflow state and outcome: the one source of every state count. */
export async function countItemsByStateAndOutcome(db: Db) {
	const held = heldSql();
	const rows = await db
		.select({
			type: qaItem.type,
			status: qaItem.status,
			finalVerdict: qaItem.finalVerdict,
			held: held.mapWith(Boolean),
			n: count()
		})
		.from(qaItem)
		.groupBy(qaItem.type, qaItem.status, qaItem.finalVerdict, held);
	return rows.map((r) => ({
		type: r.type as QaType,
		status: r.status as ItemStatus,
		outcome: itemOutcome(r),
		n: r.n
	}));
}

type Counted = Awaited<ReturnType<typeof countItemsByStateAndOutcome>>;

/** Totals per workflow state and per outcome (each list covers every item once). */
export function stateAndOutcomeTotals(rows: Counted) {
	const sum = (keep: (r: Counted[number]) => boolean) =>
		rows.filter(keep).reduce((n, r) => n + r.n, 0);
	return {
		byState: ITEM_STATUSES.map((status) => ({ status, n: sum((r) => r.status === status) })),
		byOutcome: ITEM_OUTCOMES.map((outcome: ItemOutcome) => ({
			outcome,
			n: sum((r) => r.outcome === outcome)
		}))
	};
}

/**
 * Counts for the organiser's overview page: one pass over the items (types, states and outcomes
 * from the same grouped rows), one over the responses (per model, summing to the total) and the
 * passages' count.
 */
export async function adminOverview(db: Db) {
	const [counted, byModel, [p]] = await Promise.all([
		countItemsByStateAndOutcome(db),
		db
			.select({ name: model.name, n: count(response.id) })
			.from(model)
			.leftJoin(response, eq(response.modelId, model.id))
			.groupBy(model.name)
			.orderBy(desc(count(response.id)), model.name),
		db.select({ n: count() }).from(passage)
	]);
	const byType = countsByType(counted);
	return {
		byType,
		...stateAndOutcomeTotals(counted),
		byModel,
		totals: {
			items: byType.reduce((s, t) => s + t.n, 0),
			passages: p.n,
			models: byModel.length,
			responses: byModel.reduce((s, m) => s + m.n, 0)
		}
	};
}

/** Item counts per type that has items, in the types' order. */
export function countsByType(rows: Counted): { type: QaType; n: number }[] {
	return QA_TYPES.map((type) => ({
		type,
		n: rows.filter((r) => r.type === type).reduce((n, r) => n + r.n, 0)
	})).filter((t) => t.n > 0);
}
