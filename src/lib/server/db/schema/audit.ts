import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './user';

/**
 * Append-only record (a trigger refuses UPDATE, DELETE and TRUNCATE) of who did what to which object, with before/after for changes.
 */
export const auditEvent = pgTable(
	'audit_event',
	{
		id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
		actorId: text().references(() => user.id),
		action: text().notNull(),
		objectType: text().notNull(),
		objectId: text().notNull(),
		before: jsonb(),
		after: jsonb(),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		index().on(t.objectType, t.objectId),
		index().on(t.createdAt),
		// The audit page filters by actor and by action, newest first (keyset on id).
		index().on(t.actorId, t.id),
		index().on(t.action, t.id)
	]
);
export type AuditEvent = typeof auditEvent.$inferSelect;
