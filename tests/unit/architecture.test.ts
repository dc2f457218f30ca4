// The layering rules of the codebase, checked on the import graph of every source file:
// data layer → domain → routes, never upward; no import cycles; the scorer only through its
// package entry; fixtures only in tests and benches.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(import.meta.dirname, '../..'));
const EXTENSIONS = ['', '.ts', '.js', '.svelte', '/index.ts', '/index.js'];
const ALIASES: Record<string, string> = { $lib: 'src/lib', $scoring: 'scoring/src' };

function walk(dir: string, out: string[] = []): string[] {
	for (const name of readdirSync(join(ROOT, dir))) {
		const path = join(dir, name);
		if (statSync(join(ROOT, path)).isDirectory()) walk(path, out);
		else if (/\.(ts|js|svelte)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
	}
	return out;
}

const files = [...walk('src'), ...walk('scoring/src'), ...walk('tests')];
const known = new Set(files);

/** Every import specifier of a file (static, dynamic, re-export, type-only). */
function specifiers(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8');
	const out: string[] = [];
	const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;
	for (const m of text.matchAll(re)) out.push(m[2]);
	return out;
}

function resolveSpecifier(from: string, spec: string): string | null {
	let base: string | null = null;
	if (spec.startsWith('.')) base = join(dirname(from), spec);
	for (const [alias, target] of Object.entries(ALIASES))
		if (spec === alias || spec.startsWith(alias + '/')) base = target + spec.slice(alias.length);
	if (base === null) return null;
	for (const ext of EXTENSIONS) if (known.has(normalize(base + ext))) return normalize(base + ext);
	return null;
}

const graph = new Map<string, { spec: string; target: string | null }[]>();
for (const f of files)
	graph.set(
		f,
		specifiers(f).map((spec) => ({ spec, target: resolveSpecifier(f, spec) }))
	);

function importsOf(prefix: string) {
	return [...graph]
		.filter(([f]) => f.startsWith(prefix))
		.flatMap(([f, deps]) => deps.map((d) => ({ from: f, ...d })));
}

function violations(prefix: string, forbidden: (target: string, spec: string) => boolean) {
	return importsOf(prefix)
		.filter((d) => forbidden(d.target ?? '', d.spec))
		.map((d) => `${d.from} → ${d.spec}`);
}

describe('architecture', () => {
	it('resolves every relative and aliased import to a file (the graph below is complete)', () => {
		const unresolved = [...graph]
			.flatMap(([f, deps]) => deps.map((d) => ({ f, ...d })))
			// Kit's generated ./$types and non-code assets (CSS, JSON) are not part of the graph.
			.filter((d) => d.target === null && /^(\.|\$lib|\$scoring)/.test(d.spec))
			.filter((d) => !d.spec.endsWith('$types') && !/\.(css|json)$/.test(d.spec))
			.map((d) => `${d.f} → ${d.spec}`);
		expect(unresolved).toEqual([]);
	});

	it('has no import cycle', () => {
		const cycles: string[] = [];
		const state = new Map<string, 'open' | 'done'>();
		const stack: string[] = [];
		const visit = (f: string) => {
			state.set(f, 'open');
			stack.push(f);
			for (const { target } of graph.get(f) ?? []) {
				if (!target) continue;
				if (state.get(target) === 'open')
					cycles.push([...stack.slice(stack.indexOf(target)), target].join(' → '));
				else if (!state.has(target)) visit(target);
			}
			stack.pop();
			state.set(f, 'done');
		};
		for (const f of files) if (!state.has(f)) visit(f);
		expect(cycles).toEqual([]);
	});

	it('keeps the data layer below the domain, and both below routes, hooks and the CLI', () => {
		const upward = (t: string) =>
			/^src\/(routes|cli|hooks)/.test(t) ||
			t.startsWith('src/lib/server/startup') ||
			t.startsWith('src/lib/components');
		expect(
			violations('src/lib/server/db/', (t) => upward(t) || t.startsWith('src/lib/server/domain/'))
		).toEqual([]);
		expect(violations('src/lib/server/domain/', upward)).toEqual([]);
		expect(violations('src/lib/', (t) => /^src\/(routes|cli)\//.test(t))).toEqual([]);
	});

	it('keeps components, routes and client code away from the database client', () => {
		const db = (t: string) => t.startsWith('src/lib/server/db/client');
		expect(violations('src/routes/', db)).toEqual([]);
		expect(violations('src/lib/components/', (t) => t.startsWith('src/lib/server/'))).toEqual([]);
	});

	it('reaches the scorer only through its package entry, and the scorer imports nothing of the app', () => {
		// The package's entries: the scorer, its CLI and bench, and (for tests) the sample lookup.
		const entries = new Set([
			'$scoring',
			'$scoring/cli',
			'$scoring/bench',
			'$scoring/testing/sample-dir'
		]);
		const outside = [...graph]
			.filter(([f]) => !f.startsWith('scoring/'))
			.flatMap(([f, deps]) => deps.map((d) => ({ f, ...d })))
			.filter((d) => d.target?.startsWith('scoring/') && !entries.has(d.spec))
			.map((d) => `${d.f} → ${d.spec}`);
		expect(outside).toEqual([]);
		expect(
			violations(
				'scoring/',
				(t, spec) => t.startsWith('src/') || /^(\$lib|\$app|\$env|drizzle-orm|@sveltejs)/.test(spec)
			)
		).toEqual([]);
	});

	it('lets only tests and benches use the fixtures', () => {
		const app = importsOf('src/')
			.filter((d) => d.target?.startsWith('src/lib/server/fixtures/'))
			.filter((d) => !/\.test\.ts$/.test(d.from) && !d.from.startsWith('src/cli/bench/'))
			.filter((d) => !d.from.startsWith('src/lib/server/fixtures/'))
			.map((d) => `${d.from} → ${d.spec}`);
		expect(app).toEqual([]);
	});

	it('defines each enumeration once, in src/lib/constants.ts', async () => {
		const constants = await import('../../src/lib/constants');
		const lists = (Object.entries(constants) as [string, unknown][]).filter(
			(e): e is [string, string[]] =>
				/^[A-Z_]+S$/.test(e[0]) &&
				Array.isArray(e[1]) &&
				e[1].every((v: unknown) => typeof v === 'string')
		);
		expect(lists.map(([name]) => name)).toContain('QA_TYPES');
		const copies: string[] = [];
		// Tests may spell values out to check them; the scorer is a package of its own.
		for (const f of files) {
			if (f === 'src/lib/constants.ts' || f.endsWith('.test.ts') || f.startsWith('scoring/'))
				continue;
			const text = readFileSync(join(ROOT, f), 'utf8');
			for (const [name, values] of lists) {
				// A literal list of the same values in the same order is a second definition.
				const literal = new RegExp(values.map((v) => `['"]${v}['"]`).join('\\s*,\\s*'));
				if (literal.test(text)) copies.push(`${f} repeats ${name}`);
			}
		}
		expect(copies).toEqual([]);
	});

	it('names every file it checks relative to the repository', () => {
		expect(files.length).toBeGreaterThan(100);
		expect(files.every((f) => !relative(ROOT, join(ROOT, f)).startsWith('..'))).toBe(true);
	});
});
