// The composition root: what happens once when the server starts, outside the data layer.
import {
	DEFAULT_DATABASE_URL,
	migrateDatabase,
	openDatabase,
	underMigrationLock,
	type DatabaseHandle
} from './db/client';
import { getDatabaseHandle, setDatabase } from './db';
import { ensureDemoData } from './demo/seed';
import { startJobQueue, type JobQueue } from './jobs/queue';
import { setJobQueue } from './jobs';
import { scoringSettingsFromEnv, startScoringWorker } from './domain/scoring-runs/jobs';
import { reportWaitFromEnv } from './domain/agreement';
import { stepLog, type StepLog } from './startup-log';

// Kept on the process, not the module: the dev server may load this module twice (its start-up
// plugin and the SvelteKit hooks), and the embedded database must be opened once.
const STARTED = Symbol.for('cliniq-portal.startApp');
const processState = globalThis as { [STARTED]?: Promise<DatabaseHandle> };

/**
 * Opens and migrates the database, seeds the demo on first start (SEED_DEMO; on by default for
 * PGlite), and starts the job queue with this instance's scoring worker, printing each step with
 * its time. Runs once; the dev server starts it as it starts listening, before the first request.
 */
export function startApp(print: (line: string) => void = console.log): Promise<DatabaseHandle> {
	processState[STARTED] ??= start(stepLog(print));
	return processState[STARTED];
}

/** What opening the database did, for the log: creating an embedded one takes initdb's time. */
function describeDatabase(handle: DatabaseHandle): string {
	if (handle.kind === 'postgres') return `connected to PostgreSQL at ${handle.location}`;
	const where = handle.location === 'in memory' ? 'in memory' : `in ${handle.location}`;
	if (handle.fromTemplate) return `created embedded PostgreSQL ${where} from the migrated template`;
	return `${handle.created ? 'created' : 'opened'} embedded PostgreSQL ${where}`;
}

/**
 * Migrates the database and, when `seed`, stores the demo on a database without accounts, each
 * step logged with its time. Returns whether the demo was seeded now.
 */
export async function prepareDatabase(
	handle: DatabaseHandle,
	log: StepLog,
	seed: boolean
): Promise<boolean> {
	await log.step(
		'migrations',
		() => migrateDatabase(handle),
		(n) => (n ? `${n} applied` : 'up to date')
	);
	if (!seed) return false;
	return ensureDemoData(handle.db, { print: log.note }, { log });
}

async function start(log: StepLog): Promise<DatabaseHandle> {
	const scoring = scoringSettingsFromEnv();
	reportWaitFromEnv(); // a bad REPORT_WAIT_MS stops the start, not the agreement page later
	const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
	const opened = await log.step('database', () => openDatabase(url), describeDatabase);
	let boss!: JobQueue;
	let stopWorker!: () => Promise<void>;
	// Instances starting together take turns; the later ones find nothing left to do. The job
	// queue's schema and queues are created under the same lock: pg-boss creating one queue from
	// two instances at once can deadlock.
	await underMigrationLock(opened, async () => {
		const seedSetting = process.env.SEED_DEMO;
		const seed = seedSetting === undefined ? opened.kind === 'pglite' : seedSetting === '1';
		await prepareDatabase(opened, log, seed);
		// Runs left unfinished by a stopped instance are not failed here: another instance may be
		// running them. The queue's supervision takes over those whose worker stopped heartbeating.
		boss = await log.step('job queue', async () => {
			const queue = await startJobQueue(opened);
			stopWorker = await startScoringWorker(queue, opened.db, scoring);
			return queue;
		});
	});
	setJobQueue(boss);
	setDatabase(opened);
	log.done('ready');
	process.once('sveltekit:shutdown', () => {
		void (async () => {
			await stopWorker();
			await boss.stop({ graceful: true, timeout: 5_000, wait: true });
			await getDatabaseHandle().close();
		})().catch((e) => console.error('shutdown:', e));
	});
	return opened;
}
