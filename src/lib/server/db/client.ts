import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { applyDatabaseFunctions, functionsFolder } from './functions';
import { readTemplate } from './pglite-template';

export type Schema = typeof schema;
/** One query API over both drivers (postgres.js and PGlite). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; domain functions take `Db | Tx` so callers can compose them. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type DatabaseKind = 'postgres' | 'pglite';

export interface DatabaseHandle {
	db: Db;
	kind: DatabaseKind;
	/** Where the data lives, without credentials (safe to print). */
	location: string;
	/** PostgreSQL only: the connection URL, with credentials (never print it). */
	url?: string;
	/** Embedded only: opening it created the database (initdb ran, or the template was copied). */
	created?: boolean;
	/** Embedded only: a new database copied from the migrated install-time template. */
	fromTemplate?: boolean;
	close(): Promise<void>;
}

/** The embedded default when no DATABASE_URL is configured. */
export const DEFAULT_DATABASE_URL = 'pglite:./data/pglite';

/** Parses a database URL: postgres://… for a server, pglite:<dir> or pglite:memory for embedded. */
export function parseDatabaseUrl(url: string): { kind: DatabaseKind; target: string } {
	if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', target: url };
	if (url.startsWith('pglite:')) {
		const target = url.slice('pglite:'.length);
		if (!target)
			throw new Error('DATABASE_URL "pglite:" needs a folder, e.g. pglite:./data/pglite');
		return { kind: 'pglite', target };
	}
	throw new Error(
		'DATABASE_URL must start with postgres:// or postgresql:// (a server) or pglite: (embedded, e.g. pglite:./data/pglite or pglite:memory)'
	);
}

/** Removes the password from a postgres URL so it can be logged. */
export function redactUrl(url: string): string {
	try {
		const u = new URL(url);
		if (u.password) u.password = '***';
		return u.toString();
	} catch {
		return url.replace(/:\/\/[^@]*@/, '://***@');
	}
}

/** Opens the database named by `url` (default: DATABASE_URL, else the embedded folder). */
export async function openDatabase(
	url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
	options: {
		max?: number;
		/** Called with each statement sent to a PostgreSQL server (benches count round trips). */
		onQuery?: (statement: string) => void;
	} = {}
): Promise<DatabaseHandle> {
	const { kind, target } = parseDatabaseUrl(url);
	if (kind === 'postgres') {
		const { default: postgres } = await import('postgres');
		const { drizzle } = await import('drizzle-orm/postgres-js');
		const client = postgres(target, {
			max: options.max ?? 10,
			// Named prepared statements need a session of their own: off behind a PgBouncer in
			// transaction mode older than 1.21 (DATABASE_PREPARE=0).
			prepare: process.env.DATABASE_PREPARE !== '0',
			onnotice: () => {},
			...(options.onQuery
				? { debug: (_connection: number, statement: string) => options.onQuery!(statement) }
				: {}),
			connection: { application_name: 'cliniq-portal' }
		});
		const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Db;
		return {
			db,
			kind,
			location: redactUrl(target),
			url: target,
			close: () => client.end({ timeout: 5 })
		};
	}
	const { drizzle } = await import('drizzle-orm/pglite');
	const { client, release, created, fromTemplate } = await startEmbedded(
		target === 'memory' ? target : resolve(target)
	);
	const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Db;
	return {
		db,
		kind,
		location: target === 'memory' ? 'in memory' : resolve(target),
		created,
		fromTemplate,
		close: async () => {
			await client.close();
			release();
		}
	};
}

type Embedded = {
	client: import('@electric-sql/pglite').PGlite;
	release: () => void;
	created: boolean;
	fromTemplate?: boolean;
};

async function startEmbedded(target: string): Promise<Embedded> {
	const { PGlite } = await import('@electric-sql/pglite');
	const extensions = await pgliteExtensions();
	if (target === 'memory') {
		const client = new PGlite({ extensions });
		await client.waitReady;
		return { client, release: () => {}, created: true };
	}
	const created = !existsSync(join(target, 'PG_VERSION'));
	mkdirSync(target, { recursive: true });
	const release = lockFolder(target);
	// A new folder starts as a copy of the migrated template `npm install` wrote, when it matches
	// this checkout's migrations and functions (pglite-template.ts); otherwise initdb runs here.
	const template = created ? readTemplate(migrationsFolder(), functionsFolder()) : null;
	const client = new PGlite({
		dataDir: target,
		extensions,
		...(template ? { loadDataDir: new Blob([template]) } : {})
	});
	await client.waitReady;
	return { client, release, created, fromTemplate: template !== null };
}

/**
 * The PostgreSQL extensions the migrations create, as PGlite bundles them (PGlite must load an
 * extension's code when it opens, before `create extension` can run): pg_trgm for substring search.
 */
export async function pgliteExtensions() {
	const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
	return { pg_trgm };
}

/** How many migrations the database has recorded as applied (0 on a new database). */
async function appliedMigrations(handle: DatabaseHandle): Promise<number> {
	const { sql } = await import('drizzle-orm');
	const [table] = rowsOf<{ name: string | null }>(
		await handle.db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`)
	);
	if (!table?.name) return 0;
	const [row] = rowsOf<{ n: number | string }>(
		await handle.db.execute(sql`select count(*) as n from drizzle.__drizzle_migrations`)
	);
	return Number(row.n);
}

/**
 * Applies the generated SQL migrations in `drizzle/`, then the database functions files whose text
 * changed (functions.ts); returns how many migrations it applied. `functions` null applies the
 * migrations only.
 */
export async function migrateDatabase(
	handle: DatabaseHandle,
	folder = migrationsFolder(),
	functions: string | null = functionsFolder()
): Promise<number> {
	const before = await appliedMigrations(handle);
	if (handle.kind === 'postgres') {
		const { migrate } = await import('drizzle-orm/postgres-js/migrator');
		// eslint-disable-next-line @typescript-eslint/no-explicit-any
		await migrate(handle.db as any, { migrationsFolder: folder });
	} else {
		const { migrate } = await import('drizzle-orm/pglite/migrator');
		// eslint-disable-next-line @typescript-eslint/no-explicit-any
		await migrate(handle.db as any, { migrationsFolder: folder });
	}
	if (functions !== null) await applyDatabaseFunctions(handle, functions);
	return (await appliedMigrations(handle)) - before;
}

/** An arbitrary constant: the PostgreSQL advisory lock held while migrating and seeding. */
const MIGRATION_LOCK = 4_120_117_301;

/**
 * Runs `work` (migrations, the demo seed) holding the migration advisory lock on PostgreSQL, so
 * processes starting together take turns. The lock is transaction-scoped, taken in a transaction
 * kept open on a connection of its own while `work` runs on the handle's pool: a PgBouncer in
 * transaction mode keeps that one server connection for it, where a session lock could be left
 * on a server connection another client then reuses. PGlite serves one process: no lock.
 */
export async function underMigrationLock(
	handle: DatabaseHandle,
	work: () => Promise<unknown>
): Promise<void> {
	if (handle.kind !== 'postgres' || !handle.url) {
		await work();
		return;
	}
	const { default: postgres } = await import('postgres');
	const lockConnection = postgres(handle.url, {
		max: 1,
		onnotice: () => {},
		prepare: false,
		connection: { application_name: 'cliniq-portal-migrate' }
	});
	try {
		await lockConnection.begin(async (tx) => {
			await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
			await work();
		});
	} finally {
		await lockConnection.end({ timeout: 5 });
	}
}

/** The migrations folder: MIGRATIONS_DIR, else ./drizzle of the working directory. */
export function migrationsFolder(): string {
	return resolve(process.env.MIGRATIONS_DIR || 'drizzle');
}

/** Rows of a raw `db.execute()`: postgres.js returns an array, PGlite `{ rows }` (STACK.md). */
export function rowsOf<T>(result: unknown): T[] {
	if (Array.isArray(result)) return result as T[];
	return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * PGlite is single-process: a second process opening the same folder would corrupt it. A lock
 * file with the owner's pid turns that into a clear error.
 */
function lockFolder(dir: string): () => void {
	const lock = join(dir, '.cliniq.lock');
	try {
		const pid = Number(readFileSync(lock, 'utf8'));
		if (pid && pid !== process.pid && isAlive(pid)) {
			throw new Error(
				`The embedded database ${dir} is in use by process ${pid} (a running portal?). Stop it first, or use a PostgreSQL server with DATABASE_URL=postgres://…`
			);
		}
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
	}
	writeFileSync(lock, String(process.pid));
	return () => rmSync(lock, { force: true });
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return (e as NodeJS.ErrnoException).code === 'EPERM';
	}
}
