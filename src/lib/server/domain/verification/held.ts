import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { dispute, feedbackNote } from '../../db/schema';

/**
 * Whether the item `itemId` is held: a dispute open or under review, or a feedback note not yet
 * resolved. Computed from those rows (never stored), so it is exact the moment a dispute or note
 * changes; both lookups use partial indexes (`dispute_open`, `feedback_note_unresolved`).
 */
export function heldSql(itemId: AnyPgColumn | SQL): SQL<boolean> {
	return sql<boolean>`(exists (select 1 from ${dispute} where ${dispute.itemId} = ${itemId} and ${dispute.status} in ('open', 'under_review'))
		or exists (select 1 from ${feedbackNote} where ${feedbackNote.itemId} = ${itemId} and ${feedbackNote.resolvedAt} is null))`;
}
