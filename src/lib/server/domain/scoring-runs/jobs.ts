// Scoring runs on the job queue: one job per run, executed by whichever portal instance takes it.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { EmbedderOptions } from '$scoring';
import type { Db } from '../../db/client';
import { scoringRun } from '../../db/schema';
import type { JobQueue } from '../../jobs/queue';
import { executeRun, staleSince, type RunLease } from './runs';

export const SCORING_QUEUE = 'scoring-run';
/** Attempts after the first one: a run whose worker died or whose database went away is retried. */
export const SCORING_RETRIES = 2;

interface ScoringJob {
	runId: number;
}

export interface ScoringWorkerSettings {
	/** Seconds a running run may go without a heartbeat before another worker takes it over. */
	leaseSeconds: number;
	/** Seconds before the first retry of a failed job (doubling with each retry); default 5. */
	retryDelaySeconds?: number;
	/** Options for the embedder (tests point MiniLM elsewhere). */
	embedder?: EmbedderOptions;
}

/** SCORING_LEASE_SECONDS (default 60), checked once at start. */
export function scoringSettingsFromEnv(env = process.env): ScoringWorkerSettings {
	const parsed = z.coerce
		.number()
		.int()
		.min(1)
		.max(3600)
		.safeParse(env.SCORING_LEASE_SECONDS ?? 60);
	if (!parsed.success)
		throw new Error('SCORING_LEASE_SECONDS must be a whole number of seconds from 1 to 3600.');
	return { leaseSeconds: parsed.data };
}

/** Creates the queue (idempotent). */
export async function createScoringQueue(boss: JobQueue, settings: ScoringWorkerSettings) {
	await boss.createQueue(SCORING_QUEUE, {
		name: SCORING_QUEUE,
		policy: 'standard',
		retryLimit: SCORING_RETRIES,
		// A dead worker's run is handed back by the supervision below, so a retry need not wait
		// for the lease; the backoff spaces out retries when the database is the problem.
		retryDelay: settings.retryDelaySeconds ?? 5,
		retryBackoff: true,
		// A backstop only: the lease below notices a dead worker long before this.
		expireInSeconds: 23 * 3600
	});
}

/** Queues run `runId` for execution by any instance's worker, and records the job on the run. */
export async function enqueueRun(boss: JobQueue, db: Db, runId: number): Promise<string> {
	const jobId = await boss.send(SCORING_QUEUE, { runId } satisfies ScoringJob);
	if (!jobId) throw new Error(`The job queue refused scoring run ${runId}.`);
	await db.update(scoringRun).set({ jobId }).where(eq(scoringRun.id, runId));
	return jobId;
}

/**
 * Runs this instance's scoring worker (one run at a time: scoring is CPU-bound) and, every half
 * lease, the supervision of runs whose worker died. Returns a stop function that hands a run in
 * progress back to the queue.
 */
export async function startScoringWorker(
	boss: JobQueue,
	db: Db,
	settings: ScoringWorkerSettings
): Promise<() => Promise<void>> {
	await createScoringQueue(boss, settings);
	const stopping = new AbortController();
	const lease: RunLease = { seconds: settings.leaseSeconds, signal: stopping.signal };
	await boss.work<ScoringJob>(
		SCORING_QUEUE,
		{ batchSize: 1, pollingIntervalSeconds: Math.min(2, settings.leaseSeconds / 2) },
		async ([job]) => {
			const outcome = await executeRun(db, job.data.runId, settings.embedder, lease);
			return { outcome };
		}
	);
	let supervising: Promise<unknown> = Promise.resolve();
	const timer = setInterval(
		() => {
			supervising = superviseRuns(boss, db, settings).catch((e) =>
				console.error('scoring run supervision:', e)
			);
		},
		(settings.leaseSeconds * 1000) / 2
	);
	return async () => {
		clearInterval(timer);
		stopping.abort();
		await supervising;
		await boss.offWork(SCORING_QUEUE);
	};
}

/**
 * What any instance does every half lease, so that no run is lost whatever process died:
 * - a running run whose heartbeat is older than the lease goes back to `queued` and its job is
 *   failed, so the queue retries it on a live worker (only one instance wins the update);
 * - a queued run older than the lease whose job is gone or finished gets a new job (the portal
 *   died between creating the run and queuing it), and one whose job failed for good (retries
 *   exhausted) is marked failed with the queue's reason.
 * Returns what it did, for tests.
 */
export async function superviseRuns(
	boss: JobQueue,
	db: Db,
	settings: ScoringWorkerSettings
): Promise<{ released: number[]; requeued: number[]; failed: number[] }> {
	const done = { released: [] as number[], requeued: [] as number[], failed: [] as number[] };
	const abandoned = await db
		.update(scoringRun)
		.set({ state: 'queued', heartbeatAt: new Date() })
		.where(and(eq(scoringRun.state, 'running'), staleSince(settings.leaseSeconds)))
		.returning({ id: scoringRun.id, jobId: scoringRun.jobId });
	for (const run of abandoned) {
		done.released.push(run.id);
		if (run.jobId)
			await boss.fail(SCORING_QUEUE, run.jobId, {
				message: `The worker running scoring run ${run.id} stopped (no heartbeat for ${settings.leaseSeconds} s).`
			});
	}
	const waiting = await db
		.select({ id: scoringRun.id, jobId: scoringRun.jobId })
		.from(scoringRun)
		.where(and(eq(scoringRun.state, 'queued'), staleSince(settings.leaseSeconds)))
		.orderBy(asc(scoringRun.id));
	for (const run of waiting) {
		const job = run.jobId ? await boss.getJobById(SCORING_QUEUE, run.jobId) : null;
		const state = job?.state;
		if (state === 'created' || state === 'retry') continue;
		if (state === 'active') {
			// Its worker took the job a lease ago but never took the run: it died in between.
			if (Date.now() - new Date(job!.startedOn).getTime() < settings.leaseSeconds * 1000) continue;
			await boss.fail(SCORING_QUEUE, run.jobId!, {
				message: 'The worker stopped before starting.'
			});
			continue;
		}
		if (state === 'failed') {
			const marked = await db
				.update(scoringRun)
				.set({
					state: 'failed',
					error: `Gave up after ${SCORING_RETRIES + 1} attempts: ${jobFailure(job?.output)}`.slice(
						0,
						4000
					),
					finishedAt: new Date()
				})
				.where(and(eq(scoringRun.id, run.id), eq(scoringRun.state, 'queued')))
				.returning({ id: scoringRun.id });
			if (marked.length) done.failed.push(run.id);
			continue;
		}
		// No job, or one that completed or was cancelled while the run still waits: queue it again.
		// Claiming the queued run first keeps two supervisors from queuing it twice.
		const [claimed] = await db
			.update(scoringRun)
			.set({ heartbeatAt: new Date() })
			.where(
				and(
					eq(scoringRun.id, run.id),
					eq(scoringRun.state, 'queued'),
					run.jobId ? eq(scoringRun.jobId, run.jobId) : isNull(scoringRun.jobId),
					staleSince(settings.leaseSeconds)
				)
			)
			.returning({ id: scoringRun.id });
		if (!claimed) continue;
		await enqueueRun(boss, db, run.id);
		done.requeued.push(run.id);
	}
	return done;
}

/** The message pg-boss stored for a failed job (a thrown error, or what `fail` was given). */
function jobFailure(output: unknown): string {
	const o = output as { message?: string; value?: { message?: string } } | null | undefined;
	return o?.message ?? o?.value?.message ?? 'the job failed';
}
