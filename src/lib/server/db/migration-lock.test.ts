import { describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	migrateDatabase,
	migrationsFolder,
	openDatabase,
	rowsOf,
	underMigrationLock
} from './client';
import { readFunctionsFiles } from './functions';
import { createScratchDatabase } from './scratch';
import { hasPostgres, postgresUnmet } from './testing';
import { skippedTitle } from '$scoring/testing/skip';
import { sql } from 'drizzle-orm';

describe.skipIf(!hasPostgres())(
	skippedTitle('migrations when instances start together (PostgreSQL)', postgresUnmet()),
	() => {
		it('applies each migration and functions file once while four processes migrate an empty database at once', async () => {
			const server = inject('postgresTemplateUrl')!;
			const empty = await createScratchDatabase(server, { prefix: 'cliniq_t' });
			const handles = await Promise.all(
				Array.from({ length: 4 }, () => openDatabase(empty.url, { max: 2 }))
			);
			try {
				await Promise.all(handles.map((h) => underMigrationLock(h, () => migrateDatabase(h))));
				const journal = JSON.parse(
					readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')
				) as { entries: unknown[] };
				const applied = rowsOf<{ n: number }>(
					await handles[0].db.execute(
						sql`select count(*)::int as n from drizzle.__drizzle_migrations`
					)
				);
				expect(applied[0].n).toBe(journal.entries.length);
				const functions = rowsOf<{ n: number }>(
					await handles[0].db.execute(
						sql`select count(*)::int as n from drizzle.__database_functions`
					)
				);
				expect(functions[0].n).toBe(readFunctionsFiles().length);
			} finally {
				for (const h of handles) await h.close();
				await empty.drop();
			}
		});
	}
);
