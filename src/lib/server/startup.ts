// The composition root: what happens once when the server starts, outside the data layer.
import { migrateDatabase, openDatabase, type DatabaseHandle } from './db/client';
import { getDatabaseHandle, setDatabase } from './db';
import { ensureDemoData } from './demo/seed';
import { recoverRuns } from './domain/scoring-runs/runs';

let started: Promise<DatabaseHandle> | undefined;

/**
 * Opens and migrates the database, marks scoring runs a previous process left unfinished as
 * failed, and seeds the demo on first start (SEED_DEMO; on by default for PGlite). Runs once.
 */
export function startApp(): Promise<DatabaseHandle> {
	started ??= start();
	return started;
}

async function start(): Promise<DatabaseHandle> {
	const opened = await openDatabase();
	await migrateDatabase(opened);
	// Scoring runs execute inside this process; any left unfinished by a previous one are dead.
	const interrupted = await recoverRuns(opened.db);
	if (interrupted) console.warn(`${interrupted} unfinished scoring run(s) marked failed.`);
	const seedSetting = process.env.SEED_DEMO;
	const seed = seedSetting === undefined ? opened.kind === 'pglite' : seedSetting === '1';
	if (seed) await ensureDemoData(opened.db, { print: (line) => console.log(line) });
	setDatabase(opened);
	process.once('sveltekit:shutdown', () => void getDatabaseHandle().close());
	return opened;
}
