import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
	appendFileSync,
	cpSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrateDatabase, migrationsFolder, openDatabase, rowsOf } from './client';
import { functionsFolder } from './functions';
import { saveTemplate, templateKey, templatePath } from './pglite-template';

describe('the migrated template new embedded databases copy', () => {
	let dir: string;
	const before = process.env.PGLITE_TEMPLATE_DIR;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'cliniq-template-'));
		process.env.PGLITE_TEMPLATE_DIR = join(dir, 'cache');
	});
	afterEach(() => {
		if (before === undefined) delete process.env.PGLITE_TEMPLATE_DIR;
		else process.env.PGLITE_TEMPLATE_DIR = before;
		rmSync(dir, { recursive: true, force: true });
	});

	it('keys the template by every migration file: a changed migration makes a new key', () => {
		const copy = join(dir, 'drizzle');
		cpSync(migrationsFolder(), copy, { recursive: true });
		const key = templateKey(copy);
		expect(key).toBe(templateKey(migrationsFolder()));
		appendFileSync(
			join(
				copy,
				readdirSync(copy).find((f) => f.endsWith('.sql'))!
			),
			'\n-- changed\n'
		);
		expect(templateKey(copy)).not.toBe(key);
	});

	it('keys the template by every database functions file too', () => {
		const copy = join(dir, 'functions');
		cpSync(functionsFolder(), copy, { recursive: true });
		const key = templateKey(migrationsFolder(), copy);
		expect(key).toBe(templateKey(migrationsFolder()));
		appendFileSync(join(copy, 'review.sql'), '\n-- changed\n');
		expect(templateKey(migrationsFolder(), copy)).not.toBe(key);
	});

	it('creates a new folder from the template, migrated, and reopens it as a database of its own', async () => {
		// The vitest set-up's migrated dump is exactly what `cliniq db template` writes.
		const bytes = readFileSync(inject('pgliteTemplate'));
		saveTemplate(templatePath(migrationsFolder()), bytes);
		expect(existsSync(templatePath(migrationsFolder()))).toBe(true);

		const folder = join(dir, 'data');
		const handle = await openDatabase(`pglite:${folder}`);
		try {
			expect(handle.created).toBe(true);
			expect(handle.fromTemplate).toBe(true);
			expect(await migrateDatabase(handle)).toBe(0);
			await handle.db.execute(sql`insert into dataset (name) values ('from-template')`);
		} finally {
			await handle.close();
		}
		const again = await openDatabase(`pglite:${folder}`);
		try {
			expect(again.created).toBe(false);
			expect(again.fromTemplate).toBe(false);
			const rows = rowsOf<{ n: number }>(
				await again.db.execute(
					sql`select count(*)::int as n from dataset where name = 'from-template'`
				)
			);
			expect(rows[0].n).toBe(1);
		} finally {
			await again.close();
		}
	});

	it('runs initdb when no template matches the migrations', async () => {
		const handle = await openDatabase(`pglite:${join(dir, 'data')}`);
		try {
			expect(handle.created).toBe(true);
			expect(handle.fromTemplate).toBe(false);
			expect(await migrateDatabase(handle)).toBeGreaterThan(20);
		} finally {
			await handle.close();
		}
	});
});
