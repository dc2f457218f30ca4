import { afterEach, describe, expect, inject, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	cpSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import {
	migrateDatabase,
	migrationsFolder,
	openDatabase,
	rowsOf,
	type DatabaseHandle
} from './client';
import { applyDatabaseFunctions, functionsFolder, readFunctionsFiles } from './functions';
import { createScratchDatabase } from './scratch';
import { createTestDb, testDbKinds, type TestDbKind } from './testing';

/** The migrations as released before the functions moved out of them (only the files that changed). */
const BEFORE = resolve('tests/fixtures/migrations-before-functions');

/** Every function of the public schema that no extension owns: `name(arguments)` → definition. */
async function functionDefinitions(h: DatabaseHandle): Promise<Record<string, string>> {
	const rows = rowsOf<{ key: string; def: string }>(
		await h.db.execute(sql`
			select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as key,
				pg_get_functiondef(p.oid) as def
			from pg_proc p join pg_namespace n on n.oid = p.pronamespace
			where n.nspname = 'public' and not exists (select 1 from pg_depend d
				where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
			order by 1`)
	);
	return Object.fromEntries(rows.map((r) => [r.key, r.def]));
}

/** The user-defined triggers of the public schema, as their definitions. */
async function triggerDefinitions(h: DatabaseHandle): Promise<string[]> {
	return rowsOf<{ def: string }>(
		await h.db.execute(sql`
			select pg_get_triggerdef(t.oid) as def
			from pg_trigger t join pg_class c on c.oid = t.tgrelid
			join pg_namespace n on n.oid = c.relnamespace
			where not t.tgisinternal and n.nspname = 'public'
			order by t.tgname`)
	).map((r) => r.def);
}

async function recordedChecksums(h: DatabaseHandle): Promise<Record<string, string>> {
	const rows = rowsOf<{ file: string; checksum: string }>(
		await h.db.execute(sql`select file, checksum from drizzle.__database_functions`)
	);
	return Object.fromEntries(rows.map((r) => [r.file, r.checksum]));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(testDbKinds())('database functions on %s', (kind: TestDbKind) => {
	const cleanup: (() => Promise<void> | void)[] = [];
	afterEach(async () => {
		for (const done of cleanup.splice(0).reverse()) await done();
	});

	function tempDir(prefix: string): string {
		const dir = mkdtempSync(join(tmpdir(), prefix));
		cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
		return dir;
	}

	/** A new, empty database (no migrations), closed and dropped after the test. */
	async function emptyDb(): Promise<DatabaseHandle> {
		if (kind === 'pglite') {
			const h = await openDatabase('pglite:memory');
			cleanup.push(() => h.close());
			return h;
		}
		const scratch = await createScratchDatabase(inject('postgresTemplateUrl')!, {
			prefix: 'cliniq_t'
		});
		const h = await openDatabase(scratch.url, { max: 2 });
		cleanup.push(() => scratch.drop());
		cleanup.push(() => h.close());
		return h;
	}

	/** A database migrated from the test template (migrations and functions of this checkout). */
	async function migratedDb(): Promise<DatabaseHandle> {
		const h = await createTestDb(kind);
		cleanup.push(() => h.close());
		return h;
	}

	/**
	 * The migrations folder as released before the functions moved out: this checkout's, with the
	 * files that held functions as they were, and the journal cut after `last` entries.
	 */
	function migrationsBefore(last?: number): string {
		const dir = join(tempDir('cliniq-before-'), 'drizzle');
		cpSync(migrationsFolder(), dir, { recursive: true });
		for (const f of readdirSync(BEFORE)) copyFileSync(join(BEFORE, f), join(dir, f));
		if (last !== undefined) {
			const path = join(dir, 'meta', '_journal.json');
			const journal = JSON.parse(readFileSync(path, 'utf8')) as { entries: unknown[] };
			journal.entries = journal.entries.slice(0, last);
			writeFileSync(path, JSON.stringify(journal));
		}
		return dir;
	}

	it('defines every function of a migrated database in exactly one functions file, as that file creates it', async () => {
		const migrated = await migratedDb();
		const expected = await functionDefinitions(migrated);
		expect(Object.keys(expected).length).toBeGreaterThan(10);

		// The numbered migrations alone create no function and no trigger.
		const fresh = await emptyDb();
		await migrateDatabase(fresh, migrationsFolder(), null);
		expect(await functionDefinitions(fresh)).toEqual({});
		expect(await triggerDefinitions(fresh)).toEqual([]);

		// Each file, run on its own, creates exactly the functions it names and changes no other.
		for (const file of readFunctionsFiles()) {
			const dir = tempDir('cliniq-functions-');
			writeFileSync(join(dir, file.name), file.text);
			const before = await functionDefinitions(fresh);
			expect(await applyDatabaseFunctions(fresh, dir)).toEqual([file.name]);
			const after = await functionDefinitions(fresh);
			for (const [key, def] of Object.entries(before)) expect(after[key], key).toBe(def);
			const created = Object.keys(after)
				.filter((key) => !(key in before))
				.map((key) => key.slice(0, key.indexOf('(')))
				.sort();
			const named = [...file.text.matchAll(/^CREATE OR REPLACE FUNCTION (\w+)/gm)]
				.map((m) => m[1])
				.sort();
			expect(created, file.name).toEqual(named);
		}
		expect(await functionDefinitions(fresh)).toEqual(expected);
		expect(await triggerDefinitions(fresh)).toEqual(await triggerDefinitions(migrated));
	});

	it('upgrades a database migrated before the functions moved out to the same functions as a new one', async () => {
		const migrated = await migratedDb();
		const expected = await functionDefinitions(migrated);
		const triggers = await triggerDefinitions(migrated);

		// Migrated to the end by the migrations as released: the functions came from migrations.
		const released = await emptyDb();
		await migrateDatabase(released, migrationsBefore(), null);
		await released.db.execute(
			sql`insert into audit_event (action, object_type, object_id) values ('x', 'y', '1')`
		);
		expect(await migrateDatabase(released)).toBe(0);
		expect(await functionDefinitions(released)).toEqual(expected);
		expect(await triggerDefinitions(released)).toEqual(triggers);
		expect(Object.keys(await recordedChecksums(released)).sort()).toEqual(
			readFunctionsFiles().map((f) => f.name)
		);
		await expect(released.db.execute(sql`delete from audit_event`)).rejects.toThrow();

		// Migrated part of the way (before the passage wait redefined the review functions).
		const older = await emptyDb();
		const before = migrationsBefore(21);
		await migrateDatabase(older, before, null);
		const journal = JSON.parse(
			readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')
		) as { entries: unknown[] };
		expect(await migrateDatabase(older)).toBe(journal.entries.length - 21);
		expect(await functionDefinitions(older)).toEqual(expected);
		expect(await triggerDefinitions(older)).toEqual(triggers);
	});

	it('applies a functions file again when its text changes, and only then, all changes or none', async () => {
		const h = await migratedDb();
		const dir = join(tempDir('cliniq-functions-'), 'functions');
		cpSync(functionsFolder(), dir, { recursive: true });
		const edit = (name: string, change: (text: string) => string) =>
			writeFileSync(join(dir, name), change(readFileSync(join(dir, name), 'utf8')));
		const definition = async (key: string) => (await functionDefinitions(h))[key];

		expect(await migrateDatabase(h)).toBe(0);
		expect(await applyDatabaseFunctions(h, dir)).toEqual([]);

		edit('audit.sql', (t) => t.replace('is append-only: %', 'is append-only (changed): %'));
		expect(await applyDatabaseFunctions(h, dir)).toEqual(['audit.sql']);
		expect(await definition('audit_event_refuse_change()')).toContain('(changed)');
		expect((await recordedChecksums(h))['audit.sql']).toBe(
			sha256(readFileSync(join(dir, 'audit.sql'), 'utf8'))
		);
		expect(await applyDatabaseFunctions(h, dir)).toEqual([]);

		// A failing file leaves every file as it was, the ones applied before it included.
		const recorded = await recordedChecksums(h);
		edit('audit.sql', (t) => t.replace('(changed)', '(changed again)'));
		edit('review.sql', (t) => `${t}\nCREATE OR REPLACE FUNCTION broken( RETURNS;\n`);
		await expect(applyDatabaseFunctions(h, dir)).rejects.toThrow(/review\.sql/);
		expect(await definition('audit_event_refuse_change()')).not.toContain('changed again');
		expect(await recordedChecksums(h)).toEqual(recorded);
		copyFileSync(join(functionsFolder(), 'review.sql'), join(dir, 'review.sql'));

		// CREATE OR REPLACE cannot change a return type: the file drops the old function first.
		const sweep = 'study_sweep(p_study integer, p_now timestamp with time zone)';
		edit('study.sql', (t) =>
			t.replace(
				'CREATE OR REPLACE FUNCTION study_sweep(p_study integer, p_now timestamptz)\nRETURNS integer',
				'CREATE OR REPLACE FUNCTION study_sweep(p_study integer, p_now timestamptz)\nRETURNS bigint'
			)
		);
		await expect(applyDatabaseFunctions(h, dir)).rejects.toThrow(/return type/);
		edit('study.sql', (t) => `DROP FUNCTION IF EXISTS study_sweep(integer, timestamptz);\n${t}`);
		expect(await applyDatabaseFunctions(h, dir)).toEqual(['audit.sql', 'study.sql']);
		expect(await definition(sweep)).toContain('RETURNS bigint');
	});
});
