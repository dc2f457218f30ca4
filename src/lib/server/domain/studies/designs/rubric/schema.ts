// The rubric design's tables: rubrics and their versions, the rubric a study uses, and each
// rater's scores. Re-exported by db/schema (drizzle-kit reads this file without the $lib alias).
import { sql } from 'drizzle-orm';
import {
	check,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	smallint,
	text,
	timestamp,
	unique
} from 'drizzle-orm/pg-core';
import { assignment, candidate, study } from '../../../../db/schema/study';
import { user } from '../../../../db/schema/user';
import type { RubricDefinition } from '../../../../../schemas/rubric';

/** A scoring rubric an organiser maintains; its content lives in immutable versions. */
export const rubric = pgTable('rubric', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	name: text().notNull().unique(),
	createdBy: text().references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Rubric = typeof rubric.$inferSelect;

/** One version of a rubric: aspects, sub-aspects, scales and rationale rules, never changed. */
export const rubricVersion = pgTable(
	'rubric_version',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		rubricId: integer()
			.notNull()
			.references(() => rubric.id),
		version: integer().notNull(),
		definition: jsonb().$type<RubricDefinition>().notNull(),
		/** What changed, in the organiser's words. */
		note: text().notNull().default(''),
		createdBy: text().references(() => user.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [unique().on(t.rubricId, t.version), check('version_positive', sql`${t.version} > 0`)]
);
export type RubricVersion = typeof rubricVersion.$inferSelect;

/**
 * The rubric of a rubric study: while a draft, its latest version is used; the first opening
 * freezes `rubricVersionId`, which never changes after.
 */
export const rubricStudy = pgTable('rubric_study', {
	studyId: integer()
		.primaryKey()
		.references(() => study.id),
	rubricId: integer()
		.notNull()
		.references(() => rubric.id),
	rubricVersionId: integer().references(() => rubricVersion.id)
});

/** One rater's submitted score sheet for an assignment (every shown answer × sub-aspect). */
export const rubricJudgement = pgTable('rubric_judgement', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	assignmentId: integer()
		.notNull()
		.unique()
		.references(() => assignment.id),
	raterId: text()
		.notNull()
		.references(() => user.id),
	idempotencyKey: text().notNull().unique(),
	/** How the rater looked at the answers: one at a time, or two side by side. */
	layout: text().$type<'single' | 'side_by_side'>().notNull(),
	timeOnTaskMs: integer(),
	submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type RubricJudgement = typeof rubricJudgement.$inferSelect;

/** One score: an answer on one sub-aspect, with its rationale and the side it was shown on. */
export const rubricScore = pgTable(
	'rubric_score',
	{
		judgementId: integer()
			.notNull()
			.references(() => rubricJudgement.id),
		candidateId: integer()
			.notNull()
			.references(() => candidate.id),
		subAspect: text().notNull(),
		score: smallint().notNull(),
		rationale: text(),
		/** 1-based position the answer was shown at (A = 1). */
		displayPosition: smallint().notNull(),
		/** Side by side: the side the answer was on; null when shown alone. */
		side: text().$type<'left' | 'right'>()
	},
	(t) => [
		primaryKey({ columns: [t.judgementId, t.candidateId, t.subAspect] }),
		index().on(t.candidateId),
		check('side_value', sql`${t.side} is null or ${t.side} in ('left', 'right')`)
	]
);
