#!/usr/bin/env node
// Compiles the `cliniq` CLI (src/cli/main.ts and everything of the project it imports) into
// build-cli/, so `bin/cliniq.js` starts without compiling TypeScript at run time. Packages stay
// imports of node_modules; each dynamically imported command (stats, score, bench, the importers…)
// is a chunk of its own, loaded only when it runs. build-cli/inputs.json lists the source files and
// when the build began: bin/cliniq.js runs the bundle only while none of them is newer, and the
// sources through tsx otherwise, so an edited checkout never runs stale code.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'build-cli');
const posix = (p) => p.split(sep).join('/');

/**
 * A module that finds files beside itself (`import.meta.url`: the WordNet data, the bench's server
 * build) sees its source file's URL, not the chunk's: every chunk lies directly in build-cli/
 * (built beside it, at the same depth).
 */
const sourceUrls = {
	name: 'source-urls',
	setup(b) {
		b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
			if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
			const text = readFileSync(args.path, 'utf8');
			if (!text.includes('import.meta.url')) return undefined;
			const fromChunk = posix(relative(outdir, args.path));
			return {
				contents: text.replaceAll(
					'import.meta.url',
					`new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`
				),
				loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js'
			};
		});
	}
};

const builtAt = Date.now();
// Written beside build-cli/ and swapped in whole, so a CLI starting meanwhile finds one build.
const partial = join(root, `.build-cli-${process.pid}`);
rmSync(partial, { recursive: true, force: true });
const result = await build({
	absWorkingDir: root,
	entryPoints: { cliniq: 'src/cli/main.ts' },
	outdir: partial,
	bundle: true,
	splitting: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	packages: 'external',
	alias: { $lib: './src/lib', $scoring: './scoring/src' },
	// The aliases above stand for the tsconfig's paths (from .svelte-kit, which may not exist yet).
	tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
	sourcemap: 'linked',
	metafile: true,
	logLevel: 'warning',
	plugins: [sourceUrls]
}).catch((e) => {
	rmSync(partial, { recursive: true, force: true });
	throw e;
});
const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.startsWith('node_modules/'));
writeFileSync(join(partial, 'inputs.json'), JSON.stringify({ builtAt, inputs }));
const old = `${partial}-old`;
if (existsSync(outdir)) renameSync(outdir, old);
renameSync(partial, outdir);
rmSync(old, { recursive: true, force: true });
console.log(`Compiled the cliniq CLI into ${relative(root, outdir)}/ (${inputs.length} sources).`);
