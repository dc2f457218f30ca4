import { afterAll, afterEach, beforeEach, describe, inject } from 'vitest';
import { count, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { openDatabase, pgliteExtensions, type DatabaseHandle } from './client';
import { createScratchDatabase } from './scratch';

export type TestDbKind = 'pglite' | 'postgres';

/** The drivers database tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDbKinds(): TestDbKind[] {
	return inject('postgresTemplateUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/** Why a test that needs a PostgreSQL server cannot run, or null when one is configured. */
export function postgresUnmet(): string | null {
	return hasPostgres()
		? null
		: 'needs a PostgreSQL server (set TEST_DATABASE_URL); PGlite runs one statement at a time';
}

/** Whether a real PostgreSQL server is configured for tests. */
export function hasPostgres(): boolean {
	return Boolean(inject('postgresTemplateUrl'));
}

/**
 * A fresh, migrated database of its own for one test: a copy of the template the global setup
 * migrated once (PGlite: a loaded data dir; PostgreSQL: CREATE DATABASE … TEMPLATE).
 */
export async function createTestDb(
	kind: TestDbKind,
	options: { max?: number } = {}
): Promise<DatabaseHandle> {
	if (kind === 'pglite') {
		const { PGlite } = await import('@electric-sql/pglite');
		const { drizzle } = await import('drizzle-orm/pglite');
		const schema = await import('./schema');
		const { readFile } = await import('node:fs/promises');
		const dump = await readFile(inject('pgliteTemplate'));
		const client = new PGlite({
			loadDataDir: new Blob([dump]),
			extensions: await pgliteExtensions()
		});
		await client.waitReady;
		return {
			db: drizzle(client, { schema, casing: 'snake_case' }) as unknown as DatabaseHandle['db'],
			kind: 'pglite',
			location: 'in memory (test)',
			close: () => client.close()
		};
	}
	const templateUrl = inject('postgresTemplateUrl');
	if (!templateUrl) throw new Error('TEST_DATABASE_URL is not set; PostgreSQL tests cannot run.');
	const scratch = await createScratchDatabase(templateUrl, {
		prefix: 'cliniq_t',
		template: new URL(templateUrl).pathname.slice(1)
	});
	const handle = await openDatabase(scratch.url, options);
	return {
		...handle,
		close: async () => {
			await handle.close();
			await scratch.drop();
		}
	};
}

/** What a database looks like to a test: its objects, their definitions, and the migrations. */
const FINGERPRINT = `
	select md5(coalesce(string_agg(x, ',' order by x), '')) as fingerprint from (
		select 'c:' || c.oid::regclass::text || ':' || c.relkind::text || ':' || c.relnatts
		from pg_class c join pg_namespace n on n.oid = c.relnamespace
		where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
			and n.nspname not like 'pg\\_%'
		union all
		select 'p:' || p.oid::regprocedure::text || ':' || md5(p.prosrc) || ':' || p.provolatile::text
		from pg_proc p join pg_namespace n on n.oid = p.pronamespace
		where n.nspname not in ('pg_catalog', 'information_schema')
		union all
		select 't:' || tgrelid::regclass::text || ':' || tgname || ':' || tgenabled::text from pg_trigger
		union all
		select 'k:' || conrelid::regclass::text || ':' || conname || ':' || convalidated
		from pg_constraint c join pg_namespace n on n.oid = c.connamespace
		where n.nspname not in ('pg_catalog', 'information_schema')
		union all
		select 'a:' || a.attrelid::regclass::text || ':' || a.attname || ':' || a.atttypid || ':'
			|| a.attnotnull || ':' || a.atthasdef || ':' || a.attisdropped
		from pg_attribute a join pg_class c on c.oid = a.attrelid
			join pg_namespace n on n.oid = c.relnamespace
		where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
			and n.nspname not like 'pg\\_%' and a.attnum > 0
		union all
		select 'e:' || extname || ':' || extversion from pg_extension
		union all
		select 'n:' || nspname from pg_namespace
		union all
		select 'm:' || (select count(*) from drizzle.__drizzle_migrations)::text
	) s(x)`;

/** The tables and sequences a reset empties and restarts (drizzle's bookkeeping stays). */
const CONTENTS = `
	select
		coalesce(string_agg(format('%I.%I', schemaname, tablename), ', '), '') as tables,
		(select coalesce(string_agg(format('alter sequence %I.%I restart', schemaname, sequencename), '; '), '')
			from pg_sequences where schemaname <> 'drizzle') as sequences
	from pg_tables
	where schemaname not in ('pg_catalog', 'information_schema', 'drizzle')`;

/**
 * Empties every table (drizzle's bookkeeping stays). DELETE is about eight times faster than
 * TRUNCATE on a test's few rows (no new files for every table and index), but keeps the planner's
 * row estimate of a table a test analysed, which the next test would see (an "about n rows" count
 * of an empty table): such a table is truncated, which resets it as a new table has it.
 */
const EMPTY_TABLES = `
	do $$
	declare r record;
	begin
		for r in
			select c.oid::regclass::text as name, (c.reltuples >= 0 or c.relpages > 0) as analysed
			from pg_class c join pg_namespace n on n.oid = c.relnamespace
			where c.relkind in ('r', 'p')
				and n.nspname not in ('pg_catalog', 'information_schema', 'drizzle')
				and n.nspname not like 'pg\\_%'
		loop
			if r.analysed then execute 'truncate ' || r.name || ' cascade';
			else execute 'delete from ' || r.name;
			end if;
		end loop;
	end $$`;

/** Runs statements on a test database, whichever driver it is on. */
type Exec = (statements: string) => Promise<Record<string, unknown>[]>;

/**
 * A database a test file's tests take turns on. Loading a fresh copy of the template for every
 * test is the costliest step of the suite (about a second on PGlite); instead, between tests the
 * copy is put back into the template's state: every table emptied (with triggers off, so the
 * append-only audit table allows it and foreign keys do not dictate an order), every sequence restarted, every session setting,
 * temporary table, prepared statement and advisory lock discarded. A test that changed the
 * schema itself (a table, column, function, trigger, constraint, extension, schema or migration
 * row differs from the template's) gets a fresh copy instead, as does one that closed its handle.
 * A template that holds rows is never reused (a reset would lose them).
 */
interface Reusable {
	/** Puts the database back in the template's state; false when it cannot be (load a new one). */
	reset(): Promise<boolean>;
	dispose(): Promise<void>;
}

async function reusable(exec: Exec): Promise<Reusable | null> {
	const [{ fingerprint }] = (await exec(FINGERPRINT)) as { fingerprint: string }[];
	const [{ tables, sequences }] = (await exec(CONTENTS)) as { tables: string; sequences: string }[];
	if (tables) {
		const counts = tables
			.split(', ')
			.map((t) => `(select count(*) from ${t})`)
			.join(' + ');
		const [{ n }] = (await exec(`select (${counts})::int as n`)) as { n: number }[];
		if (Number(n) !== 0) return null;
	}
	return {
		async reset() {
			try {
				const [now] = (await exec(FINGERPRINT)) as { fingerprint: string }[];
				if (now.fingerprint !== fingerprint) return false;
				await exec(
					[
						'set session_replication_role = replica',
						EMPTY_TABLES,
						sequences,
						'set session_replication_role = default'
					]
						.filter(Boolean)
						.join('; ')
				);
				await exec('discard all');
				return true;
			} catch {
				return false;
			}
		},
		dispose: async () => {}
	};
}

/** One PGlite copy of the template that a test file's tests take turns on (see `Reusable`). */
async function pgliteTurns() {
	const { PGlite } = await import('@electric-sql/pglite');
	const { drizzle } = await import('drizzle-orm/pglite');
	const schema = await import('./schema');
	const { readFile } = await import('node:fs/promises');
	let client: import('@electric-sql/pglite').PGlite | null = null;
	let state: Reusable | null = null;
	let closedByTest = false;
	const exec: Exec = async (statements) => {
		const results = await client!.exec(statements);
		return results.at(-1)?.rows ?? [];
	};
	const load = async () => {
		const dump = await readFile(inject('pgliteTemplate'));
		client = new PGlite({ loadDataDir: new Blob([dump]), extensions: await pgliteExtensions() });
		await client.waitReady;
		closedByTest = false;
		state = await reusable(exec);
	};
	const drop = async () => {
		if (client && !client.closed) await client.close();
		client = null;
		state = null;
	};
	return {
		/** A handle on a database in the template's state; a new drizzle instance every time. */
		async next(): Promise<DatabaseHandle> {
			await client?.exec('rollback').catch(() => {});
			const ready = client && !closedByTest && !client.closed && state && (await state.reset());
			if (!ready) {
				await drop();
				await load();
			}
			const own = client!;
			return {
				db: drizzle(own, { schema, casing: 'snake_case' }) as unknown as DatabaseHandle['db'],
				kind: 'pglite',
				location: 'in memory (test)',
				close: async () => {
					closedByTest = true;
					await own.close();
				}
			};
		},
		async after(handle: DatabaseHandle | null) {
			void handle;
			if (closedByTest) await drop();
		},
		dispose: drop
	};
}

/** One PostgreSQL copy of the template that a test file's tests take turns on (see `Reusable`). */
async function postgresTurns(options: { max?: number }) {
	const templateUrl = inject('postgresTemplateUrl');
	if (!templateUrl) throw new Error('TEST_DATABASE_URL is not set; PostgreSQL tests cannot run.');
	const { default: postgres } = await import('postgres');
	let scratch: import('./scratch').ScratchDatabase | null = null;
	let admin: import('postgres').Sql | null = null;
	let state: Reusable | null = null;
	const exec: Exec = async (statements) => {
		const results = (await admin!.unsafe(statements).simple()) as unknown as
			Record<string, unknown>[] | Record<string, unknown>[][];
		const last = Array.isArray(results[0]) ? (results as unknown[]).at(-1) : results;
		return (last as Record<string, unknown>[]) ?? [];
	};
	const load = async () => {
		scratch = await createScratchDatabase(templateUrl, {
			prefix: 'cliniq_t',
			template: new URL(templateUrl).pathname.slice(1)
		});
		// A single connection of its own resets the database; a short lock timeout turns a
		// connection a test left holding locks into a new copy, never a hang.
		admin = postgres(scratch.url, {
			max: 1,
			onnotice: () => {},
			connection: { lock_timeout: 2000 }
		});
		state = await reusable(exec);
	};
	const drop = async () => {
		await admin?.end({ timeout: 5 });
		admin = null;
		await scratch?.drop();
		scratch = null;
		state = null;
	};
	return {
		async next(): Promise<DatabaseHandle> {
			const ready = scratch && state && (await state.reset());
			if (!ready) {
				await drop();
				await load();
			}
			// The test's own pool: closing it after the test ends every session it opened.
			return openDatabase(scratch!.url, options);
		},
		async after(handle: DatabaseHandle | null) {
			await handle?.close().catch(() => {});
		},
		dispose: drop
	};
}

/**
 * Database tests, once per driver: `describeEachDb('reviews', (h) => …)` runs the suite as
 * "reviews on pglite" (and "… on postgres" when TEST_DATABASE_URL is set), each test on a
 * database in the migrated template's state of its own (see `Reusable`: the file's copy, put
 * back between tests). `h` always is the current test's.
 */
export function describeEachDb(
	name: string,
	body: (h: DatabaseHandle, kind: TestDbKind) => void,
	options: { max?: number } = {}
): void {
	describe.each(testDbKinds())(`${name} on %s`, (kind) => {
		let current: DatabaseHandle | null = null;
		let turns: Awaited<ReturnType<typeof pgliteTurns>> | null = null;
		const h = new Proxy({} as DatabaseHandle, {
			get(_, property: keyof DatabaseHandle) {
				if (!current) throw new Error('The test database exists only inside a test.');
				return current[property];
			}
		});
		beforeEach(async () => {
			turns ??= kind === 'pglite' ? await pgliteTurns() : await postgresTurns(options);
			current = await turns.next();
		});
		afterEach(async () => {
			await turns?.after(current);
			current = null;
		});
		afterAll(async () => {
			await turns?.dispose();
			turns = null;
		});
		body(h, kind);
	});
}

/**
 * The number of rows of every table in the schema, by table name: a test compares two of these
 * to prove a refused write changed nothing, or an accepted one added exactly what it should.
 */
export async function countAllRows(db: DatabaseHandle['db']): Promise<Record<string, number>> {
	const schema = await import('./schema');
	const tables = (Object.values(schema) as unknown[]).filter((t): t is PgTable => is(t, PgTable));
	const counts: Record<string, number> = {};
	for (const table of tables) {
		const [row] = await db.select({ n: count() }).from(table);
		counts[getTableName(table)] = row.n;
	}
	return counts;
}
