// The evidence design's tables: answers split into sentences with the PMIDs each cites (editable
// per answer until a study opens, then frozen per study), a study's mode, and each assessor's
// work, saved step by step: the answer as a whole, each sentence, its assertions (spans of
// words), each assertion's relation to each cited document with the evidence sentences, and its
// relevance. Re-exported by db/schema (drizzle-kit reads this file without the $lib alias).
import { sql } from 'drizzle-orm';
import {
	boolean,
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
import { setResponse } from '../../../../db/schema/question-set';
import { user } from '../../../../db/schema/user';
import { evidenceMode, evidenceRelation, evidenceRelevance } from '../../../../db/schema/enums';

/**
 * What a model claimed of a sentence's citations (BioGen 2025 task A): the PMIDs it says support
 * and contradict the sentence. Shown to nobody; exported beside the assessors' relations.
 */
export interface ClaimedRelations {
	supported: string[];
	contradicted: string[];
}

/**
 * One sentence of an imported answer (a run's answer to a question of a set), numbered from 1,
 * with the PMIDs it cites in order. Written by the run import (split on the server, or as the
 * file gave them), merged or split by an organiser before a study opens; a study copies them into
 * `evidence_sentence` when it opens, so later edits never reach it.
 */
export const evidenceAnswerSentence = pgTable(
	'evidence_answer_sentence',
	{
		setResponseId: integer()
			.notNull()
			.references(() => setResponse.id),
		position: integer().notNull(),
		text: text().notNull(),
		citations: text()
			.array()
			.notNull()
			.default(sql`'{}'::text[]`),
		claimed: jsonb().$type<ClaimedRelations>()
	},
	(t) => [
		primaryKey({ columns: [t.setResponseId, t.position] }),
		check('position_positive', sql`${t.position} >= 1`)
	]
);
export type EvidenceAnswerSentence = typeof evidenceAnswerSentence.$inferSelect;

/** An evidence study's settings: whether relations and relevance are asked per assertion or per sentence. */
export const evidenceStudy = pgTable('evidence_study', {
	studyId: integer()
		.primaryKey()
		.references(() => study.id),
	mode: evidenceMode().notNull().default('assertion')
});
export type EvidenceStudy = typeof evidenceStudy.$inferSelect;

/**
 * The sentences of one answer of an opened evidence study (a candidate of its unit), frozen at the
 * opening: `position` is the sentence's id in every export (`answer_sentence_id`).
 */
export const evidenceSentence = pgTable(
	'evidence_sentence',
	{
		candidateId: integer()
			.notNull()
			.references(() => candidate.id),
		position: integer().notNull(),
		text: text().notNull(),
		/** The words assertions are marked on: `text` split on whitespace, frozen with it. */
		words: text().array().notNull(),
		citations: text()
			.array()
			.notNull()
			.default(sql`'{}'::text[]`),
		claimed: jsonb().$type<ClaimedRelations>()
	},
	(t) => [primaryKey({ columns: [t.candidateId, t.position] })]
);
export type EvidenceSentence = typeof evidenceSentence.$inferSelect;

/**
 * An assessor's work on one answer (an assignment of an evidence study), saved as it goes:
 * whether the answer as a whole answers the question (null: not said yet), and when it was
 * finished (null: still in progress).
 */
export const evidenceAssessment = pgTable('evidence_assessment', {
	assignmentId: integer()
		.primaryKey()
		.references(() => assignment.id),
	raterId: text()
		.notNull()
		.references(() => user.id),
	answersQuestion: boolean(),
	/** Time on task in milliseconds, summed over the saves. */
	timeOnTaskMs: integer().notNull().default(0),
	updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	submittedAt: timestamp({ withTimezone: true })
});
export type EvidenceAssessment = typeof evidenceAssessment.$inferSelect;

/** Whether the assessor can interpret one sentence of the answer (null: not said yet). */
export const evidenceSentenceLabel = pgTable(
	'evidence_sentence_label',
	{
		assignmentId: integer()
			.notNull()
			.references(() => evidenceAssessment.assignmentId),
		position: integer().notNull(),
		interpretable: boolean()
	},
	(t) => [primaryKey({ columns: [t.assignmentId, t.position] })]
);

/**
 * One assertion of a sentence: words `startWord` (from 0) to `endWord` (exclusive) of the frozen
 * sentence. In a per-sentence study each interpretable sentence has one, the whole sentence.
 * `relevance`: required / unnecessary / borderline / inappropriate (null: not said yet).
 */
export const evidenceAssertion = pgTable(
	'evidence_assertion',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		assignmentId: integer()
			.notNull()
			.references(() => evidenceAssessment.assignmentId),
		position: integer().notNull(),
		startWord: smallint().notNull(),
		endWord: smallint().notNull(),
		relevance: evidenceRelevance()
	},
	(t) => [
		unique().on(t.assignmentId, t.position, t.startWord),
		check('span_order', sql`${t.startWord} >= 0 and ${t.endWord} > ${t.startWord}`)
	]
);
export type EvidenceAssertion = typeof evidenceAssertion.$inferSelect;

/**
 * What one cited document says of one assertion, and the document's sentences (numbered from 1)
 * that are the evidence — several, not necessarily adjacent.
 */
export const evidenceRelationJudgement = pgTable(
	'evidence_relation',
	{
		assertionId: integer()
			.notNull()
			.references(() => evidenceAssertion.id, { onDelete: 'cascade' }),
		pmid: text().notNull(),
		relation: evidenceRelation().notNull(),
		evidence: integer()
			.array()
			.notNull()
			.default(sql`'{}'::integer[]`)
	},
	(t) => [primaryKey({ columns: [t.assertionId, t.pmid] }), index().on(t.pmid)]
);
export type EvidenceRelationJudgement = typeof evidenceRelationJudgement.$inferSelect;
