// The README and docs/ are checked against the tree: every path and relative link they name
// exists, every environment variable the code reads is in the configuration table of
// docs/operations.md and every variable they name is read, every `cliniq` command and option of
// docs/cli.md exists in the CLI, and every `npm run` script exists. Documentation that drifts
// fails the suite.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(import.meta.dirname, '../..'));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** README.md and every docs/*.md, by repository path. */
const DOCUMENTS: [string, string][] = [
	'README.md',
	...readdirSync(join(ROOT, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.sort()
		.map((f) => `docs/${f}`)
].map((path) => [path, read(path)]);
const README = read('README.md');
const OPERATIONS = read('docs/operations.md');
const CLI_DOC = read('docs/cli.md');

const TOP_LEVEL =
	/^(package\.json|tsconfig\.json|Dockerfile|compose\.yaml|[a-z]+\.config\.(ts|js))$/;
const REPO_DIRS = /^(src|scoring|tests|drizzle|docs|scripts|static|bin|deploy|\.ci)\//;

/** The relative link targets of a Markdown text (`[text](target)`, `[text](<target>)`), anchors kept. */
export function linksNamed(markdown: string): string[] {
	const out = new Set<string>();
	for (const m of markdown.matchAll(/\]\(<([^>]+)>\)|\]\(([^)\s]+)\)/g)) {
		const target = m[1] ?? m[2];
		if (!/^[a-z]+:/i.test(target)) out.add(target);
	}
	return [...out];
}

/** The repository paths a Markdown text names in backticks (from the repository's root). */
export function pathsNamed(markdown: string): string[] {
	const out = new Set<string>();
	for (const m of markdown.matchAll(/`([^`\s]+)`/g)) {
		const token = m[1].replace(/[.,;:]+$/, '');
		if (/[<>…*{}$|]/.test(token)) continue; // placeholders and patterns, not paths
		if (REPO_DIRS.test(token) || TOP_LEVEL.test(token)) out.add(token);
	}
	return [...out];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (outside fenced code). */
export function anchorsOf(markdown: string): Set<string> {
	const text = markdown.replace(/^```[\s\S]*?^```/gm, '');
	return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingAnchor(m[1])));
}

/**
 * The links of `markdown` (at repository path `from`) that lead nowhere: a file that does not
 * exist relative to the document, or an anchor that is not a heading of the Markdown file named.
 */
export function brokenLinks(
	from: string,
	markdown: string,
	exists: (path: string) => boolean,
	readMarkdown: (path: string) => string
): string[] {
	return linksNamed(markdown).filter((link) => {
		const [file, anchor] = link.split('#');
		const target = file ? normalize(join(dirname(from), file)) : from;
		if (!exists(target)) return true;
		if (anchor === undefined || !target.endsWith('.md')) return false;
		return !anchorsOf(readMarkdown(target)).has(anchor);
	});
}

/** The environment variables a source text reads. */
export function variablesRead(source: string): string[] {
	const out = new Set<string>();
	for (const m of source.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g))
		out.add(m[1] ?? m[2]);
	// A variable named through a constant: `const SAMPLE_DIR_VAR = 'CLINIQLINK_SAMPLE_DIR'`.
	for (const m of source.matchAll(/_VAR\s*=\s*['"]([A-Z][A-Z0-9_]*)['"]/g)) out.add(m[1]);
	// An option with its variable: `value('--rate', 'BENCH_HTTP_RATE')`.
	for (const m of source.matchAll(
		/\(\s*['"]--[a-z][a-z0-9-]*['"]\s*,\s*['"]([A-Z][A-Z0-9_]*)['"]/g
	))
		out.add(m[1]);
	return [...out];
}

/** Variables a shell script or compose file lets its caller set: `${NAME:-default}`, `${NAME-default}`. */
export function shellVariablesRead(script: string): string[] {
	return [...script.matchAll(/\$\{([A-Z][A-Z0-9_]*):?-/g)].map((m) => m[1]);
}

/** The variables of a Markdown text's Configuration table (first column, backticked). */
export function configuredVariables(markdown: string): Set<string> {
	const section = markdown.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? '';
	const out = new Set<string>();
	for (const line of section.split('\n').filter((l) => l.startsWith('|'))) {
		const first = line.split('|')[1] ?? '';
		for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) out.add(m[1]);
	}
	return out;
}

/** The code of a Markdown text: fenced blocks and inline code spans. */
export function codeOf(markdown: string): string[] {
	const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
	const rest = markdown.replace(/^```[\s\S]*?^```/gm, '');
	return [...fenced, ...[...rest.matchAll(/`([^`\n]+)`/g)].map((m) => m[1])];
}

/**
 * The environment variables a Markdown text names: its Configuration table, assignments in its
 * code (`NAME=value`), and backticked names with an underscore that are not a constant the code
 * declares (`constants` — `ERROR_TYPES` is a constant, not a variable).
 */
export function variablesNamed(markdown: string, constants: Set<string>): string[] {
	const out = configuredVariables(markdown);
	for (const code of codeOf(markdown)) {
		for (const m of code.matchAll(/(?:^|[\s;(])([A-Z][A-Z0-9_]*)=/g)) out.add(m[1]);
		if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(code) && !constants.has(code)) out.add(code);
	}
	return [...out];
}

/** The upper-case constants a source text declares (`const NAME`, `enum NAME`, `type NAME`). */
export function constantsDeclared(source: string): string[] {
	return [...source.matchAll(/\b(?:const|let|enum|type|interface)\s+([A-Z][A-Z0-9_]*)\b/g)].map(
		(m) => m[1]
	);
}

/** The `cliniq` commands a Markdown text's code names: `cliniq db migrate` → ['db', 'migrate']. */
export function cliCommandsNamed(markdown: string): string[][] {
	const out = new Map<string, string[]>();
	for (const code of codeOf(markdown)) {
		for (const m of code.matchAll(
			/(?<![^\s(])cliniq[ \t]+([a-z][a-z-]*)(?:[ \t]+([a-z][a-z-]*(?:\|[a-z][a-z-]*)*)(?![\w./-]))?/g
		)) {
			for (const sub of m[2]?.split('|') ?? [undefined]) {
				const words = sub ? [m[1], sub] : [m[1]];
				out.set(words.join(' '), words);
			}
		}
	}
	return [...out.values()];
}

/** The top-level commands of the CLI: the `case '…':` labels of `main`'s switch. */
export function cliCommandsDefined(mainSource: string): Set<string> {
	return new Set([...mainSource.matchAll(/case '([a-z][a-z-]*)':/g)].map((m) => m[1]));
}

/** The words a CLI source can recognise as a subcommand: its string literals and object keys. */
export function cliWordsDefined(source: string): Set<string> {
	const out = new Set<string>();
	for (const m of source.matchAll(/['"]([a-z][a-z-]*)['"]/g)) out.add(m[1]);
	for (const m of source.matchAll(/^\s*([a-z][a-z-]*)\s*:/gm)) out.add(m[1]);
	return out;
}

/** The `--options` a Markdown text's code names. */
export function cliOptionsNamed(markdown: string): string[] {
	const out = new Set<string>();
	for (const code of codeOf(markdown))
		for (const m of code.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) out.add(m[1]);
	return [...out];
}

/** The options a CLI source defines: `parseArgs` option keys and literal `'--name'` strings. */
export function cliOptionsDefined(source: string): Set<string> {
	const out = new Set<string>();
	for (const m of source.matchAll(/(['"]?)([a-z][a-z0-9-]*)\1\s*:\s*(?=\{\s*type:\s*['"])/g))
		out.add(m[2]);
	for (const m of source.matchAll(/['"]--([a-z][a-z0-9-]*)['"]/g)) out.add(m[1]);
	return out;
}

/** The npm scripts a Markdown text names (`npm run x`, `npm test`, `npm start`). */
export function npmScriptsNamed(markdown: string): string[] {
	const out = new Set<string>();
	for (const m of markdown.matchAll(/\bnpm run ([a-z][a-z0-9:-]*)/g)) out.add(m[1]);
	for (const m of markdown.matchAll(/\bnpm (test|start)\b/g)) out.add(m[1]);
	return [...out];
}

// Read by the platform or set by our own scripts for themselves, not by users.
const NOT_CONFIGURATION: Record<string, string> = {
	NODE_ENV: 'set by Vite and Node tooling',
	CI: 'set by CI systems; .ci/run sets it',
	PW_JSON_OUTPUT: 'scripts/test-all.js passes it to playwright.config.ts for its own report'
};

// Names in docs that look like variables and are not: what they are.
const NOT_VARIABLES: Record<string, string> = {
	NLTK_EXTENSIONS: "a mode of NLTK's Porter stemmer (docs/scoring-behaviour.md)"
};

// Configuration the portal's own code never reads: SvelteKit's adapter-node reads it in `node build`.
const READ_BY_ADAPTER_NODE = [
	'ORIGIN',
	'PORT',
	'HOST',
	'BODY_SIZE_LIMIT',
	'ADDRESS_HEADER',
	'XFF_DEPTH'
];

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

const SOURCES = [
	...['src', 'scoring/src', 'tests', 'scripts', 'bin'].flatMap((d) => walk(d)),
	'playwright.config.ts',
	'vite.config.ts',
	'svelte.config.js',
	'drizzle.config.ts'
];

/** Every variable the code, CI and compose file read. */
function variablesTheCodeReads(): Set<string> {
	const found = new Set(SOURCES.flatMap((f) => variablesRead(read(f))));
	for (const f of ['.ci/run', 'compose.yaml'])
		for (const v of shellVariablesRead(read(f))) found.add(v);
	return found;
}

/** The CLI's sources (without tests): the command, `cliniq score`, the benches, the entry. */
const CLI_SOURCES = [
	...walk('src/cli').filter((f) => !f.endsWith('.test.ts')),
	'scoring/src/cli.ts',
	'bin/cliniq.js'
].map(read);

describe('the README and docs/', () => {
	it('name only paths and links that exist', () => {
		const exists = (p: string) => existsSync(join(ROOT, p));
		const problems = DOCUMENTS.flatMap(([path, text]) => [
			...pathsNamed(text)
				.filter((p) => !exists(p))
				.map((p) => `${path}: \`${p}\``),
			...brokenLinks(path, text, exists, read).map((l) => `${path}: (${l})`)
		]);
		expect(problems).toEqual([]);
	});

	it('document every environment variable the code reads, and only those', () => {
		const readByCode = variablesTheCodeReads();
		const documented = configuredVariables(OPERATIONS);
		const undocumented = [...readByCode].filter(
			(v) => !documented.has(v) && !(v in NOT_CONFIGURATION)
		);
		expect(undocumented.sort()).toEqual([]);
		expect(readByCode.size).toBeGreaterThan(8);

		const constants = new Set(SOURCES.flatMap((f) => constantsDeclared(read(f))));
		const unread = DOCUMENTS.flatMap(([path, text]) =>
			variablesNamed(text, constants)
				.filter(
					(v) => !readByCode.has(v) && !READ_BY_ADAPTER_NODE.includes(v) && !(v in NOT_VARIABLES)
				)
				.map((v) => `${path}: ${v}`)
		);
		expect(unread).toEqual([]);
	});

	it('name only `cliniq` commands and options the CLI has', () => {
		const commands = cliCommandsDefined(read('src/cli/main.ts'));
		const words = new Set(CLI_SOURCES.flatMap((s) => [...cliWordsDefined(s)]));
		const unknown = DOCUMENTS.flatMap(([path, text]) =>
			cliCommandsNamed(text)
				.filter(([command, sub]) => !commands.has(command) || (sub && !words.has(sub)))
				.map((c) => `${path}: cliniq ${c.join(' ')}`)
		);
		expect(unknown).toEqual([]);
		expect(cliCommandsNamed(CLI_DOC).length).toBeGreaterThan(10);

		const options = new Set(CLI_SOURCES.flatMap((s) => [...cliOptionsDefined(s)]));
		const named = cliOptionsNamed(CLI_DOC);
		expect(named.filter((o) => !options.has(o))).toEqual([]);
		expect(named.length).toBeGreaterThan(10);
	});

	it('name only npm scripts that exist', () => {
		const scripts = Object.keys(JSON.parse(read('package.json')).scripts as object);
		const missing = DOCUMENTS.flatMap(([path, text]) =>
			npmScriptsNamed(text)
				.filter((s) => !scripts.includes(s))
				.map((s) => `${path}: npm run ${s}`)
		);
		expect(missing).toEqual([]);
	});

	it('README gives the two commands of a fresh machine and the quick test command', () => {
		expect(README).toContain('npm install && npm run dev');
		expect(README).toMatch(/^npm test\b/m);
		expect(README).toContain('npm run test:quick');
	});

	it('README stays a front door', () => {
		expect(README.split('\n').length).toBeLessThanOrEqual(150);
	});

	it('is checked by rules that find what is wrong', () => {
		expect(
			pathsNamed('see [`x`](src/nope.ts) and `docs/none.md`, not `<id>` or [site](https://a.b)')
		).toEqual(['docs/none.md']);
		expect(linksNamed('[a](nope.md#x) [b](<../src/(g)/p.ts>) [site](https://a.b)')).toEqual([
			'nope.md#x',
			'../src/(g)/p.ts'
		]);
		const files: Record<string, string> = {
			'docs/a.md': '# A\n\n## The `cliniq stats` command\n\n```sh\n# not a heading\n```',
			'README.md': '# R'
		};
		expect(
			brokenLinks(
				'docs/b.md',
				'[ok](a.md#the-cliniq-stats-command) [up](../README.md) [gone](c.md) ' +
					'[no anchor](a.md#not-a-heading) [root](README.md)',
				(p) => p in files,
				(p) => files[p]
			)
		).toEqual(['c.md', 'a.md#not-a-heading', 'README.md']);
		expect(
			variablesRead(
				"process.env.NOPE_VAR; process.env['OTHER']; env.FROM_ARG; const X_VAR = 'THIRD'; value('--rate', 'FOURTH')"
			)
		).toEqual(['NOPE_VAR', 'OTHER', 'FROM_ARG', 'THIRD', 'FOURTH']);
		expect(shellVariablesRead('PG_URL=${CI_POSTGRES_URL:-postgres://x}; echo $HOME')).toEqual([
			'CI_POSTGRES_URL'
		]);
		expect([
			...configuredVariables('## Configuration\n\n| `A`, `B` | x |\n\n## Next\n| `C` |')
		]).toEqual(['A', 'B']);
		expect(
			variablesNamed(
				'## Configuration\n\n| `A_B` | x |\n\n## Next\n\n```sh\nNEW_ONE=1 node build\n```\n' +
					'`MADE_UP` and `ERROR_TYPES`, not `UPDATE`',
				new Set(['ERROR_TYPES'])
			).sort()
		).toEqual(['A_B', 'MADE_UP', 'NEW_ONE']);
		expect(constantsDeclared('export const ERROR_TYPES = []; const lower = 1;')).toEqual([
			'ERROR_TYPES'
		]);
		expect(
			cliCommandsNamed(
				'`cliniq db migrate|seed` and\n```sh\nnpx cliniq import qa a.json\nnpx cliniq bogus\n```\n' +
					'`cliniq stats ratings reviews.csv`, `cliniq-portal`, `cliniq items --type x`, ' +
					'`DATABASE_URL=postgres://h/cliniq npm run build`'
			)
		).toEqual([
			['import', 'qa'],
			['bogus'],
			['db', 'migrate'],
			['db', 'seed'],
			['stats', 'ratings'],
			['items']
		]);
		expect([...cliCommandsDefined("switch (c) { case 'db': case 'import': }")]).toEqual([
			'db',
			'import'
		]);
		expect([
			...cliWordsDefined("if (sub === 'migrate') {}\nconst S = {\n\tratings: f\n};")
		]).toEqual(['migrate', 'ratings']);
		expect(cliOptionsNamed('`cliniq x --made-up 1` and `npm run bench -- http --rate 5`')).toEqual([
			'made-up',
			'rate'
		]);
		expect([
			...cliOptionsDefined(
				"parseArgs({ options: { type: { type: 'string' }, 'match-by': { type: 'string' } } }); value('--rate')"
			)
		]).toEqual(['type', 'match-by', 'rate']);
		expect(npmScriptsNamed('run `npm run test:quick`, then `npm test`; npm install')).toEqual([
			'test:quick',
			'test'
		]);
	});
});
