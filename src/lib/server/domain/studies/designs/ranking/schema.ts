// The ranking design's tables: a submitted ranking and its entries (one per shown answer).
// Re-exported by db/schema (drizzle-kit reads this file without the $lib alias).
import { sql } from 'drizzle-orm';
import {
	check,
	integer,
	jsonb,
	pgTable,
	smallint,
	text,
	timestamp,
	unique
} from 'drizzle-orm/pg-core';
import { errorType, tag } from '../../../../db/schema/enums';
import { assignment, candidate } from '../../../../db/schema/study';
import { user } from '../../../../db/schema/user';

/** A submitted ranking of all candidates of an assignment. */
export const ranking = pgTable('ranking', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	assignmentId: integer()
		.notNull()
		.unique()
		.references(() => assignment.id),
	physicianId: text()
		.notNull()
		.references(() => user.id),
	idempotencyKey: text().notNull().unique(),
	timeOnTaskMs: integer(),
	/** Candidate ids in the order they were displayed. */
	displayedOrder: jsonb().$type<number[]>().notNull(),
	submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Ranking = typeof ranking.$inferSelect;

export const rankingEntry = pgTable(
	'ranking_entry',
	{
		rankingId: integer()
			.notNull()
			.references(() => ranking.id),
		candidateId: integer()
			.notNull()
			.references(() => candidate.id),
		rank: smallint().notNull(),
		tag: tag().notNull(),
		comment: text(),
		/** What is wrong with an answer tagged okay or bad (optional, distinct values). */
		errorTypes: errorType()
			.array()
			.notNull()
			.default(sql`'{}'`),
		displayPosition: smallint().notNull()
	},
	(t) => [
		unique().on(t.rankingId, t.candidateId),
		check('rank_positive', sql`${t.rank} >= 1`),
		// A good answer has no error; the database holds this whoever writes.
		check('error_types_need_fault', sql`${t.tag} <> 'good' or cardinality(${t.errorTypes}) = 0`)
	]
);
