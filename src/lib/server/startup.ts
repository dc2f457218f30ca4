// The composition root: what happens once when the server starts, outside the data layer.
import {
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

let started: Promise<DatabaseHandle> | undefined;

/**
 * Opens and migrates the database, seeds the demo on first start (SEED_DEMO; on by default for
 * PGlite), and starts the job queue with this instance's scoring worker. Runs once.
 */
export function startApp(): Promise<DatabaseHandle> {
	started ??= start();
	return started;
}

async function start(): Promise<DatabaseHandle> {
	const scoring = scoringSettingsFromEnv();
	const opened = await openDatabase();
	let boss!: JobQueue;
	let stopWorker!: () => Promise<void>;
	// Instances starting together take turns; the later ones find nothing left to do. The job
	// queue's schema and queues are created under the same lock: pg-boss creating one queue from
	// two instances at once can deadlock.
	await underMigrationLock(opened, async () => {
		await migrateDatabase(opened);
		const seedSetting = process.env.SEED_DEMO;
		const seed = seedSetting === undefined ? opened.kind === 'pglite' : seedSetting === '1';
		if (seed) await ensureDemoData(opened.db, { print: (line) => console.log(line) });
		// Runs left unfinished by a stopped instance are not failed here: another instance may be
		// running them. The queue's supervision takes over those whose worker stopped heartbeating.
		boss = await startJobQueue(opened);
		stopWorker = await startScoringWorker(boss, opened.db, scoring);
	});
	setJobQueue(boss);
	setDatabase(opened);
	process.once('sveltekit:shutdown', () => {
		void (async () => {
			await stopWorker();
			await boss.stop({ graceful: true, timeout: 5_000, wait: true });
			await getDatabaseHandle().close();
		})().catch((e) => console.error('shutdown:', e));
	});
	return opened;
}
