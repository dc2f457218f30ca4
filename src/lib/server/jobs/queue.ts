// The background job queue: pg-boss on the app's database. On PostgreSQL every portal instance
// runs a queue client and workers, and any of them may take a job; on embedded PGlite the same
// code runs inside the one process, over the PGlite connection.
import PgBoss from 'pg-boss';
import type { PGlite } from '@electric-sql/pglite';
import type { DatabaseHandle, Db } from '../db/client';

export type JobQueue = PgBoss;

/** The schema pg-boss keeps its tables in (created and upgraded by pg-boss itself at start). */
export const JOBS_SCHEMA = 'pgboss';

export interface JobQueueOptions {
	/** Seconds between a worker's polls for new jobs (pg-boss' minimum is 0.5). */
	pollingIntervalSeconds?: number;
	/** Seconds between maintenance passes (expiry of stuck jobs, archiving). */
	maintenanceIntervalSeconds?: number;
}

/**
 * Starts the job queue on `handle`'s database: installs or upgrades pg-boss' schema (under an
 * advisory lock, so instances may start together) and runs its maintenance. PostgreSQL: a pool of
 * pg-boss' own (node-postgres, a few connections, unnamed statements only, so it works through a
 * transaction-pooling PgBouncer). PGlite: queries go through the app's PGlite connection.
 */
export async function startJobQueue(
	handle: DatabaseHandle,
	options: JobQueueOptions = {}
): Promise<JobQueue> {
	const connection: PgBoss.DatabaseOptions =
		handle.kind === 'postgres'
			? {
					connectionString: postgresUrl(handle),
					max: Number(process.env.JOBS_POOL_MAX ?? 3),
					application_name: 'cliniq-portal-jobs'
				}
			: { db: pgliteExecutor(handle.db) };
	const boss = new PgBoss({
		...connection,
		schema: JOBS_SCHEMA,
		migrate: true,
		supervise: true,
		schedule: false,
		maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
		pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2
	});
	boss.on('error', (e) => console.error('job queue:', e));
	await boss.start();
	return boss;
}

function postgresUrl(handle: DatabaseHandle): string {
	if (!handle.url)
		throw new Error('The PostgreSQL handle has no connection URL for the job queue.');
	return handle.url;
}

/**
 * pg-boss' database interface over PGlite. Statements with parameters go through `query`;
 * pg-boss' install scripts (several statements, no parameters) through `exec`.
 */
export function pgliteExecutor(db: Db): PgBoss.Db {
	const client = (db as unknown as { $client: PGlite }).$client;
	return {
		async executeSql(text: string, values?: unknown[]) {
			if (values && values.length) {
				const result = await client.query(text, values);
				return { rows: result.rows };
			}
			const results = await client.exec(text);
			return { rows: results.at(-1)?.rows ?? [] };
		}
	};
}
