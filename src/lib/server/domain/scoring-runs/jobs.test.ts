import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { model, score, scoringRun } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { validRecord } from '../../fixtures/records';
import { startJobQueue, type JobQueue } from '../../jobs/queue';
import { importQaFiles } from '../imports/qa-import';
import { importResponses } from '../imports/response-import';
import { createUser } from '../people/users';
import {
	createScoringQueue,
	enqueueRun,
	SCORING_QUEUE,
	SCORING_RETRIES,
	startScoringWorker,
	superviseRuns,
	type ScoringWorkerSettings
} from './jobs';
import { createRun } from './runs';

const actor = { userId: null, label: 'test' };
const records = (['true_false', 'short_answer', 'list'] as const).flatMap((t) => [
	validRecord(t, 1),
	validRecord(t, 2)
]);
const settings: ScoringWorkerSettings = { leaseSeconds: 1, retryDelaySeconds: 0 };

describeEachDb('scoring runs on the job queue', (h) => {
	let boss: JobQueue;
	let runId: number;
	const stops: (() => Promise<void>)[] = [];

	beforeEach(async () => {
		await importQaFiles(h.db, [{ fileName: 'qa.json', text: JSON.stringify(records) }], { actor });
		const files = (['true_false', 'short_answer', 'list'] as const).map((t) => {
			const inputs = records.filter((r) => r.type === t);
			return {
				fileName: `${t}.json`,
				text: JSON.stringify({ inputs, responses: inputs.map(() => 'True') })
			};
		});
		await importResponses(h.db, files, { actor, model: 'm' });
		const [{ id: modelId }] = await h.db.select().from(model);
		const organiser = await createUser(h.db, {
			email: 'org@test.local',
			displayName: 'Org',
			roles: ['organiser'],
			password: 'a-long-enough-password'
		});
		runId = (
			await createRun(
				h.db,
				{ modelIds: [modelId], mode: 'official', embedder: 'hash:8' },
				organiser.id
			)
		).id;
		boss = await startJobQueue(h, { pollingIntervalSeconds: 0.5 });
		await createScoringQueue(boss, settings);
	});
	afterEach(async () => {
		for (const stop of stops.splice(0)) await stop();
		await boss.stop({ graceful: false, wait: true, timeout: 1000 });
	});

	const runRow = async () =>
		(await h.db.select().from(scoringRun).where(eq(scoringRun.id, runId)))[0];

	it('executes a queued run on a worker of the queue', async () => {
		stops.push(await startScoringWorker(boss, h.db, settings));
		const jobId = await enqueueRun(boss, h.db, runId);
		await vi.waitFor(async () => expect((await runRow()).state).toBe('done'), {
			timeout: 20_000,
			interval: 200
		});
		expect(await runRow()).toMatchObject({ jobId, attempt: 1, progressDone: 6 });
		expect(await h.db.select().from(score)).toHaveLength(6);
		await vi.waitFor(
			async () => expect((await boss.getJobById(SCORING_QUEUE, jobId))?.state).toBe('completed'),
			{ timeout: 10_000, interval: 200 }
		);
	});

	it('hands the run of a worker that died to another worker, which completes it once', async () => {
		// A worker took the job and the run, then its process was killed: the job stays active
		// and the run's heartbeat stops.
		const jobId = await enqueueRun(boss, h.db, runId);
		const [taken] = await boss.fetch(SCORING_QUEUE);
		expect(taken.id).toBe(jobId);
		await h.db
			.update(scoringRun)
			.set({ state: 'running', attempt: 1, heartbeatAt: new Date(Date.now() - 5_000) })
			.where(eq(scoringRun.id, runId));

		expect(await superviseRuns(boss, h.db, settings)).toMatchObject({ released: [runId] });
		// A second instance supervising at the same moment finds nothing left to do.
		expect(await superviseRuns(boss, h.db, settings)).toMatchObject({ released: [] });
		stops.push(await startScoringWorker(boss, h.db, settings));
		await vi.waitFor(async () => expect((await runRow()).state).toBe('done'), {
			timeout: 20_000,
			interval: 200
		});
		expect(await runRow()).toMatchObject({ attempt: 2, progressDone: 6, error: null });
		expect(await h.db.select().from(score)).toHaveLength(6);
	});

	it('marks a run failed with the reason once its job has used up its retries', async () => {
		const jobId = await enqueueRun(boss, h.db, runId);
		for (let attempt = 0; attempt <= SCORING_RETRIES; attempt++) {
			const [job] = await boss.fetch(SCORING_QUEUE, { ignoreStartAfter: true });
			expect(job.id).toBe(jobId);
			await boss.fail(SCORING_QUEUE, jobId, { message: 'The database went away.' });
		}
		expect((await boss.getJobById(SCORING_QUEUE, jobId))?.state).toBe('failed');
		await h.db
			.update(scoringRun)
			.set({ heartbeatAt: new Date(Date.now() - 5_000) })
			.where(eq(scoringRun.id, runId));
		expect(await superviseRuns(boss, h.db, settings)).toMatchObject({ failed: [runId] });
		const run = await runRow();
		expect(run.state).toBe('failed');
		expect(run.error).toBe(
			`Gave up after ${SCORING_RETRIES + 1} attempts: The database went away.`
		);
		expect(run.finishedAt).not.toBeNull();
	});

	it('queues again a run whose portal died before queuing it', async () => {
		await h.db
			.update(scoringRun)
			.set({ heartbeatAt: new Date(Date.now() - 5_000) })
			.where(eq(scoringRun.id, runId));
		const { requeued } = await superviseRuns(boss, h.db, settings);
		expect(requeued).toEqual([runId]);
		expect(await superviseRuns(boss, h.db, settings)).toMatchObject({ requeued: [] });
		stops.push(await startScoringWorker(boss, h.db, settings));
		await vi.waitFor(async () => expect((await runRow()).state).toBe('done'), {
			timeout: 20_000,
			interval: 200
		});
		expect(await h.db.select().from(score)).toHaveLength(6);
	});
});
