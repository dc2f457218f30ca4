import { inject } from 'vitest';
import { randomId } from '../ids';
import { openDatabase, type DatabaseHandle } from './client';

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
		const client = new PGlite({ loadDataDir: new Blob([dump]) });
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
	const { default: postgres } = await import('postgres');
	const admin = postgres(adminUrl(templateUrl), { max: 1, onnotice: () => {} });
	const name = `cliniq_t_${randomId(10)}`;
	await admin.unsafe(`create database ${name} template ${new URL(templateUrl).pathname.slice(1)}`);
	await admin.end();
	const url = new URL(templateUrl);
	url.pathname = `/${name}`;
	const handle = await openDatabase(url.toString(), options);
	return {
		...handle,
		close: async () => {
			await handle.close();
			const dropper = postgres(adminUrl(templateUrl), { max: 1, onnotice: () => {} });
			await dropper.unsafe(`drop database if exists ${name} with (force)`);
			await dropper.end();
		}
	};
}

/** The maintenance database URL of the same server (to create and drop test databases). */
export function adminUrl(url: string): string {
	const u = new URL(url);
	u.pathname = '/postgres';
	return u.toString();
}
