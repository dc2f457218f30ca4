import { sql } from 'drizzle-orm';
import {
	type AnyPgColumn,
	boolean,
	check,
	doublePrecision,
	foreignKey,
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
import { importRecord, model, qaItem, qaItemVersion, response } from './content';
import { assignmentState, studyDesign, studyPurpose, studyState } from './enums';
import { questionSet, setQuestion, setResponse } from './question-set';
import { user } from './user';

/**
 * A study of any design: its questions and candidate models, raters per question (k), leases,
 * the blinded presentation and the lifecycle — everything the designs share. What a design adds
 * lives in its own tables (`domain/studies/designs/<design>/schema.ts`).
 */
export const study = pgTable(
	'study',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		name: text().notNull().unique(),
		/** What raters do (`domain/studies/designs/<design>/`); fixed at creation. */
		design: studyDesign().notNull().default('ranking'),
		/** Where the questions come from: a question set, or (null) the verified QA bank. */
		questionSetId: integer().references(() => questionSet.id),
		/** Markdown shown to physicians. */
		instructions: text().notNull().default(''),
		state: studyState().notNull().default('draft'),
		includeReference: boolean().notNull().default(true),
		/** Physicians who rank each question (k). */
		ratersPerQuestion: smallint().notNull().default(3),
		allowTies: boolean().notNull().default(false),
		leaseMinutes: integer().notNull().default(30),
		/** How the question set was chosen (filters or explicit list), for the record. */
		selection: jsonb().notNull().default({}),
		/**
		 * What each question type shows of every candidate (`{ multi_hop: 'answer_only', … }`);
		 * types left out take the default. Read when the study first opens, frozen in `shown_text`.
		 */
		presentation: jsonb().notNull().default({}),
		/**
		 * `benchmark` (its judgements give the published figures) or `qualification` (a round of gold
		 * questions a rater works, with feedback, before the live studies that require it).
		 */
		purpose: studyPurpose().notNull().default('benchmark'),
		/** Benchmark studies: the qualification round a rater must pass first (null: none). */
		qualificationStudyId: integer().references((): AnyPgColumn => study.id),
		/** Benchmark studies: one hidden gold check in every `goldEvery` claims (null: none). */
		goldEvery: integer(),
		/**
		 * The gold accuracy a rater must reach: the pass mark of a qualification round, the mark
		 * below which a live study flags a rater to the organiser.
		 */
		passMark: doublePrecision().notNull().default(0.8),
		/** Qualification rounds: gold questions per attempt, and attempts allowed. */
		questionsPerAttempt: integer().notNull().default(5),
		maxAttempts: integer().notNull().default(2),
		createdBy: text()
			.notNull()
			.references(() => user.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		openedAt: timestamp({ withTimezone: true }),
		closedAt: timestamp({ withTimezone: true })
	},
	(t) => [
		check('raters_positive', sql`${t.ratersPerQuestion} >= 1`),
		check('gold_every_range', sql`${t.goldEvery} is null or ${t.goldEvery} >= 2`),
		check('pass_mark_range', sql`${t.passMark} >= 0 and ${t.passMark} <= 1`),
		check('attempts_positive', sql`${t.questionsPerAttempt} >= 1 and ${t.maxAttempts} >= 1`)
	]
);
export type Study = typeof study.$inferSelect;

export const studyModel = pgTable(
	'study_model',
	{
		studyId: integer()
			.notNull()
			.references(() => study.id),
		modelId: integer()
			.notNull()
			.references(() => model.id)
	},
	(t) => [unique().on(t.studyId, t.modelId)]
);

/**
 * One unit of judgement of a study: a QA item version of the bank or a question of a set (exactly
 * one), with the answers shown together (its candidates). Most designs show every answer of a
 * question at once (one unit per question, `unit` 0); a pairwise study judges each question in
 * several units of two answers (`unit` 1, 2, …). `openSlots` counts the raters still wanted (k
 * minus claims).
 */
export const studyQuestion = pgTable(
	'study_question',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		studyId: integer()
			.notNull()
			.references(() => study.id),
		itemId: integer().references(() => qaItem.id),
		itemVersionId: integer().references(() => qaItemVersion.id),
		setQuestionId: integer().references(() => setQuestion.id),
		/** Which unit of its question this is: 0 when a question is one unit, else 1, 2, … */
		unit: integer().notNull().default(0),
		openSlots: smallint().notNull(),
		completed: smallint().notNull().default(0),
		/**
		 * A gold question (its answer in `gold_label`): served as a hidden check at the study's gold
		 * rate (or as a qualification round's question), never through the k slots, never counted in
		 * any figure.
		 */
		gold: boolean().notNull().default(false)
	},
	(t) => [
		check(
			'one_source',
			sql`(${t.itemVersionId} is not null and ${t.itemId} is not null and ${t.setQuestionId} is null) or (${t.itemVersionId} is null and ${t.itemId} is null and ${t.setQuestionId} is not null)`
		),
		unique().on(t.studyId, t.itemId, t.unit),
		unique().on(t.studyId, t.setQuestionId, t.unit),
		index('study_question_claimable')
			.on(t.studyId, t.id)
			.where(sql`${t.openSlots} > 0`)
	]
);
export type StudyQuestion = typeof studyQuestion.$inferSelect;

/** One answer shown in a study question: a model response or the reference answer. */
export const candidate = pgTable(
	'candidate',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		studyQuestionId: integer()
			.notNull()
			.references(() => studyQuestion.id),
		responseId: integer().references(() => response.id),
		/** The answer when the question comes from a question set. */
		setResponseId: integer().references(() => setResponse.id),
		modelId: integer().references(() => model.id),
		isReference: boolean().notNull().default(false),
		/** The raw text (model response or reference answer), frozen when the study opens. */
		text: text().notNull(),
		/**
		 * What physicians see: `text` in the canonical presentation of its question type
		 * (`domain/studies/presentation.ts`), frozen with it. Null for candidates frozen before
		 * presentation existed; they show `text`, so an open study does not change under its raters.
		 */
		shownText: text()
	},
	(t) => [index().on(t.studyQuestionId)]
);
export type Candidate = typeof candidate.$inferSelect;

/**
 * A physician's own question order in a study: questions are presented by ascending
 * md5(orderSeed || ':' || study question id), stored per physician in `study_physician_question`,
 * so fatigue does not fall on the same questions for everyone. Created at the physician's first
 * claim.
 */
export const studyPhysician = pgTable(
	'study_physician',
	{
		studyId: integer()
			.notNull()
			.references(() => study.id),
		physicianId: text()
			.notNull()
			.references(() => user.id),
		orderSeed: text().notNull(),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		/** When `study_physician_question` was filled from the seed (null: not yet). */
		queuedAt: timestamp({ withTimezone: true }),
		/** Questions presented so far (expired leases count): the last `presentationPosition`. */
		presented: integer().notNull().default(0)
	},
	(t) => [primaryKey({ columns: [t.studyId, t.physicianId] })]
);

/**
 * The questions of a study a physician has not been given yet, in their seeded order:
 * `position` ranks md5(orderSeed || ':' || study question id) ascending (bytewise, ties by id),
 * as `questionOrder` in domain/studies/shuffle.ts does. Filled once from the seed at the physician's first
 * claim and emptied as they claim, so a claim reads the head of this key instead of hashing and
 * sorting every question of the study.
 */
export const studyPhysicianQuestion = pgTable(
	'study_physician_question',
	{
		studyId: integer().notNull(),
		physicianId: text().notNull(),
		position: integer().notNull(),
		studyQuestionId: integer()
			.notNull()
			.references(() => studyQuestion.id)
	},
	(t) => [
		primaryKey({ columns: [t.studyId, t.physicianId, t.position] }),
		// The foreign key's own side: removing a study question (a pairwise study's opening replaces
		// each question by its pairs) checks this table by it, not every physician's order.
		index('study_physician_question_question_idx').on(t.studyQuestionId),
		foreignKey({
			name: 'study_physician_question_physician_fk',
			columns: [t.studyId, t.physicianId],
			foreignColumns: [studyPhysician.studyId, studyPhysician.physicianId]
		})
	]
);

/**
 * Rows of `study_physician_question` whose question had no free slot when the physician's claim
 * walked past it, kept with their position: a claim moves them here so the next one does not walk
 * past them again, and the sweep that returns an expired lease of the question moves them back.
 * Copies of queue rows, keyed for that move (by question).
 */
export const studyPhysicianQuestionParked = pgTable(
	'study_physician_question_parked',
	{
		studyQuestionId: integer().notNull(),
		physicianId: text().notNull(),
		studyId: integer().notNull(),
		position: integer().notNull()
	},
	(t) => [primaryKey({ columns: [t.studyQuestionId, t.physicianId] })]
);

/**
 * How often each model's answer was shown on the left minus on the right to a physician in a
 * study, over the units of two answers they were given (the reference is `reference`): the claim
 * of such a unit puts on the left the answer that evens these counts (study_claim, study.sql), so
 * every model sits left about half the time in each physician's own work.
 */
export const studyPhysicianSide = pgTable(
	'study_physician_side',
	{
		studyId: integer().notNull(),
		physicianId: text().notNull(),
		/** The model's id, or `reference`. */
		source: text().notNull(),
		/** Times shown left minus times shown right. */
		lead: integer().notNull().default(0)
	},
	(t) => [
		primaryKey({ columns: [t.studyId, t.physicianId, t.source] }),
		foreignKey({
			name: 'study_physician_side_physician_fk',
			columns: [t.studyId, t.physicianId],
			foreignColumns: [studyPhysician.studyId, studyPhysician.physicianId]
		})
	]
);

/** One physician × one study question, with the shuffle seed and the displayed order. */
export const assignment = pgTable(
	'assignment',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		studyQuestionId: integer()
			.notNull()
			.references(() => studyQuestion.id),
		physicianId: text()
			.notNull()
			.references(() => user.id),
		/** Opaque id used in physician-facing URLs. */
		publicId: text().notNull().unique(),
		seed: text().notNull(),
		/**
		 * 1 for the first question presented to this physician in this study, 2 for the next, …
		 * (expired leases count: the question was shown). Null for assignments made before
		 * presentation positions were recorded.
		 */
		presentationPosition: integer(),
		state: assignmentState().notNull().default('leased'),
		leaseExpiresAt: timestamp({ withTimezone: true }),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		submittedAt: timestamp({ withTimezone: true })
	},
	(t) => [
		unique().on(t.studyQuestionId, t.physicianId),
		index().on(t.physicianId, t.state),
		// Expiry sweeps look only at live leases; a partial index keeps that set small.
		index('assignment_leased')
			.on(t.leaseExpiresAt)
			.where(sql`${t.state} = 'leased'`)
	]
);
export type Assignment = typeof assignment.$inferSelect;

/** The displayed order of an assignment; `publicId` is the only candidate id a physician sees. */
export const assignmentCandidate = pgTable(
	'assignment_candidate',
	{
		assignmentId: integer()
			.notNull()
			.references(() => assignment.id),
		candidateId: integer()
			.notNull()
			.references(() => candidate.id),
		publicId: text().notNull(),
		position: smallint().notNull()
	},
	(t) => [
		unique().on(t.assignmentId, t.candidateId),
		unique().on(t.assignmentId, t.publicId),
		unique().on(t.assignmentId, t.position)
	]
);

/**
 * An automatic evaluator (an LLM judge, a metric) whose output for a study's answers was
 * imported under a name; compared with the physicians, never shown to them.
 */
export const judge = pgTable(
	'judge',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		studyId: integer()
			.notNull()
			.references(() => study.id),
		name: text().notNull(),
		importId: integer().references(() => importRecord.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [unique().on(t.studyId, t.name)]
);
export type Judge = typeof judge.$inferSelect;

/** A judge's score of one answer on one criterion (a rubric's sub-aspect code, or `overall`). */
export const judgeScore = pgTable(
	'judge_score',
	{
		judgeId: integer()
			.notNull()
			.references(() => judge.id),
		candidateId: integer()
			.notNull()
			.references(() => candidate.id),
		criterion: text().notNull(),
		score: doublePrecision().notNull(),
		rationale: text()
	},
	(t) => [primaryKey({ columns: [t.judgeId, t.candidateId, t.criterion] })]
);

/** A judge's preference between two answers of one question, on one criterion or `overall`. */
export const judgePreference = pgTable(
	'judge_preference',
	{
		judgeId: integer()
			.notNull()
			.references(() => judge.id),
		candidateAId: integer()
			.notNull()
			.references(() => candidate.id),
		candidateBId: integer()
			.notNull()
			.references(() => candidate.id),
		criterion: text().notNull(),
		preferred: text().$type<'A' | 'B' | 'tie'>().notNull(),
		rationale: text()
	},
	(t) => [
		primaryKey({ columns: [t.judgeId, t.candidateAId, t.candidateBId, t.criterion] }),
		check('preferred_value', sql`${t.preferred} in ('A', 'B', 'tie')`),
		check('two_answers', sql`${t.candidateAId} <> ${t.candidateBId}`)
	]
);
