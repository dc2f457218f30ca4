import { index, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { importRecord, model } from './content';
import { user } from './user';

/** An imported set of free-text questions (patient or clinician questions) a study can ask. */
export const questionSet = pgTable('question_set', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	name: text().notNull().unique(),
	description: text().notNull().default(''),
	createdBy: text().references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type QuestionSet = typeof questionSet.$inferSelect;

/** A document a question comes with (a case note, a guideline excerpt, a cited abstract). */
export interface SetDocument {
	id: string;
	title?: string;
	text?: string;
}

/** One question of a set, keyed by the id its file gave it. */
export const setQuestion = pgTable(
	'set_question',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		questionSetId: integer()
			.notNull()
			.references(() => questionSet.id),
		externalId: text().notNull(),
		question: text().notNull(),
		/** A case description shown above the question. */
		context: text(),
		referenceAnswer: text(),
		documents: jsonb().$type<SetDocument[]>().notNull().default([]),
		/** The record exactly as imported. */
		record: jsonb().notNull(),
		contentHash: text().notNull(),
		importId: integer().references(() => importRecord.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [unique().on(t.questionSetId, t.externalId)]
);
export type SetQuestion = typeof setQuestion.$inferSelect;

/** One model's answer to a question of a set, as imported. */
export const setResponse = pgTable(
	'set_response',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		setQuestionId: integer()
			.notNull()
			.references(() => setQuestion.id),
		modelId: integer()
			.notNull()
			.references(() => model.id),
		text: text().notNull(),
		/** The record exactly as imported. */
		record: jsonb().notNull(),
		contentHash: text().notNull(),
		importId: integer().references(() => importRecord.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [unique().on(t.setQuestionId, t.modelId), index().on(t.modelId)]
);
export type SetResponse = typeof setResponse.$inferSelect;
