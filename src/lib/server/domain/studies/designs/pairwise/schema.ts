// The pairwise design's tables: how a study pairs its answers (and the rubric whose aspects it
// may ask about), and each rater's preference with the sides the two answers were shown on.
// Re-exported by db/schema (drizzle-kit reads this file without the $lib alias).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { assignment, candidate, study } from '../../../../db/schema/study';
import { user } from '../../../../db/schema/user';
import { rubric, rubricVersion } from '../rubric/schema';
import type { Pairing, PreferenceOutcome, PreferenceStrength } from '../../../../../constants';

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
		pairing: text().$type<Pairing>().notNull().default('all'),
		pairsPerQuestion: integer(),
		seed: text().notNull(),
		rubricId: integer().references(() => rubric.id),
		rubricVersionId: integer().references(() => rubricVersion.id)
	},
	(t) => [
		check('pairing_value', sql`${t.pairing} in ('all', 'balanced')`),
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
		outcome: text().$type<PreferenceOutcome>().notNull(),
		/** How much better the preferred answer is; null for a tie or when not given. */
		strength: text().$type<PreferenceStrength>(),
		reason: text(),
		timeOnTaskMs: integer(),
		submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		index().on(t.leftCandidateId),
		index().on(t.rightCandidateId),
		check('outcome_value', sql`${t.outcome} in ('left', 'right', 'tie_good', 'tie_bad')`),
		check(
			'strength_value',
			sql`${t.strength} is null or (${t.strength} in ('slightly', 'clearly') and ${t.outcome} in ('left', 'right'))`
		),
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
