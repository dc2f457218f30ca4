import { afterEach, beforeEach, describe, inject } from 'vitest';
import { count, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { openDatabase, pgliteExtensions, type DatabaseHandle } from './client';
import { createScratchDatabase } from './scratch';

export type TestDbKind = 'pglite' | 'postgres';

/** The drivers database tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDbKinds(): TestDbKind[] {
	return inject('postgresTemplateUrl') ? ['pglite', 'postgres'] : ['pglite'];
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

/**
 * Database tests, once per driver: `describeEachDb('reviews', (h) => …)` runs the suite as
 * "reviews on pglite" (and "… on postgres" when TEST_DATABASE_URL is set), each test on a fresh
 * database of its own that is closed (and dropped) after it. `h` always is the current test's.
 */
export function describeEachDb(
	name: string,
	body: (h: DatabaseHandle, kind: TestDbKind) => void,
	options: { max?: number } = {}
): void {
	describe.each(testDbKinds())(`${name} on %s`, (kind) => {
		let current: DatabaseHandle | null = null;
		const h = new Proxy({} as DatabaseHandle, {
			get(_, property: keyof DatabaseHandle) {
				if (!current) throw new Error('The test database exists only inside a test.');
				return current[property];
			}
		});
		beforeEach(async () => {
			current = await createTestDb(kind, options);
		});
		afterEach(async () => {
			await current?.close();
			current = null;
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
