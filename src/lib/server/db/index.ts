import type { DatabaseHandle, Db } from './client';

// The one database of this process, set once by the start-up module (startup.ts).
let handle: DatabaseHandle | undefined;

/** Makes `opened` the app's database (start-up only). */
export function setDatabase(opened: DatabaseHandle): void {
	handle = opened;
}

/** The app's database; available once the server's init hook has run. */
export function getDb(): Db {
	if (!handle)
		throw new Error('The database is not initialised yet (startApp runs in the init hook).');
	return handle.db;
}

/** The open database handle (kind and location for the health check). */
export function getDatabaseHandle(): DatabaseHandle {
	if (!handle) throw new Error('The database is not initialised yet.');
	return handle;
}
