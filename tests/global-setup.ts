import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../src/lib/server/db/client';

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
	const { PGlite } = await import('@electric-sql/pglite');
	void PGlite;
	// drizzle's PGlite session keeps the client at `$client`.
	const client = (pglite.db as unknown as { $client: import('@electric-sql/pglite').PGlite })
		.$client;
	const dump = await client.dumpDataDir('none');
	const path = join(dir, 'template.tar');
	writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
	await pglite.close();
	project.provide('pgliteTemplate', path);

	let templateUrl: string | null = null;
	const serverUrl = process.env.TEST_DATABASE_URL;
	if (serverUrl) {
		const { default: postgres } = await import('postgres');
		const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
		const name = `cliniq_template_${process.pid}`;
		await admin.unsafe(`drop database if exists ${name} with (force)`);
		await admin.unsafe(`create database ${name}`);
		await admin.end();
		const u = new URL(serverUrl);
		u.pathname = `/${name}`;
		templateUrl = u.toString();
		const handle = await openDatabase(templateUrl, { max: 1 });
		await migrateDatabase(handle);
		await handle.close();
	}
	project.provide('postgresTemplateUrl', templateUrl);

	return async () => {
		rmSync(dir, { recursive: true, force: true });
		if (serverUrl && templateUrl) {
			const { default: postgres } = await import('postgres');
			const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
			await admin.unsafe(
				`drop database if exists ${new URL(templateUrl).pathname.slice(1)} with (force)`
			);
			await admin.end();
		}
	};
}
