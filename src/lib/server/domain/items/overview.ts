import { count, desc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { model, passage, response } from '../../db/schema';
import {
	ITEM_OUTCOMES,
	ITEM_STATUSES,
	QA_TYPES,
	itemOutcome,
	type ItemOutcome,
	type ItemStatus,
	type QaType,
	type Verdict
} from '../../../constants';
import { heldSql } from './held';

/**
 * Item counts per type, workflow state and outcome: the one source of every state count. Exact,
 * in one statement (one snapshot): every item counted per type, state and final verdict from the
 * index `qa_item_status_sort` alone, and the few held items (open disputes, unresolved notes)
 * counted apart and taken off, where testing each item for being held cost as much again.
 */
export async function countItemsByStateAndOutcome(db: Db) {
	const rows = rowsOf<{
		type: QaType;
		status: ItemStatus;
		final_verdict: Verdict | null;
		held: boolean;
		n: number | string;
	}>(
		await db.execute(sql`
			with held as (
				select "qa_item"."type", "qa_item"."status", "qa_item"."final_verdict", count(*)::int as n
				from "qa_item" where ${heldSql()} group by 1, 2, 3),
			every_item as (
				select "type", "status", "final_verdict", count(*)::int as n from "qa_item" group by 1, 2, 3)
			select e.type, e.status, e.final_verdict, false as held, e.n - coalesce(h.n, 0) as n
			from every_item e left join held h on h.type = e.type and h.status = e.status
				and h.final_verdict is not distinct from e.final_verdict
			where e.n > coalesce(h.n, 0)
			union all
			select type, status, final_verdict, true as held, n from held`)
	);
	return rows.map((r) => ({
		type: r.type,
		status: r.status,
		outcome: itemOutcome({
			status: r.status,
			finalVerdict: r.final_verdict,
			held: Boolean(r.held)
		}),
		n: Number(r.n)
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
