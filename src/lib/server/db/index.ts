import { ensureDemoData } from '../demo/seed';
import { recoverRuns } from '../domain/scoring-runs';
import { migrateDatabase, openDatabase, type DatabaseHandle, type Db } from './client';

let handle: DatabaseHandle | undefined;

/** Opens and migrates the app's database once at start-up; seeds demo data on first start. */
export async function initDatabase(): Promise<DatabaseHandle> {
	if (handle) return handle;
	const opened = await openDatabase();
	await migrateDatabase(opened);
	// Scoring runs execute inside this process; any left unfinished by a previous one are dead.
	const interrupted = await recoverRuns(opened.db);
	if (interrupted) console.warn(`${interrupted} unfinished scoring run(s) marked failed.`);
	const seedSetting = process.env.SEED_DEMO;
	const seed = seedSetting === undefined ? opened.kind === 'pglite' : seedSetting === '1';
	if (seed) await ensureDemoData(opened.db, { print: (line) => console.log(line) });
	handle = opened;
	process.once('sveltekit:shutdown', () => void opened.close());
	return opened;
}

/** The app's database; available once the server's init hook has run. */
export function getDb(): Db {
	if (!handle)
		throw new Error('The database is not initialised yet (initDatabase runs in the init hook).');
	return handle.db;
}

/** The open database handle (kind and location for the health check). */
export function getDatabaseHandle(): DatabaseHandle {
	if (!handle) throw new Error('The database is not initialised yet.');
	return handle;
}
