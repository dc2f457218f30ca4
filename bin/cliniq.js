#!/usr/bin/env node
// Entry of the `cliniq` organiser CLI. It runs the compiled CLI in build-cli/ (`npm run build:cli`,
// which `npm install` and `npm run build` run) while no source file it was compiled from has
// changed since; otherwise, or with CLINIQ_CLI=tsx, it runs the TypeScript sources through tsx (a
// few seconds slower to start), so an edited checkout never runs stale code. CLINIQ_CLI=compiled
// runs the compiled CLI even if stale (the CLI bench, which compiles it first), and refuses to
// start without one. Either way the CLI and the portal share one copy of the domain code.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.MIGRATIONS_DIR ??= resolve(root, 'drizzle');
process.env.DB_FUNCTIONS_DIR ??= resolve(root, 'src/lib/server/db/functions');

/** The compiled CLI's entry, when it exists and every source it was compiled from is older. */
function compiledEntry() {
	const mode = process.env.CLINIQ_CLI;
	if (mode === 'tsx') return null;
	const out = join(root, 'build-cli');
	try {
		const { builtAt, inputs } = JSON.parse(readFileSync(join(out, 'inputs.json'), 'utf8'));
		if (mode !== 'compiled')
			for (const file of inputs) if (statSync(join(root, file)).mtimeMs > builtAt) return null;
		return pathToFileURL(join(out, 'cliniq.js')).href;
	} catch {
		return null; // not built, or a source was removed
	}
}

const entry = compiledEntry();
if (!entry && process.env.CLINIQ_CLI === 'compiled') {
	console.error('CLINIQ_CLI=compiled: there is no compiled CLI (npm run build:cli).');
	process.exit(1);
}
let main;
if (entry) ({ main } = await import(entry));
else {
	const { register } = await import('tsx/esm/api');
	// Resolve the project's path aliases ($lib, $scoring) wherever the command is run from.
	register({ tsconfig: resolve(root, 'tsconfig.json') });
	({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
