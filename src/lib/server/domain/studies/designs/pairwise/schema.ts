// The pairwise design's tables: how a study pairs its answers (and the rubric whose aspects it
// may ask about), and each rater's preference with the sides the two answers were shown on.
// Re-exported by db/schema (drizzle-kit reads this file without the $lib alias).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { assignment, candidate, study } from '../../../../db/schema/study';
import { user } from '../../../../db/schema/user';
import { rubric, rubricVersion } from '../rubric/schema';
import { pairing, preferenceOutcome, preferenceStrength } from '../../../../db/schema/enums';

/**
 * A pairwise study's pairing: every pair of answers per question, or `pairsPerQuestion` pairs per
 * question drawn so that every pair of models appears about equally often (seeded by `seed`).
 * With a rubric, raters may also give a preference per aspect of the version frozen at opening.
 */
export const pairwiseStudy = pgTable(
	'pairwise_study',
	{
		studyId: integer()
			.primaryKey()
			.references(() => study.id),
		pairing: pairing().notNull().default('all'),
		pairsPerQuestion: integer(),
		seed: text().notNull(),
		rubricId: integer().references(() => rubric.id),
		rubricVersionId: integer().references(() => rubricVersion.id)
	},
	(t) => [
		check(
			'pairs_given',
			sql`(${t.pairing} = 'all') = (${t.pairsPerQuestion} is null) and coalesce(${t.pairsPerQuestion}, 1) > 0`
		)
	]
);
export type PairwiseStudy = typeof pairwiseStudy.$inferSelect;

/**
 * One rater's preference between the two answers of an assignment, with the answer shown on each
 * side (stored when the pair was handed out, copied here with the judgement).
 */
export const pairwiseJudgement = pgTable(
	'pairwise_judgement',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		assignmentId: integer()
			.notNull()
			.unique()
			.references(() => assignment.id),
		raterId: text()
			.notNull()
			.references(() => user.id),
		idempotencyKey: text().notNull().unique(),
		leftCandidateId: integer()
			.notNull()
			.references(() => candidate.id),
		rightCandidateId: integer()
			.notNull()
			.references(() => candidate.id),
		outcome: preferenceOutcome().notNull(),
		/** How much better the preferred answer is; null for a tie or when not given. */
		strength: preferenceStrength(),
		reason: text(),
		timeOnTaskMs: integer(),
		submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		index().on(t.leftCandidateId),
		index().on(t.rightCandidateId),
		// A strength only with a preferred side, never with a tie.
		check('strength_side', sql`${t.strength} is null or ${t.outcome} in ('left', 'right')`),
		check('two_sides', sql`${t.leftCandidateId} <> ${t.rightCandidateId}`)
	]
);
export type PairwiseJudgement = typeof pairwiseJudgement.$inferSelect;

/** A preference on one aspect of the study's rubric (optional, per judgement). */
export const pairwiseAspectPreference = pgTable(
	'pairwise_aspect_preference',
	{
		judgementId: integer()
			.notNull()
			.references(() => pairwiseJudgement.id),
		/** The aspect's code in the frozen rubric version. */
		aspect: text().notNull(),
		outcome: text().$type<'left' | 'right' | 'tie'>().notNull()
	},
	(t) => [
		primaryKey({ columns: [t.judgementId, t.aspect] }),
		check('aspect_outcome_value', sql`${t.outcome} in ('left', 'right', 'tie')`)
	]
);
