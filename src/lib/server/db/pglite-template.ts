// A migrated, empty embedded database kept as a tarball, so that a new PGlite folder is a copy
// (~1–2 s) instead of an initdb in WebAssembly plus every migration (~6–7 s on 2 cores). `npm
// install` writes it (`cliniq db template`, run by the `prepare` script); a portal creating a new
// folder uses it only when its key matches this checkout's migrations, database functions and
// PGlite version, and otherwise creates the folder the slow way. It is a cache: deleting it loses
// nothing.
import { createHash } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	writeFileSync
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { functionsFolder } from './functions';

/** Where the template lives: npm's conventional cache folder, beside the packages it depends on. */
export function templateFolder(): string {
	return resolve(process.env.PGLITE_TEMPLATE_DIR || 'node_modules/.cache/cliniq-portal');
}

/** The installed PGlite version: a template is only valid for the engine that wrote it. */
function pgliteVersion(): string {
	try {
		const require = createRequire(import.meta.url);
		const main = require.resolve('@electric-sql/pglite');
		let dir = dirname(main);
		while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
		return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string })
			.version;
	} catch {
		return 'unknown';
	}
}

/** The `.sql` files of a folder, in name order. */
function sqlFiles(folder: string): string[] {
	return readdirSync(folder)
		.filter((f) => f.endsWith('.sql'))
		.sort();
}

/**
 * SHA-256 of the PGlite version, every migration file and every database functions file: a
 * changed migration or function makes a new key.
 */
export function templateKey(migrations: string, functions = functionsFolder()): string {
	const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
	for (const f of sqlFiles(migrations))
		hash.update(`${f}\n`).update(readFileSync(join(migrations, f)));
	hash.update(readFileSync(join(migrations, 'meta', '_journal.json')));
	for (const f of sqlFiles(functions))
		hash.update(`functions/${f}\n`).update(readFileSync(join(functions, f)));
	return hash.digest('hex').slice(0, 16);
}

/** The template file for this checkout's migrations and functions. */
export function templatePath(migrations: string, functions = functionsFolder()): string {
	return join(templateFolder(), `pglite-${templateKey(migrations, functions)}.tar`);
}

/** The current template's bytes, or null when there is none for this checkout's schema. */
export function readTemplate(
	migrations: string,
	functions = functionsFolder()
): Uint8Array<ArrayBuffer> | null {
	try {
		const path = templatePath(migrations, functions);
		return existsSync(path) ? new Uint8Array(readFileSync(path)) : null;
	} catch {
		return null;
	}
}

/** Writes a template atomically (a partial file renamed), so a reader never sees half of one. */
export function saveTemplate(path: string, bytes: Uint8Array): void {
	mkdirSync(dirname(path), { recursive: true });
	const partial = `${path}.${process.pid}.partial`;
	writeFileSync(partial, bytes);
	renameSync(partial, path);
}
