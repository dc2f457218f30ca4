// The layering rules of the codebase, checked on the import graph of every source file:
// data layer → domain → routes, never upward; no import cycles; features talk through their
// entries, in one direction; the scorer only through its package entry; fixtures only in tests
// and benches.
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

const DOMAIN = 'src/lib/server/domain/';

/** The feature a file belongs to (`src/lib/server/domain/<feature>/…`), or null. */
export function featureOf(file: string): string | null {
	if (!file.startsWith(DOMAIN)) return null;
	const rest = file.slice(DOMAIN.length).split('/');
	return rest.length > 1 ? rest[0] : null;
}

type Edge = { from: string; spec: string; target: string | null };

/** Imports of one feature's code into another's files other than its entry (tests may). */
export function entryViolations(edges: Edge[]): string[] {
	return edges
		.filter((d) => !d.from.endsWith('.test.ts'))
		.filter((d) => {
			const from = featureOf(d.from);
			const to = d.target ? featureOf(d.target) : null;
			return from && to && from !== to && d.target !== `${DOMAIN}${to}/index.ts`;
		})
		.map((d) => `${d.from} → ${d.spec}`);
}

/** Which features each feature's code (not its tests) imports. */
export function featureGraph(edges: Edge[]): Map<string, Set<string>> {
	const out = new Map<string, Set<string>>();
	for (const d of edges) {
		const from = featureOf(d.from);
		const to = d.target ? featureOf(d.target) : null;
		if (!from || !to || from === to || d.from.endsWith('.test.ts')) continue;
		if (!out.has(from)) out.set(from, new Set());
		out.get(from)!.add(to);
	}
	return out;
}

/** Every pair of nodes that reach each other directly, as `a ↔ b`. */
export function twoWayPairs(graph: Map<string, Iterable<string>>): string[] {
	const pairs: string[] = [];
	for (const [a, targets] of graph)
		for (const b of targets)
			if (a < b && [...(graph.get(b) ?? [])].includes(a)) pairs.push(`${a} ↔ ${b}`);
	return pairs;
}

/** The cycles a depth-first walk meets, each as its chain `a → b → … → a`. */
export function cycles(graph: Map<string, Iterable<string>>): string[] {
	const found: string[] = [];
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (node: string) => {
		state.set(node, 'open');
		stack.push(node);
		for (const next of graph.get(node) ?? []) {
			if (state.get(next) === 'open')
				found.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
			else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(node, 'done');
	};
	for (const node of graph.keys()) if (!state.has(node)) visit(node);
	return found;
}

/** What an entry holds besides named re-exports of its own files (`export { a, type B }`). */
export function entryExtras(text: string): string {
	return text
		.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
		.replace(/export\s+(type\s+)?\{[^}]*\}\s*from\s*'\.\/[^']+';/g, '')
		.trim();
}

const features = readdirSync(join(ROOT, DOMAIN)).filter((name) =>
	statSync(join(ROOT, DOMAIN, name)).isDirectory()
);
const edges: Edge[] = [...graph].flatMap(([from, deps]) => deps.map((d) => ({ from, ...d })));

describe('the feature-entry helpers', () => {
	const edge = (from: string, target: string): Edge => ({ from, spec: target, target });
	const items = `${DOMAIN}items/`;
	const review = `${DOMAIN}review/`;

	it('names the feature of a domain file only', () => {
		expect(featureOf(`${items}held.ts`)).toBe('items');
		expect(featureOf(`${DOMAIN}README.md`)).toBe(null);
		expect(featureOf('src/routes/+page.server.ts')).toBe(null);
	});

	it("flags an import past another feature's entry, but not the entry, a sibling or a test", () => {
		const found = entryViolations([
			edge(`${review}reviews.ts`, `${items}outcome.ts`),
			edge(`${review}reviews.ts`, `${items}index.ts`),
			edge(`${review}reviews.ts`, `${review}queue.ts`),
			edge(`${review}reviews.test.ts`, `${items}outcome.ts`),
			edge('src/routes/+page.server.ts', `${items}outcome.ts`)
		]);
		expect(found).toEqual([`${review}reviews.ts → ${items}outcome.ts`]);
	});

	it('finds a two-way pair and a longer cycle, with its chain', () => {
		const g = featureGraph([
			edge(`${items}items.ts`, `${review}index.ts`),
			edge(`${review}queue.ts`, `${items}index.ts`),
			edge(`${items}items.test.ts`, `${DOMAIN}audit/index.ts`)
		]);
		expect(g).toEqual(
			new Map([
				['items', new Set(['review'])],
				['review', new Set(['items'])]
			])
		);
		expect(twoWayPairs(g)).toEqual(['items ↔ review']);
		expect(cycles(g)).toEqual(['items → review → items']);
		const ring = new Map([
			['a', ['b']],
			['b', ['c']],
			['c', ['a']],
			['d', ['a']]
		]);
		expect(twoWayPairs(ring)).toEqual([]);
		expect(cycles(ring)).toEqual(['a → b → c → a']);
		expect(
			cycles(
				new Map([
					['a', ['b', 'c']],
					['b', ['c']]
				])
			)
		).toEqual([]);
	});

	it('accepts named re-exports in an entry and nothing else', () => {
		// Built from parts, so this file's own import scan does not read them as imports.
		const line = (what: string, file: string) => `export ${what} from '${file}';`;
		const entry = ['// a comment', line('{ a, type B }', './a'), line('type { C }', './c')];
		expect(entryExtras(entry.join('\n'))).toBe('');
		expect(entryExtras(line('*', './a'))).toBe(line('*', './a'));
		expect(entryExtras(line('{ a }', '../other'))).toBe(line('{ a }', '../other'));
		expect(entryExtras('export const x = 1;')).toBe('export const x = 1;');
	});
});

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
		const targets = new Map(
			[...graph].map(([f, deps]) => [f, deps.flatMap((d) => (d.target ? [d.target] : []))])
		);
		expect(cycles(targets)).toEqual([]);
	});

	it('keeps the data layer below the domain, and both below routes, hooks and the CLI', () => {
		const upward = (t: string) =>
			/^src\/(routes|cli|hooks)/.test(t) ||
			t.startsWith('src/lib/server/startup') ||
			t.startsWith('src/lib/components');
		// A study design's tables live in its folder (`domain/studies/designs/<design>/schema.ts`):
		// part of the data layer, which gathers them in db/schema; such a file imports only the
		// data layer (another design's tables included, e.g. the rubric a pairwise study asks
		// about) and plain schemas.
		const designSchema = (t: string) =>
			/^src\/lib\/server\/domain\/[^/]+\/designs\/[^/]+\/schema\.ts$/.test(t);
		expect(
			violations(
				'src/lib/server/db/',
				(t) => upward(t) || (t.startsWith('src/lib/server/domain/') && !designSchema(t))
			)
		).toEqual([]);
		expect(
			[...graph]
				.filter(([f]) => designSchema(f))
				.flatMap(([f, deps]) => deps.map((d) => ({ from: f, ...d })))
				.filter(
					(d) =>
						d.target !== null &&
						!d.target.startsWith('src/lib/server/db/') &&
						!designSchema(d.target) &&
						!d.target.startsWith('src/lib/schemas/')
				)
				.map((d) => `${d.from} → ${d.spec}`)
		).toEqual([]);
		expect(violations('src/lib/server/domain/', upward)).toEqual([]);
		expect(violations('src/lib/', (t) => /^src\/(routes|cli)\//.test(t))).toEqual([]);
	});

	it('gives every feature folder an entry, index.ts, of named re-exports only', () => {
		expect(features.length).toBeGreaterThanOrEqual(10);
		const missing = features.filter((f) => !known.has(`${DOMAIN}${f}/index.ts`));
		expect(missing).toEqual([]);
		const extras = features
			.filter((f) => known.has(`${DOMAIN}${f}/index.ts`))
			.map((f) => [f, entryExtras(readFileSync(join(ROOT, DOMAIN, f, 'index.ts'), 'utf8'))])
			.filter(([, extra]) => extra !== '');
		expect(extras).toEqual([]);
	});

	it("lets a feature reach another feature's code only through its entry", () => {
		expect(entryViolations(edges)).toEqual([]);
	});

	it('keeps the features in one direction: no two-way pair, no cycle', () => {
		const features = featureGraph(edges);
		expect(features.size).toBeGreaterThan(3);
		expect({ twoWay: twoWayPairs(features), cycles: cycles(features) }).toEqual({
			twoWay: [],
			cycles: []
		});
	});

	it('keeps components, routes and client code away from the database client', () => {
		const db = (t: string) => t.startsWith('src/lib/server/db/client');
		expect(violations('src/routes/', db)).toEqual([]);
		expect(violations('src/lib/components/', (t) => t.startsWith('src/lib/server/'))).toEqual([]);
	});

	it('reaches the scorer only through its package entry, and the scorer imports nothing of the app', () => {
		// The package's entries: the scorer, its CLI and bench, and (for tests) the sample lookup
		// and the title of a skipped suite.
		const entries = new Set([
			'$scoring',
			'$scoring/cli',
			'$scoring/bench',
			'$scoring/testing/sample-dir',
			'$scoring/testing/skip'
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
