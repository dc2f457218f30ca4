// The database functions as source: one SQL file per feature in ./functions (`CREATE OR REPLACE
// FUNCTION …`, with the triggers that call them), applied after the schema migrations the way
// Flyway applies repeatable migrations: a file runs again whenever its text changes, and
// drizzle.__database_functions records the checksum each file was last applied with. The numbered
// migrations in drizzle/ hold schema changes only.
//
// Files run in name order, all changed ones in one transaction. CREATE OR REPLACE cannot change a
// function's argument or return types: a file that changes them begins with `DROP FUNCTION IF
// EXISTS <name>(<old argument types>);` for the old signature (dropping a function a trigger
// calls needs its trigger dropped first, and the file recreates both). A function that goes away
// gets such a drop line in its feature's file instead of its definition.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Sql, TransactionSql } from 'postgres';

/** The functions folder: DB_FUNCTIONS_DIR, else src/lib/server/db/functions of the working directory. */
export function functionsFolder(): string {
	return resolve(process.env.DB_FUNCTIONS_DIR || 'src/lib/server/db/functions');
}

export interface FunctionsFile {
	/** The file's name, e.g. `review.sql`: its key in the bookkeeping table. */
	name: string;
	text: string;
	/** SHA-256 of the text, hex. */
	checksum: string;
}

/** The `.sql` files of the functions folder, in name order (the order they are applied in). */
export function readFunctionsFiles(folder = functionsFolder()): FunctionsFile[] {
	if (!existsSync(folder)) throw new Error(`The database functions folder ${folder} is missing.`);
	return readdirSync(folder)
		.filter((f) => f.endsWith('.sql'))
		.sort()
		.map((name) => {
			const text = readFileSync(join(folder, name), 'utf8');
			return { name, text, checksum: createHash('sha256').update(text).digest('hex') };
		});
}

const TABLE = 'drizzle.__database_functions';
const CREATE_TABLE = `CREATE SCHEMA IF NOT EXISTS drizzle;
CREATE TABLE IF NOT EXISTS ${TABLE} (
	file text PRIMARY KEY,
	checksum text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`;
// Taken inside the transaction before the checksums are read again: two processes applying at
// once (outside the migration lock, e.g. benches) take turns, and the second finds nothing to do.
const LOCK_TABLE = `LOCK TABLE ${TABLE} IN SHARE ROW EXCLUSIVE MODE`;
const SELECT_APPLIED = `SELECT file, checksum FROM ${TABLE}`;
const RECORD = `INSERT INTO ${TABLE} (file, checksum) VALUES ($1, $2)
ON CONFLICT (file) DO UPDATE SET checksum = excluded.checksum, applied_at = now()`;

/** What this module needs of a `DatabaseHandle` (client.ts, which calls it: no import cycle). */
interface Handle {
	kind: 'postgres' | 'pglite';
	db: object;
}

/** The statements a transaction needs: a whole file (several statements) and parameterised ones. */
interface Runner {
	script(text: string): Promise<void>;
	rows<T>(text: string, params?: unknown[]): Promise<T[]>;
}

/**
 * Runs `work` in a transaction on the handle's own client: a file holds several statements,
 * which drizzle's `execute` cannot send on PGlite (one statement per prepared query).
 */
async function inTransaction<T>(handle: Handle, work: (run: Runner) => Promise<T>): Promise<T> {
	const client = (handle.db as unknown as { $client: unknown }).$client;
	if (handle.kind === 'postgres') {
		const result = await (client as Sql).begin((tx: TransactionSql) =>
			work({
				// No parameters: postgres.js sends the text with the simple protocol, several statements.
				script: async (text) => void (await tx.unsafe(text)),
				rows: async <R>(text: string, params: unknown[] = []) =>
					(await tx.unsafe(text, params as never[])) as unknown as R[]
			})
		);
		return result as T;
	}
	return (client as PGlite).transaction((tx: Transaction) =>
		work({
			script: async (text) => void (await tx.exec(text)),
			rows: async <R>(text: string, params: unknown[] = []) =>
				(await tx.query<R>(text, params)).rows
		})
	);
}

/**
 * Applies each functions file whose checksum differs from the one recorded (every file on a
 * database that has none recorded), in one transaction; returns the names of the files applied.
 * Runs after the schema migrations, inside the migration lock (`migrateDatabase`).
 */
export async function applyDatabaseFunctions(
	handle: Handle,
	folder = functionsFolder()
): Promise<string[]> {
	const files = readFunctionsFiles(folder);
	const changed = (applied: { file: string; checksum: string }[]) => {
		const recorded = new Map(applied.map((r) => [r.file, r.checksum]));
		return files.filter((f) => recorded.get(f.name) !== f.checksum);
	};
	return inTransaction(handle, async (run) => {
		await run.script(CREATE_TABLE);
		if (changed(await run.rows(SELECT_APPLIED)).length === 0) return [];
		await run.script(LOCK_TABLE);
		const due = changed(await run.rows(SELECT_APPLIED));
		for (const file of due) {
			try {
				await run.script(file.text);
			} catch (e) {
				throw new Error(`Applying the database functions in ${file.name} failed: ${String(e)}`, {
					cause: e
				});
			}
			await run.rows(RECORD, [file.name, file.checksum]);
		}
		return due.map((f) => f.name);
	});
}
