import { createHash } from 'node:crypto';
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
import type { Db, Tx } from '../../db/client';
import {
	model,
	qaItemVersion,
	response,
	score,
	scoringRun,
	scoringRunCorpus,
	snapshot,
	user
} from '../../db/schema';
import type { ScoringRun } from '../../db/schema';
import { recordAudit } from '../audit';
import { SCORING_MODES, type ScoringCorpusKind } from '../../../constants';
export { UNRECORDED_CORPUS } from '../../../constants';
import { DomainError } from '../../errors';

/** What a run scores against: the items' current versions (recorded at creation) or a snapshot. */
export type CorpusChoice = { kind: 'items' } | { kind: 'snapshot'; snapshotId: number };

/** The form's corpus field: `items` or `snapshot:<id>`. */
const corpusField = z
	.string()
	.trim()
	.default('items')
	.transform((value, ctx): CorpusChoice => {
		if (value === 'items') return { kind: 'items' };
		const m = /^snapshot:([1-9]\d{0,9})$/.exec(value);
		if (m) return { kind: 'snapshot', snapshotId: Number(m[1]) };
		ctx.addIssue({ code: 'custom', message: 'Choose the current items or a snapshot.' });
		return z.NEVER;
	});

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
		.regex(/^(minilm|hash:[1-9]\d{0,3})$/, 'Use minilm or hash:<D> with D from 1 to 9999.'),
	corpus: corpusField
});
/** A parsed choice; without a corpus the run records the current items. */
export type NewRun = Omit<z.infer<typeof newRunSchema>, 'corpus'> & { corpus?: CorpusChoice };

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

/** The recorded corpus of a run, as stored on it. */
interface RecordedCorpus {
	corpusKind: ScoringCorpusKind;
	snapshotId: number | null;
	corpusSize: number;
	corpusDigest: string;
	corpusRecordedAt: Date;
}

/**
 * Records the item versions run `runId` scores against: a snapshot's frozen versions, or the
 * current version of every item of the datasets the models answered (the whole QA set, as the
 * official scorer loads it). Returns what is stored on the run.
 */
async function recordCorpus(
	tx: Tx,
	runId: number,
	choice: CorpusChoice,
	modelIds: number[]
): Promise<RecordedCorpus> {
	if (choice.kind === 'snapshot') {
		await tx.execute(sql`
			insert into scoring_run_corpus (run_id, item_version_id)
			select ${runId}, item_version_id from snapshot_item where snapshot_id = ${choice.snapshotId}`);
	} else {
		const models = sql.join(
			modelIds.map((id) => sql`${id}`),
			sql`, `
		);
		await tx.execute(sql`
			insert into scoring_run_corpus (run_id, item_version_id)
			select ${runId}, i.current_version_id from qa_item i
			where i.current_version_id is not null and i.dataset_id in (
				select distinct qi.dataset_id from qa_item qi
				join response r on r.item_id = qi.id
				where r.model_id in (${models}))`);
	}
	const versions = await corpusVersions(tx, runId);
	return {
		corpusKind: choice.kind,
		snapshotId: choice.kind === 'snapshot' ? choice.snapshotId : null,
		corpusSize: versions.length,
		corpusDigest: corpusDigest(versions),
		corpusRecordedAt: new Date()
	};
}

/** A run's corpus in item order (the order the IDF corpus and the baseline sample are built in). */
function corpusVersions(db: Db | Tx, runId: number) {
	return db
		.select({
			id: qaItemVersion.id,
			itemId: qaItemVersion.itemId,
			contentHash: qaItemVersion.contentHash,
			type: qaItemVersion.type,
			record: qaItemVersion.record
		})
		.from(scoringRunCorpus)
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, scoringRunCorpus.itemVersionId))
		.where(eq(scoringRunCorpus.runId, runId))
		.orderBy(asc(qaItemVersion.itemId), asc(qaItemVersion.id));
}

/** SHA-256 (hex) over each version's id and content hash, in item order. */
export function corpusDigest(versions: { id: number; contentHash: string }[]): string {
	const hash = createHash('sha256');
	for (const v of versions) hash.update(`${v.id}:${v.contentHash}\n`);
	return hash.digest('hex');
}

/** Responses of `modelIds` to items of run `runId`'s corpus. */
function inCorpus(runId: number) {
	return sql`${response.itemId} in (select v.item_id from scoring_run_corpus c
		join qa_item_version v on v.id = c.item_version_id where c.run_id = ${runId})`;
}

/**
 * Creates a queued run after checking the models exist and have responses, and records the
 * corpus it will score against (a snapshot's item versions, or the items' current versions now).
 */
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
	const choice = input.corpus ?? { kind: 'items' };
	return db.transaction(async (tx) => {
		if (choice.kind === 'snapshot') {
			const [snap] = await tx
				.select({ id: snapshot.id })
				.from(snapshot)
				.where(eq(snapshot.id, choice.snapshotId));
			if (!snap) throw new DomainError('invalid', `There is no snapshot ${choice.snapshotId}.`);
		}
		const [created] = await tx
			.insert(scoringRun)
			.values({
				mode: input.mode,
				embedder: input.embedder,
				scorerVersion: SCORER_VERSION,
				modelIds: input.modelIds,
				progressTotal: 0,
				createdBy: userId
			})
			.returning();
		const corpus = await recordCorpus(tx, created.id, choice, input.modelIds);
		const [{ scored }] = await tx
			.select({ scored: count() })
			.from(response)
			.where(and(inArray(response.modelId, input.modelIds), inCorpus(created.id)));
		if (scored === 0)
			throw new DomainError(
				'invalid',
				'None of the selected models answered an item of the chosen corpus.'
			);
		const [run] = await tx
			.update(scoringRun)
			.set({ ...corpus, progressTotal: scored })
			.where(eq(scoringRun.id, created.id))
			.returning();
		await recordAudit(tx, {
			actorId: userId,
			action: 'scoring_run.create',
			objectType: 'scoring_run',
			objectId: run.id,
			after: {
				...input,
				corpus: { ...choice, size: corpus.corpusSize, digest: corpus.corpusDigest }
			}
		});
		return run;
	});
}

/**
 * Queues a new run repeating finished run `runId`: the same models' responses it scored, the
 * same mode and embedder, against the same recorded corpus, so it gives the same numbers unless
 * a response or the scorer changed since.
 */
export async function rerunRun(db: Db, runId: number, userId: string): Promise<ScoringRun> {
	return db.transaction(async (tx) => {
		const [original] = await tx.select().from(scoringRun).where(eq(scoringRun.id, runId));
		if (!original) throw new DomainError('not_found', `There is no scoring run ${runId}.`);
		if (original.state !== 'done')
			throw new DomainError(
				'conflict',
				`Run ${runId} is ${original.state}; only a finished run can be re-run.`
			);
		if (!original.corpusKind)
			throw new DomainError(
				'invalid',
				`Run ${runId} was created before runs recorded their corpus, so it cannot be repeated exactly; start a new run.`
			);
		const [{ scored }] = await tx
			.select({ scored: count() })
			.from(score)
			.where(eq(score.runId, runId));
		const [run] = await tx
			.insert(scoringRun)
			.values({
				mode: original.mode,
				embedder: original.embedder,
				scorerVersion: SCORER_VERSION,
				modelIds: original.modelIds,
				progressTotal: scored,
				createdBy: userId,
				corpusKind: original.corpusKind,
				snapshotId: original.snapshotId,
				corpusSize: original.corpusSize,
				corpusDigest: original.corpusDigest,
				corpusRecordedAt: original.corpusRecordedAt,
				rerunOf: original.id
			})
			.returning();
		await tx.execute(sql`
			insert into scoring_run_corpus (run_id, item_version_id)
			select ${run.id}, item_version_id from scoring_run_corpus where run_id = ${runId}`);
		await recordAudit(tx, {
			actorId: userId,
			action: 'scoring_run.rerun',
			objectType: 'scoring_run',
			objectId: run.id,
			after: { rerunOf: runId, corpusDigest: original.corpusDigest }
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
 * Scores a run: the chosen models' responses to the items of the run's recorded corpus, each
 * against its item's version there, with the IDF corpus and baseline built from exactly those
 * versions (as the official scorer builds them from the files it loads). Safe to call again for the same run
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
	if (!run.corpusKind) {
		// Queued before runs recorded their corpus: record the current items now.
		const corpus = await db.transaction((tx) =>
			recordCorpus(tx, run.id, { kind: 'items' }, run.modelIds)
		);
		await db.update(scoringRun).set(corpus).where(owned(run));
	}
	const chosen = and(
		inArray(response.modelId, run.modelIds),
		run.rerunOf
			? inArray(
					response.id,
					db.select({ id: score.responseId }).from(score).where(eq(score.runId, run.rerunOf))
				)
			: undefined
	);
	// Each response is scored against its item's version in the corpus, not the item's current one.
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
		.innerJoin(qaItemVersion, eq(qaItemVersion.itemId, response.itemId))
		.innerJoin(
			scoringRunCorpus,
			and(eq(scoringRunCorpus.itemVersionId, qaItemVersion.id), eq(scoringRunCorpus.runId, run.id))
		)
		.where(chosen)
		.orderBy(asc(response.modelId), asc(response.itemId));
	if (rows.length === 0)
		throw new ScorerError('The selected models have no responses to the corpus any more.');
	const [{ all }] = await db
		.select({ all: count() })
		.from(response)
		.where(inArray(response.modelId, run.modelIds));
	const warnings: string[] = [];
	if (all > rows.length)
		warnings.push(
			run.rerunOf
				? `${all - rows.length} responses were not scored: run ${run.rerunOf} did not score them (items outside the corpus, or imported since).`
				: `${all - rows.length} responses to items outside the corpus were not scored.`
		);
	const corpus = await corpusVersions(db, run.id);
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
		warnings: [...warnings, ...meta.warnings],
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

/** Which corpus a run scored against, as the run page, the leaderboard and the exports state it. */
export interface RunCorpus {
	kind: ScoringCorpusKind;
	snapshotId: number | null;
	snapshotName: string | null;
	size: number;
	recordedAt: Date;
	/** SHA-256 of the corpus (see `corpusDigest`). */
	digest: string;
	label: string;
}

/** The corpus of a run row, or null for a run created before corpora were recorded. */
function runCorpus(
	run: Pick<
		ScoringRun,
		'corpusKind' | 'snapshotId' | 'corpusSize' | 'corpusRecordedAt' | 'corpusDigest'
	>,
	snapshotName: string | null
): RunCorpus | null {
	if (!run.corpusKind || !run.corpusDigest || !run.corpusRecordedAt) return null;
	const size = run.corpusSize ?? 0;
	const recordedAt = new Date(run.corpusRecordedAt);
	const label =
		run.corpusKind === 'snapshot'
			? `snapshot ${snapshotName ?? `#${run.snapshotId}`} (${size} item versions)`
			: `${size} item versions recorded at ${recordedAt.toISOString().slice(0, 19).replace('T', ' ')} UTC, digest ${run.corpusDigest.slice(0, 12)}`;
	return {
		kind: run.corpusKind,
		snapshotId: run.snapshotId,
		snapshotName,
		size,
		recordedAt,
		digest: run.corpusDigest,
		label
	};
}

/** Runs, newest first, with the creator's name and the corpus each scored against. */
export async function listRuns(db: Db, limit = 50) {
	const rows = await db
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
			createdBy: user.displayName,
			rerunOf: scoringRun.rerunOf,
			corpusKind: scoringRun.corpusKind,
			snapshotId: scoringRun.snapshotId,
			corpusSize: scoringRun.corpusSize,
			corpusRecordedAt: scoringRun.corpusRecordedAt,
			corpusDigest: scoringRun.corpusDigest,
			snapshotName: snapshot.name
		})
		.from(scoringRun)
		.innerJoin(user, eq(user.id, scoringRun.createdBy))
		.leftJoin(snapshot, eq(snapshot.id, scoringRun.snapshotId))
		.orderBy(desc(scoringRun.id))
		.limit(limit);
	return rows.map(
		({
			corpusKind,
			snapshotId,
			corpusSize,
			corpusRecordedAt,
			corpusDigest,
			snapshotName,
			...r
		}) => ({
			...r,
			corpus: runCorpus(
				{ corpusKind, snapshotId, corpusSize, corpusRecordedAt, corpusDigest },
				snapshotName
			)
		})
	);
}

/** One run with its summary and corpus, or null. */
export async function getRun(db: Db, runId: number) {
	const [run] = await db
		.select({ run: scoringRun, createdBy: user.displayName, snapshotName: snapshot.name })
		.from(scoringRun)
		.innerJoin(user, eq(user.id, scoringRun.createdBy))
		.leftJoin(snapshot, eq(snapshot.id, scoringRun.snapshotId))
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
		modelNames: models.map((m) => m.name).sort(),
		corpus: runCorpus(run.run, run.snapshotName)
	};
}

/** Snapshots a run can score against, newest first. */
export async function listCorpusSnapshots(db: Db) {
	return db
		.select({
			id: snapshot.id,
			name: snapshot.name,
			itemCount: snapshot.itemCount,
			createdAt: snapshot.createdAt
		})
		.from(snapshot)
		.orderBy(desc(snapshot.createdAt), desc(snapshot.id));
}
