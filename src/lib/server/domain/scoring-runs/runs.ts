import { and, asc, count, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
	aggregateItems,
	createEmbedder,
	scoreCases,
	SCORER_VERSION,
	type CaseInput,
	type EmbedderOptions,
	type LeaderboardRow,
	type QaRecord,
	type ScoredItem,
	type TaskType
} from '$scoring';
import type { Db } from '../../db/client';
import { model, qaItem, qaItemVersion, response, score, scoringRun, user } from '../../db/schema';
import type { ScoringRun } from '../../db/schema';
import { recordAudit } from '../audit/audit';
import { SCORING_MODES } from '../../../constants';
import { DomainError } from '../../errors';

/** What an organiser chooses for a new run (form fields arrive as strings). */
export const newRunSchema = z.object({
	modelIds: z
		.array(z.coerce.number().int().positive())
		.min(1, 'Pick at least one model.')
		.transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
	mode: z.enum(SCORING_MODES, { error: 'Choose official or corrected.' }),
	embedder: z
		.string()
		.trim()
		.regex(/^(minilm|hash:[1-9]\d{0,3})$/, 'Use minilm or hash:<D> with D from 1 to 9999.')
});
export type NewRun = z.infer<typeof newRunSchema>;

/** An expected refusal (unknown models, no responses); the message is shown to the organiser. */

/** Per-model result of a run, stored in `scoring_run.summary.models`. */
export interface ModelSummary {
	modelId: number;
	name: string;
	responses: number;
	leaderboard: LeaderboardRow;
	perType: Record<TaskType, Record<string, number>>;
}

/** The run's `summary` jsonb. */
export interface RunSummary {
	models: ModelSummary[];
	baselineSeed: number;
	warnings: string[];
}

/** Stored with each score: the scorer's per-item outcome plus the item version it was scored on. */
export type ScoreMetrics = ScoredItem['score'] & { itemVersionId: number };

/** Models with how many responses each has, for the "new run" form. */
export async function listModelsForScoring(db: Db) {
	return db
		.select({ id: model.id, name: model.name, responses: count(response.id) })
		.from(model)
		.leftJoin(response, eq(response.modelId, model.id))
		.groupBy(model.id, model.name)
		.orderBy(asc(model.name));
}

/** Creates a queued run after checking the models exist and have responses. */
export async function createRun(db: Db, input: NewRun, userId: string): Promise<ScoringRun> {
	const found = await db
		.select({ id: model.id, responses: count(response.id) })
		.from(model)
		.leftJoin(response, eq(response.modelId, model.id))
		.where(inArray(model.id, input.modelIds))
		.groupBy(model.id);
	if (found.length !== input.modelIds.length)
		throw new DomainError('invalid', 'Unknown model selected.');
	const total = found.reduce((s, m) => s + m.responses, 0);
	if (total === 0)
		throw new DomainError('invalid', 'The selected models have no imported responses.');
	return db.transaction(async (tx) => {
		const [run] = await tx
			.insert(scoringRun)
			.values({
				mode: input.mode,
				embedder: input.embedder,
				scorerVersion: SCORER_VERSION,
				modelIds: input.modelIds,
				progressTotal: total,
				createdBy: userId
			})
			.returning();
		await recordAudit(tx, {
			actorId: userId,
			action: 'scoring_run.create',
			objectType: 'scoring_run',
			objectId: run.id,
			after: input
		});
		return run;
	});
}

/** Rows per INSERT when storing scores (well below Postgres' 65,535 parameters). */
const INSERT_BATCH = 500;
/** Progress is written when it moved by this share of the total, or after PROGRESS_MS. */
const PROGRESS_SHARE = 0.02;
const PROGRESS_MS = 500;
/** The scorer hands control back every this many items so the server keeps answering requests. */
const YIELD_EVERY = 25;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A record with its type spelled as stored (files like TF.json may omit `type`). */
function typedRecord(record: unknown, type: TaskType): QaRecord {
	return { ...(record as QaRecord), type };
}

/** How long a running run may stay silent before another worker takes it over. */
export interface RunLease {
	/** Seconds without a heartbeat after which the run is considered abandoned. */
	seconds: number;
	/** Set when this process stops: the run is handed back to the queue instead of finished. */
	signal?: AbortSignal;
}

export const DEFAULT_LEASE: RunLease = { seconds: 60 };

/** The worker's attempt no longer owns the run (it was taken over or handed back). */
class LeaseLost extends Error {}

/** A run handed back to the queue because this process is stopping; the queue retries it. */
export class RunHandedBack extends Error {}

/**
 * Takes a run for execution: a queued one, or a running one whose worker stopped heartbeating
 * for longer than the lease (its process died). Returns the run under its new attempt, or null
 * when it is finished or another worker is alive on it.
 */
async function claimRun(db: Db, runId: number, lease: RunLease): Promise<ScoringRun | null> {
	const [run] = await db
		.update(scoringRun)
		.set({
			state: 'running',
			attempt: sql`${scoringRun.attempt} + 1`,
			startedAt: sql`now()`,
			heartbeatAt: sql`now()`,
			progressDone: 0,
			error: null
		})
		.where(
			and(
				eq(scoringRun.id, runId),
				or(
					eq(scoringRun.state, 'queued'),
					and(eq(scoringRun.state, 'running'), staleSince(lease.seconds))
				)
			)
		)
		.returning();
	return run ?? null;
}

/** The run's last sign of life is older than `seconds`. */
export function staleSince(seconds: number) {
	return lt(scoringRun.heartbeatAt, sql`now() - make_interval(secs => ${seconds})`);
}

/** This attempt still owns the run. */
function owned(run: ScoringRun) {
	return and(
		eq(scoringRun.id, run.id),
		eq(scoringRun.attempt, run.attempt),
		eq(scoringRun.state, 'running')
	);
}

/**
 * Scores a run: the chosen models' responses against their items' current versions, with the
 * IDF corpus and baseline built from every current item of the datasets involved (as the
 * official scorer builds them from the files it loads). Safe to call again for the same run
 * (a retried job): it takes the run only when it is queued or its worker stopped heartbeating,
 * starts it over under a new attempt, and writes scores and `done` in one transaction that
 * only the owning attempt can commit, so results are never stored twice.
 *
 * While it runs, the run's heartbeat and progress are written. A scorer error marks the run
 * `failed` with its message. When `lease.signal` aborts, the run goes back to `queued` and
 * `RunHandedBack` is thrown so the queue retries it elsewhere; other errors (the database went
 * away) are thrown for the queue to retry.
 */
export async function executeRun(
	db: Db,
	runId: number,
	options: EmbedderOptions = {},
	lease: RunLease = DEFAULT_LEASE
): Promise<'done' | 'failed' | 'skipped' | 'superseded'> {
	const run = await claimRun(db, runId, lease);
	if (!run) return 'skipped';
	let lost = false;
	const beat = setInterval(
		() => {
			db.update(scoringRun)
				.set({ heartbeatAt: sql`now()` })
				.where(owned(run))
				.returning({ id: scoringRun.id })
				.then((rows) => (lost ||= rows.length === 0))
				.catch(() => {
					// A missed heartbeat is retried at the next tick; the lease allows several.
				});
		},
		Math.max(100, (lease.seconds * 1000) / 4)
	);
	const check = () => {
		if (lost) throw new LeaseLost();
		if (lease.signal?.aborted)
			throw new RunHandedBack('The server stopped; the run goes back to the queue.');
	};
	try {
		await scoreAndStore(db, run, options, check);
		return 'done';
	} catch (e) {
		if (e instanceof LeaseLost) return 'superseded';
		if (e instanceof RunHandedBack) {
			await db
				.update(scoringRun)
				.set({ state: 'queued', heartbeatAt: sql`now()` })
				.where(owned(run));
			throw e;
		}
		if (!(e instanceof ScorerError)) throw e;
		const failed = await db
			.update(scoringRun)
			.set({ state: 'failed', error: e.message.slice(0, 4000), finishedAt: new Date() })
			.where(owned(run))
			.returning({ id: scoringRun.id });
		return failed.length ? 'failed' : 'superseded';
	} finally {
		clearInterval(beat);
	}
}

/** A failure of the run itself (the input or the scorer), not of the machinery around it. */
class ScorerError extends Error {}

/** Runs `work`, turning what it throws into a ScorerError (a failure of the run, not retried). */
async function asRunFailure<T>(work: () => Promise<T> | T): Promise<T> {
	try {
		return await work();
	} catch (e) {
		if (e instanceof LeaseLost || e instanceof RunHandedBack) throw e;
		throw new ScorerError(e instanceof Error ? e.message : String(e));
	}
}

async function scoreAndStore(
	db: Db,
	run: ScoringRun,
	options: EmbedderOptions,
	check: () => void
): Promise<void> {
	const rows = await db
		.select({
			responseId: response.id,
			itemId: response.itemId,
			modelId: response.modelId,
			raw: response.raw,
			versionId: qaItemVersion.id,
			type: qaItemVersion.type,
			record: qaItemVersion.record
		})
		.from(response)
		.innerJoin(qaItem, eq(qaItem.id, response.itemId))
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, qaItem.currentVersionId))
		.where(inArray(response.modelId, run.modelIds))
		.orderBy(asc(response.modelId), asc(response.itemId));
	if (rows.length === 0) throw new ScorerError('The selected models have no responses any more.');
	const corpus = await db
		.select({ type: qaItemVersion.type, record: qaItemVersion.record })
		.from(qaItem)
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, qaItem.currentVersionId))
		.where(
			inArray(
				qaItem.datasetId,
				db
					.selectDistinct({ id: qaItem.datasetId })
					.from(qaItem)
					.innerJoin(response, eq(response.itemId, qaItem.id))
					.where(inArray(response.modelId, run.modelIds))
			)
		)
		.orderBy(asc(qaItem.id));
	await db.update(scoringRun).set({ progressTotal: rows.length }).where(owned(run));

	const embedder = await asRunFailure(() => createEmbedder(run.embedder, options));
	const cases: CaseInput[] = rows.map((r) => ({
		id: String(r.responseId),
		type: r.type,
		item: typedRecord(r.record, r.type),
		response: r.raw
	}));
	let written = { done: 0, at: Date.now() };
	const { meta, items } = await asRunFailure(() =>
		scoreCases(cases, {
			qaRecords: corpus.map((c) => typedRecord(c.record, c.type)),
			mode: run.mode,
			embedder,
			progressEvery: YIELD_EVERY,
			onProgress: async ({ done, total }) => {
				check();
				const now = Date.now();
				if (done - written.done >= total * PROGRESS_SHARE || now - written.at >= PROGRESS_MS) {
					written = { done, at: now };
					await db
						.update(scoringRun)
						.set({ progressDone: done, heartbeatAt: sql`now()` })
						.where(owned(run));
				}
				await nextTick();
			}
		})
	);
	check();
	if (meta.mode !== run.mode || meta.embedder !== run.embedder)
		throw new ScorerError(`The scorer ran as ${meta.mode}/${meta.embedder}, not as the run asked.`);

	const names = new Map(
		(await db.select().from(model).where(inArray(model.id, run.modelIds))).map((m) => [
			m.id,
			m.name
		])
	);
	const summary: RunSummary = {
		baselineSeed: meta.baselineSeed,
		warnings: meta.warnings,
		models: run.modelIds.map((modelId) => {
			const mine = items.filter((_, i) => rows[i].modelId === modelId);
			const { leaderboard, perType } = aggregateItems(mine, run.mode);
			return {
				modelId,
				name: names.get(modelId) ?? `#${modelId}`,
				responses: mine.length,
				leaderboard,
				perType
			};
		})
	};
	await db.transaction(async (tx) => {
		// Only the attempt that owns the run may finish it; the update comes first so that a
		// superseded attempt stores nothing.
		const finished = await tx
			.update(scoringRun)
			.set({
				state: 'done',
				progressDone: rows.length,
				idfCorpusSize: meta.idfCorpusSize,
				baseline: meta.baseline,
				scorerVersion: meta.scorerVersion,
				summary,
				heartbeatAt: sql`now()`,
				finishedAt: new Date()
			})
			.where(owned(run))
			.returning({ id: scoringRun.id });
		if (finished.length === 0) throw new LeaseLost();
		for (let start = 0; start < rows.length; start += INSERT_BATCH) {
			await tx.insert(score).values(
				rows.slice(start, start + INSERT_BATCH).map((r, k) => {
					const item = items[start + k];
					return {
						runId: run.id,
						responseId: r.responseId,
						itemId: r.itemId,
						modelId: r.modelId,
						type: r.type,
						value: headlineValue(item),
						metrics: { ...item.score, itemVersionId: r.versionId } satisfies ScoreMetrics
					};
				})
			);
		}
	});
}

/** The per-response headline: correctness (0/1), the item's list F1, or the semantic score. */
export function headlineValue(item: ScoredItem): number {
	const s = item.score;
	switch (s.type) {
		case 'true_false':
		case 'multiple_choice':
			return s.correct ? 1 : 0;
		case 'list':
			return s.f1;
		default:
			return s.semantic;
	}
}

/** Runs, newest first, with the creator's name. */
export async function listRuns(db: Db, limit = 50) {
	return db
		.select({
			id: scoringRun.id,
			mode: scoringRun.mode,
			embedder: scoringRun.embedder,
			scorerVersion: scoringRun.scorerVersion,
			modelIds: scoringRun.modelIds,
			state: scoringRun.state,
			progressDone: scoringRun.progressDone,
			progressTotal: scoringRun.progressTotal,
			error: scoringRun.error,
			createdAt: scoringRun.createdAt,
			finishedAt: scoringRun.finishedAt,
			createdBy: user.displayName
		})
		.from(scoringRun)
		.innerJoin(user, eq(user.id, scoringRun.createdBy))
		.orderBy(desc(scoringRun.id))
		.limit(limit);
}

/** One run with its summary, or null. */
export async function getRun(db: Db, runId: number) {
	const [run] = await db
		.select({ run: scoringRun, createdBy: user.displayName })
		.from(scoringRun)
		.innerJoin(user, eq(user.id, scoringRun.createdBy))
		.where(eq(scoringRun.id, runId));
	if (!run) return null;
	const models = await db
		.select({ id: model.id, name: model.name })
		.from(model)
		.where(inArray(model.id, run.run.modelIds));
	return {
		...run.run,
		summary: run.run.summary as RunSummary | null,
		createdBy: run.createdBy,
		modelNames: models.map((m) => m.name).sort()
	};
}
