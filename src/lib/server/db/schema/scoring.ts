import {
	type AnyPgColumn,
	doublePrecision,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	text,
	timestamp,
	unique
} from 'drizzle-orm/pg-core';
import { model, qaItem, qaItemVersion, response } from './content';
import { jobState, qaType, scoringCorpusKind, scoringMode } from './enums';
import { snapshot } from './review';
import { user } from './user';

/** One execution of the scoring module over model responses. */
export const scoringRun = pgTable('scoring_run', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	mode: scoringMode().notNull(),
	/** `minilm` or `hash:<D>`. */
	embedder: text().notNull(),
	scorerVersion: text().notNull(),
	idfCorpusSize: integer(),
	baseline: doublePrecision(),
	modelIds: jsonb().$type<number[]>().notNull(),
	state: jobState().notNull().default('queued'),
	progressDone: integer().notNull().default(0),
	progressTotal: integer().notNull().default(0),
	error: text(),
	/** Per-model leaderboard rows (Table-2 columns and n-gram averages). */
	summary: jsonb(),
	createdBy: text()
		.notNull()
		.references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	startedAt: timestamp({ withTimezone: true }),
	finishedAt: timestamp({ withTimezone: true }),
	/** How many times a worker has taken the run; a worker writes only under its own attempt. */
	attempt: integer().notNull().default(0),
	/**
	 * The last sign of life of the run: its worker's heartbeat while running, the time it was
	 * queued before. A running run silent for longer than the lease is taken over.
	 */
	heartbeatAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	/** The job queue's id of the job that executes the run. */
	jobId: text(),
	/**
	 * What the run scores against; the item versions themselves are in `scoring_run_corpus`.
	 * Null only for runs created before corpora were recorded.
	 */
	corpusKind: scoringCorpusKind(),
	/** The benchmark snapshot whose item versions form the corpus (kind `snapshot`). */
	snapshotId: integer().references(() => snapshot.id),
	/** How many item versions the corpus holds. */
	corpusSize: integer(),
	/** When the corpus was recorded (a re-run keeps the original's). */
	corpusRecordedAt: timestamp({ withTimezone: true }),
	/** SHA-256 of the corpus: its item versions' ids and content hashes, in item order. */
	corpusDigest: text(),
	/** The run this one repeats: the same responses against the same corpus. */
	rerunOf: integer().references((): AnyPgColumn => scoringRun.id)
});
export type ScoringRun = typeof scoringRun.$inferSelect;

/** A per-response score of one run: the headline value plus every metric the scorer reports. */
export const score = pgTable(
	'score',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		runId: integer()
			.notNull()
			.references(() => scoringRun.id),
		responseId: integer()
			.notNull()
			.references(() => response.id),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		modelId: integer()
			.notNull()
			.references(() => model.id),
		type: qaType().notNull(),
		/** Headline value: correctness (0/1), list F1 or the semantic score. */
		value: doublePrecision().notNull(),
		metrics: jsonb().notNull()
	},
	(t) => [unique().on(t.runId, t.responseId), index().on(t.runId, t.modelId, t.type)]
);
export type Score = typeof score.$inferSelect;

/**
 * The item versions a run scores against, recorded when the run is created: the IDF corpus and
 * baseline are built from exactly these versions and each response is scored against its item's
 * version here, so later imports or corrections cannot change the run's numbers.
 */
export const scoringRunCorpus = pgTable(
	'scoring_run_corpus',
	{
		runId: integer()
			.notNull()
			.references(() => scoringRun.id),
		itemVersionId: integer()
			.notNull()
			.references(() => qaItemVersion.id)
	},
	(t) => [primaryKey({ columns: [t.runId, t.itemVersionId] })]
);
