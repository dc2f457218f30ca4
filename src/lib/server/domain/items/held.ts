import { sql, type SQL } from 'drizzle-orm';

/** The item id of the `qa_item` table of the enclosing query, fully qualified. */
export const QA_ITEM_ID = sql.raw('"qa_item"."id"');

/**
 * Whether the item `itemId` is held: a dispute open or under review, or a feedback note not yet
 * resolved. Computed from those rows (never stored), so it is exact the moment a dispute or note
 * changes. The subquery is uncorrelated, so PostgreSQL reads the few held ids once (from the
 * partial indexes `dispute_open`, `feedback_note_unresolved`) and probes a hash per item. Plain
 * SQL: drizzle leaves columns unqualified in single-table selects, which inside a subquery would
 * name the subquery's own columns. Both item_id columns are not null, so `not` of it is exact.
 */
export function heldSql(itemId: SQL = QA_ITEM_ID): SQL<boolean> {
	return sql<boolean>`(${itemId} in (select held_d.item_id from "dispute" held_d where held_d.status in ('open', 'under_review')
		union all select held_f.item_id from "feedback_note" held_f where held_f.resolved_at is null))`;
}
