// The README is checked against the tree: every path it names exists, and every environment
// variable the code reads is in its Configuration table. A README that drifts fails the suite.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(import.meta.dirname, '../..'));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

const TOP_LEVEL =
	/^(package\.json|tsconfig\.json|Dockerfile|compose\.yaml|[a-z]+\.config\.(ts|js))$/;
const REPO_DIRS = /^(src|scoring|tests|drizzle|docs|scripts|static|bin|\.ci)\//;

/** The repository paths a Markdown text names: relative links and backticked paths. */
export function pathsNamed(markdown: string): string[] {
	const out = new Set<string>();
	// `[text](<path with (parentheses)>)` or `[text](path)`
	for (const m of markdown.matchAll(/\]\(<([^>]+)>\)|\]\(([^)\s]+)\)/g)) {
		const target = (m[1] ?? m[2]).split('#')[0];
		if (target && !/^[a-z]+:/i.test(target)) out.add(target);
	}
	for (const m of markdown.matchAll(/`([^`\s]+)`/g)) {
		const token = m[1].replace(/[.,;:]+$/, '');
		if (/[<>…*{}$|]/.test(token)) continue; // placeholders and patterns, not paths
		if (REPO_DIRS.test(token) || TOP_LEVEL.test(token)) out.add(token);
	}
	return [...out];
}

/** The environment variables a source text reads. */
export function variablesRead(source: string): string[] {
	const out = new Set<string>();
	for (const m of source.matchAll(
		/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g
	))
		out.add(m[1] ?? m[2]);
	// A variable named through a constant: `const SAMPLE_DIR_VAR = 'CLINIQLINK_SAMPLE_DIR'`.
	for (const m of source.matchAll(/_VAR\s*=\s*['"]([A-Z][A-Z0-9_]*)['"]/g)) out.add(m[1]);
	return [...out];
}

/** Variables a shell script lets its caller set: `${NAME:-default}` or `${NAME-default}`. */
export function shellVariablesRead(script: string): string[] {
	return [...script.matchAll(/\$\{([A-Z][A-Z0-9_]*):?-/g)].map((m) => m[1]);
}

/** The variables of the README's Configuration table (first column, backticked). */
export function configuredVariables(markdown: string): Set<string> {
	const section = markdown.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? '';
	const out = new Set<string>();
	for (const line of section.split('\n').filter((l) => l.startsWith('|'))) {
		const first = line.split('|')[1] ?? '';
		for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) out.add(m[1]);
	}
	return out;
}

// Read by the platform or set by our own scripts for themselves, not by users.
const NOT_CONFIGURATION: Record<string, string> = {
	NODE_ENV: 'set by Vite and Node tooling',
	CI: 'set by CI systems; .ci/run sets it',
	PW_JSON_OUTPUT: 'scripts/test-all.js passes it to playwright.config.ts for its own report'
};

function walk(dir: string, out: string[] = []): string[] {
	if (!existsSync(join(ROOT, dir))) return out;
	for (const name of readdirSync(join(ROOT, dir))) {
		const path = join(dir, name);
		// This file names made-up variables to show that the rules find them.
		if (name === 'node_modules' || name === 'data' || name === 'readme.test.ts') continue;
		if (statSync(join(ROOT, path)).isDirectory()) walk(path, out);
		else if (/\.(ts|js|svelte)$/.test(name)) out.push(path);
	}
	return out;
}

describe('the README', () => {
	it('names only paths that exist', () => {
		const missing = pathsNamed(README).filter((p) => !existsSync(join(ROOT, p)));
		expect(missing).toEqual([]);
	});

	it('documents every environment variable the code reads', () => {
		const sources = [
			...['src', 'scoring/src', 'tests', 'scripts', 'bin'].flatMap((d) => walk(d)),
			'playwright.config.ts',
			'vite.config.ts',
			'svelte.config.js',
			'drizzle.config.ts'
		];
		const read = new Set(
			sources.flatMap((f) => variablesRead(readFileSync(join(ROOT, f), 'utf8')))
		);
		for (const v of shellVariablesRead(readFileSync(join(ROOT, '.ci/run'), 'utf8'))) read.add(v);
		const documented = configuredVariables(README);
		const missing = [...read].filter((v) => !documented.has(v) && !(v in NOT_CONFIGURATION));
		expect(missing.sort()).toEqual([]);
		expect(read.size).toBeGreaterThan(8);
	});

	it('gives the two commands of a fresh machine', () => {
		expect(README).toContain('npm install && npm run dev');
		expect(README).toMatch(/^npm test\b/m);
	});

	it('is checked by rules that find what is wrong', () => {
		expect(
			pathsNamed('see [`x`](src/nope.ts) and `docs/none.md`, not `<id>` or [site](https://a.b)')
		).toEqual(['src/nope.ts', 'docs/none.md']);
		expect(
			variablesRead("process.env.NOPE_VAR; process.env['OTHER']; const X_VAR = 'THIRD';")
		).toEqual(['NOPE_VAR', 'OTHER', 'THIRD']);
		expect(shellVariablesRead('PG_URL=${CI_POSTGRES_URL:-postgres://x}; echo $HOME')).toEqual([
			'CI_POSTGRES_URL'
		]);
		expect([
			...configuredVariables('## Configuration\n\n| `A`, `B` | x |\n\n## Next\n| `C` |')
		]).toEqual(['A', 'B']);
	});
});
