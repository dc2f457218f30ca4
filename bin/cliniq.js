#!/usr/bin/env node
// Entry of the `cliniq` organiser CLI. It runs the compiled CLI in build-cli/ (`npm run build:cli`,
// which `npm install` and `npm run build` run) while no source file it was compiled from has
// changed since; otherwise it runs the TypeScript sources through tsx (a few tenths of a second
// slower to start), so an edited checkout never runs stale code. Either way the CLI and the portal
// share one copy of the domain code.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.MIGRATIONS_DIR ??= resolve(root, 'drizzle');
process.env.DB_FUNCTIONS_DIR ??= resolve(root, 'src/lib/server/db/functions');

/** The compiled CLI's entry, when it exists and every source it was compiled from is older. */
function compiledEntry() {
	const out = join(root, 'build-cli');
	try {
		const { builtAt, inputs } = JSON.parse(readFileSync(join(out, 'inputs.json'), 'utf8'));
		for (const file of inputs) if (statSync(join(root, file)).mtimeMs > builtAt) return null;
		return pathToFileURL(join(out, 'cliniq.js')).href;
	} catch {
		return null; // not built, or a source was removed
	}
}

const entry = compiledEntry();
let main;
if (entry) ({ main } = await import(entry));
else {
	const { register } = await import('tsx/esm/api');
	// Resolve the project's path aliases ($lib, $scoring) wherever the command is run from.
	register({ tsconfig: resolve(root, 'tsconfig.json') });
	({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
