import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../src/lib/server/db/client';
import { createScratchDatabase, type ScratchDatabase } from '../src/lib/server/db/scratch';

declare module 'vitest' {
	export interface ProvidedContext {
		/** A migrated PGlite data dir (tar) that each test loads into a fresh in-memory database. */
		pgliteTemplate: string;
		/** A migrated PostgreSQL template database, when TEST_DATABASE_URL names a server. */
		postgresTemplateUrl: string | null;
	}
}

/** Migrates the schema once per run; tests then clone it cheaply. */
export default async function setup(project: TestProject) {
	const dir = mkdtempSync(join(tmpdir(), 'cliniq-test-'));
	const pglite = await openDatabase('pglite:memory');
	await migrateDatabase(pglite);
	// drizzle's PGlite session keeps the client at `$client`.
	const client = (pglite.db as unknown as { $client: import('@electric-sql/pglite').PGlite })
		.$client;
	const dump = await client.dumpDataDir('none');
	const path = join(dir, 'template.tar');
	writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
	await pglite.close();
	project.provide('pgliteTemplate', path);

	let template: ScratchDatabase | null = null;
	const serverUrl = process.env.TEST_DATABASE_URL;
	if (serverUrl) {
		template = await createScratchDatabase(serverUrl, { name: `cliniq_template_${process.pid}` });
		const handle = await openDatabase(template.url, { max: 1 });
		await migrateDatabase(handle);
		await handle.close();
	}
	const templateUrl = template?.url ?? null;
	project.provide('postgresTemplateUrl', templateUrl);

	return async () => {
		rmSync(dir, { recursive: true, force: true });
		await template?.drop();
	};
}
