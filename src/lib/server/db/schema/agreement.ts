import { integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * A computed agreement report (verification of a dataset, or a ranking study) for one set of
 * options. `fingerprint` describes the judgements it was computed from (counts and largest ids);
 * a report whose fingerprint no longer matches the database is recomputed, never shown as current.
 */
export const statsCache = pgTable(
	'stats_cache',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		/** `verification` (subject: a dataset id) or `study` (subject: a ranking study id). */
		kind: text().notNull(),
		subjectId: integer().notNull(),
		/** The options as a canonical string (resamples, seed, scoring run). */
		options: text().notNull(),
		fingerprint: text().notNull(),
		result: jsonb().notNull(),
		computedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [unique().on(t.kind, t.subjectId, t.options)]
);
export type StatsCache = typeof statsCache.$inferSelect;
