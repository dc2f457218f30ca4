import { sql } from 'drizzle-orm';
import {
	type AnyPgColumn,
	boolean,
	check,
	index,
	integer,
	jsonb,
	pgTable,
	real,
	smallint,
	text,
	timestamp,
	unique
} from 'drizzle-orm/pg-core';
import { importKind, itemStatus, provenance, qaType, queueOrder, verdict } from './enums';
import { user } from './user';
import type { ImportWarning } from '../../../schemas/qa-record';

/** A collection of QA items reviewed under one set of verification settings. */
export const dataset = pgTable('dataset', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	name: text().notNull().unique(),
	/** Share of items (0–1) drawn for an independent secondary review. */
	secondaryShare: real().notNull().default(0.45),
	/**
	 * Seed of the stratified secondary sample and of the reviewers' seeded queue order, recorded
	 * so both are reproducible; set when the first items arrive.
	 */
	sampleSeed: text(),
	/** When the sample was first drawn; null while the dataset has no sample. */
	sampledAt: timestamp({ withTimezone: true }),
	/** The order reviewers get items in (`review_task.sort_key`): seeded random or import order. */
	queueOrder: queueOrder().notNull().default('seeded'),
	/** Minutes a review lease lasts before the item returns to the queue. */
	leaseMinutes: integer().notNull().default(30),
	/** Disagreement rules: differing verdicts, or GP relevance differing by at least this gap. */
	disagreeOnVerdict: boolean().notNull().default(true),
	relevanceGap: smallint().notNull().default(2),
	/**
	 * Items whose source passage has not been imported: false (the default) keeps them out of the
	 * review queue until it arrives; true lets them be reviewed without it, which each review records.
	 */
	reviewWithoutPassage: boolean().notNull().default(false),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Dataset = typeof dataset.$inferSelect;

/** One upload of QA items, passages or model responses. */
export const importRecord = pgTable('import', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	kind: importKind().notNull(),
	datasetId: integer().references(() => dataset.id),
	fileName: text().notNull(),
	/** Null when the import came through the CLI; `actor` then names the OS user. */
	createdBy: text().references(() => user.id),
	actor: text().notNull(),
	modelName: text(),
	created: integer().notNull().default(0),
	unchanged: integer().notNull().default(0),
	updated: integer().notNull().default(0),
	rejected: integer().notNull().default(0),
	/** What the import was accepted with: duplicates imported once, QA pairs without a passage. */
	warnings: jsonb().$type<ImportWarning[]>().notNull().default([]),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type ImportRecord = typeof importRecord.$inferSelect;

/** The textbook excerpt items were generated from, keyed by its paragraph id. */
export const passage = pgTable('passage', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	paragraphId: text().notNull().unique(),
	isbn: text(),
	page: integer(),
	text: text().notNull(),
	contentHash: text().notNull(),
	importId: integer().references(() => importRecord.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Passage = typeof passage.$inferSelect;

/**
 * A QA item. `itemKey` is a stable content key (type, source paragraph and normalised question),
 * so a re-import of the same record is recognised; its content lives in versions.
 */
export const qaItem = pgTable(
	'qa_item',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		datasetId: integer()
			.notNull()
			.references(() => dataset.id),
		itemKey: text().notNull(),
		type: qaType().notNull(),
		paragraphId: text(),
		/** Denormalised from the current version for fast search and sorting. */
		question: text().notNull(),
		/**
		 * lower(question), stored: what a search tests the item's own row with. PostgreSQL's ILIKE in
		 * a UTF-8 database is lower(text) LIKE lower(pattern), so `question_lower LIKE lower(p)` is
		 * `question ILIKE p` exactly, without lowering every row's question at each search (~4× the
		 * LIKE itself).
		 */
		questionLower: text().generatedAlwaysAs(sql`lower(question)`),
		currentVersionId: integer().references((): AnyPgColumn => qaItemVersion.id),
		currentVersion: integer().notNull().default(1),
		/** Workflow state; the verdict is in finalVerdict (written only by item_resolve_outcome). */
		status: itemStatus().notNull().default('awaiting_primary'),
		inSecondarySample: boolean().notNull().default(false),
		provenance: provenance(),
		finalVerdict: verdict(),
		finalRelevance: smallint(),
		firstImportId: integer().references(() => importRecord.id),
		lastImportId: integer().references(() => importRecord.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		unique().on(t.datasetId, t.itemKey),
		index().on(t.type, t.id),
		// (status, id) serves the keyset sort by state; type and final verdict after the unique id
		// change no order but let the state and outcome counts read the index alone.
		index('qa_item_status_sort').on(t.status, t.id, t.type, t.finalVerdict),
		index().on(t.lastImportId, t.id),
		index().on(t.paragraphId),
		// The item table pages by keyset on (sort column, id): one index per sortable column.
		// Questions sort by their first 200 characters (a btree entry must stay under ~2.7 kB).
		index('qa_item_question_sort').on(sql`left(${t.question}, 200)`, t.id),
		index().on(t.updatedAt, t.id),
		index().on(t.finalVerdict, t.id),
		index().on(t.finalRelevance, t.id),
		index().on(t.provenance, t.id),
		// The item table's search: items by their current version, item keys by prefix.
		index().on(t.currentVersionId),
		index('qa_item_item_key_prefix').on(sql`${t.itemKey} text_pattern_ops`)
	]
);
export type QaItem = typeof qaItem.$inferSelect;

/** One immutable version of an item: the record as imported or corrected, plus typed fields. */
export const qaItemVersion = pgTable(
	'qa_item_version',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		itemId: integer()
			.notNull()
			.references((): AnyPgColumn => qaItem.id),
		version: integer().notNull(),
		/** The record exactly as imported (or as corrected by an organiser). */
		record: jsonb().notNull(),
		contentHash: text().notNull(),
		type: qaType().notNull(),
		question: text().notNull(),
		/** The gold answer as display text (for inverse types the scored explanation is separate). */
		answer: text(),
		answerList: jsonb().$type<string[]>(),
		options: jsonb().$type<string[]>(),
		correctAnswer: text(),
		reasoning: jsonb().$type<string[]>(),
		falseAnswer: text(),
		incorrectExplanation: text(),
		incorrectStep: integer(),
		incorrectStepExplanation: text(),
		sourceIsbn: text(),
		sourcePage: integer(),
		paragraphId: text(),
		origin: text().$type<'import' | 'correction'>().notNull(),
		importId: integer().references(() => importRecord.id),
		createdBy: text().references(() => user.id),
		reason: text(),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		unique().on(t.itemId, t.version),
		check('version_positive', sql`${t.version} > 0`),
		// Substring search of the item table (pg_trgm). On the versions, which are never updated,
		// so reviews that change an item's state do not write to these indexes.
		index('qa_item_version_question_trgm').using('gin', sql`${t.question} gin_trgm_ops`),
		index('qa_item_version_answer_trgm').using('gin', sql`${t.answer} gin_trgm_ops`)
	]
);
export type QaItemVersion = typeof qaItemVersion.$inferSelect;

export const model = pgTable('model', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	name: text().notNull().unique(),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Model = typeof model.$inferSelect;

/** One model's raw output for one item, as imported. */
export const response = pgTable(
	'response',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		itemVersionId: integer()
			.notNull()
			.references(() => qaItemVersion.id),
		modelId: integer()
			.notNull()
			.references(() => model.id),
		/** The output exactly as imported: a string or any JSON value the submission files allow. */
		raw: jsonb().notNull(),
		/** Plain text of the output (ClinIQLink to_text, think blocks removed) for display. */
		text: text().notNull(),
		contentHash: text().notNull(),
		importId: integer().references(() => importRecord.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [unique().on(t.itemId, t.modelId), index().on(t.modelId)]
);
export type Response = typeof response.$inferSelect;
