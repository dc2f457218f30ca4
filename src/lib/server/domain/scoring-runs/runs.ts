import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
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

/**
 * Scores a queued run: the chosen models' responses against their items' current versions, with
 * the IDF corpus and baseline built from every current item of the datasets involved (as the
 * official scorer builds them from the files it loads). Progress is written while it runs; scores,
 * summary and `done` are written in one transaction. Any error marks the run `failed` with its
 * message. Returns the final state.
 */
export async function executeRun(
	db: Db,
	runId: number,
	options: EmbedderOptions = {}
): Promise<'done' | 'failed' | 'skipped'> {
	const [run] = await db
		.update(scoringRun)
		.set({ state: 'running', startedAt: new Date(), progressDone: 0, error: null })
		.where(and(eq(scoringRun.id, runId), eq(scoringRun.state, 'queued')))
		.returning();
	if (!run) return 'skipped';
	try {
		await scoreAndStore(db, run, options);
		return 'done';
	} catch (e) {
		const message = e instanceof Error ? e.message : String(e);
		await db
			.update(scoringRun)
			.set({ state: 'failed', error: message.slice(0, 4000), finishedAt: new Date() })
			.where(eq(scoringRun.id, runId));
		return 'failed';
	}
}

async function scoreAndStore(db: Db, run: ScoringRun, options: EmbedderOptions): Promise<void> {
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
	if (rows.length === 0) throw new Error('The selected models have no responses any more.');
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
	await db.update(scoringRun).set({ progressTotal: rows.length }).where(eq(scoringRun.id, run.id));

	const embedder = await createEmbedder(run.embedder, options);
	const cases: CaseInput[] = rows.map((r) => ({
		id: String(r.responseId),
		type: r.type,
		item: typedRecord(r.record, r.type),
		response: r.raw
	}));
	let written = { done: 0, at: Date.now() };
	const { meta, items } = await scoreCases(cases, {
		qaRecords: corpus.map((c) => typedRecord(c.record, c.type)),
		mode: run.mode,
		embedder,
		progressEvery: YIELD_EVERY,
		onProgress: async ({ done, total }) => {
			const now = Date.now();
			if (done - written.done >= total * PROGRESS_SHARE || now - written.at >= PROGRESS_MS) {
				written = { done, at: now };
				await db.update(scoringRun).set({ progressDone: done }).where(eq(scoringRun.id, run.id));
			}
			await nextTick();
		}
	});
	if (meta.mode !== run.mode || meta.embedder !== run.embedder)
		throw new Error(`The scorer ran as ${meta.mode}/${meta.embedder}, not as the run asked.`);

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
		await tx
			.update(scoringRun)
			.set({
				state: 'done',
				progressDone: rows.length,
				idfCorpusSize: meta.idfCorpusSize,
				baseline: meta.baseline,
				scorerVersion: meta.scorerVersion,
				summary,
				finishedAt: new Date()
			})
			.where(eq(scoringRun.id, run.id));
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

/**
 * Starts a run in the background of this process without waiting for it. Runs live in memory:
 * a restart interrupts them, and `recoverRuns` then marks them failed.
 */
export function startRun(db: Db, runId: number): void {
	void executeRun(db, runId).catch((e) =>
		console.error(`scoring run ${runId} could not record its outcome:`, e)
	);
}

/** At start-up: runs left queued or running by a previous process are marked failed. */
export async function recoverRuns(db: Db): Promise<number> {
	const stale = await db
		.update(scoringRun)
		.set({
			state: 'failed',
			error: 'The server stopped before this run finished; start a new run.',
			finishedAt: new Date()
		})
		.where(inArray(scoringRun.state, ['queued', 'running']))
		.returning({ id: scoringRun.id });
	return stale.length;
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
