// The composition root: what happens once when the server starts, outside the data layer.
import { migrateDatabase, openDatabase, type DatabaseHandle } from './db/client';
import { getDatabaseHandle, setDatabase } from './db';
import { ensureDemoData } from './demo/seed';
import { startJobQueue } from './jobs/queue';
import { setJobQueue } from './jobs';
import { scoringSettingsFromEnv, startScoringWorker } from './domain/scoring-runs/jobs';

let started: Promise<DatabaseHandle> | undefined;

/**
 * An arbitrary constant: the PostgreSQL advisory lock under which an instance migrates and seeds,
 * so instances starting together take turns (the others then find nothing left to do).
 */
const STARTUP_LOCK = 4_120_117_301;

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
	await underStartupLock(opened, async () => {
		await migrateDatabase(opened);
		const seedSetting = process.env.SEED_DEMO;
		const seed = seedSetting === undefined ? opened.kind === 'pglite' : seedSetting === '1';
		if (seed) await ensureDemoData(opened.db, { print: (line) => console.log(line) });
	});
	// Runs left unfinished by a stopped instance are not failed here: another instance may be
	// running them. The queue's supervision takes over those whose worker stopped heartbeating.
	const boss = await startJobQueue(opened);
	const stopWorker = await startScoringWorker(boss, opened.db, scoring);
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

/**
 * Runs `work` holding the start-up advisory lock on PostgreSQL. The lock is transaction-scoped,
 * taken in a transaction kept open on a connection of its own while `work` runs on the app's
 * pool: a PgBouncer in transaction mode keeps that one server connection for it, where a
 * session lock could be left on a server connection another client then reuses. PGlite has one
 * process.
 */
async function underStartupLock(handle: DatabaseHandle, work: () => Promise<void>): Promise<void> {
	if (handle.kind !== 'postgres') return work();
	const { default: postgres } = await import('postgres');
	const lockConnection = postgres(handle.url!, {
		max: 1,
		onnotice: () => {},
		prepare: false,
		connection: { application_name: 'cliniq-portal-startup' }
	});
	try {
		await lockConnection.begin(async (tx) => {
			await tx`select pg_advisory_xact_lock(${STARTUP_LOCK})`;
			await work();
		});
	} finally {
		await lockConnection.end({ timeout: 5 });
	}
}
