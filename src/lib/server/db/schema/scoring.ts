import {
	doublePrecision,
	index,
	integer,
	jsonb,
	pgTable,
	text,
	timestamp,
	unique
} from 'drizzle-orm/pg-core';
import { model, qaItem, response } from './content';
import { jobState, qaType, scoringMode } from './enums';
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
	jobId: text()
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
