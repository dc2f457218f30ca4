import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validRecord } from '$lib/server/fixtures/records';
import { main } from './main';

function capture() {
	const out: string[] = [];
	const err: string[] = [];
	return {
		io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) },
		out,
		err
	};
}

describe('cliniq CLI on an embedded database', () => {
	let dir: string;
	const saved = process.env.DATABASE_URL;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'cliniq-cli-'));
		process.env.DATABASE_URL = `pglite:${join(dir, 'db')}`;
	});
	afterEach(() => {
		if (saved === undefined) delete process.env.DATABASE_URL;
		else process.env.DATABASE_URL = saved;
	});

	it('imports QA files, counts items by type, and rejects a bad file with exit code 2', async () => {
		const good = join(dir, 'TF.json');
		writeFileSync(
			good,
			JSON.stringify([validRecord('true_false', 1), validRecord('true_false', 2)])
		);
		let c = capture();
		expect(await main(['import', 'qa', good], c.io)).toBe(0);
		expect(c.out.join('\n')).toMatch(
			/Imported 2 QA records \(import #1\): 2 created, 0 updated, 0 unchanged/
		);

		c = capture();
		expect(await main(['items', 'count', '--type', 'true_false'], c.io)).toBe(0);
		expect(c.out).toEqual(['2']);

		const bad = join(dir, 'bad.json');
		writeFileSync(bad, JSON.stringify([{ ...validRecord('list', 3), answer: ['Nope'] }]));
		c = capture();
		expect(await main(['import', 'qa', bad], c.io)).toBe(2);
		expect(c.err.join('\n')).toMatch(/bad\.json record 1 → answer\[0\] → is not among the options/);

		c = capture();
		expect(await main(['items', 'count'], c.io)).toBe(0);
		expect(c.out.at(-1)).toMatch(/^total\s+2$/);
	});

	it('prints the warnings of an accepted import and groups the problems of a rejected one', async () => {
		const repeated = validRecord('short_answer', 5);
		const qa = join(dir, 'qa.json');
		writeFileSync(qa, JSON.stringify([repeated, validRecord('true_false', 6), repeated]));
		let c = capture();
		expect(await main(['import', 'qa', qa], c.io)).toBe(0);
		expect(c.out).toEqual([
			'Imported 2 QA records (import #1): 2 created, 0 updated, 0 unchanged.'
		]);
		expect(c.err).toEqual([
			'Warning: The same record twice (imported once): 1 record repeats an earlier one with identical content; each was imported once.',
			'  qa.json record 3 → question → repeats record 1 exactly; imported once',
			'Warning: QA pairs whose source passage is not imported: 2 QA pairs cite 2 paragraph ids with no imported passage: test-p5-para01, test-p6-para01. They are imported; reviewers cannot see their source until the passages are.',
			'  qa.json record 1 → source.paragraph_id → cites "test-p5-para01", which has no imported passage',
			'  qa.json record 2 → source.paragraph_id → cites "test-p6-para01", which has no imported passage'
		]);

		const dup = join(dir, 'dup.json');
		writeFileSync(
			dup,
			`[{"question": "a?", "question": "b?", "answer": "x", "type": "short_answer"}]`
		);
		c = capture();
		expect(await main(['import', 'qa', dup], c.io)).toBe(2);
		expect(c.err).toEqual([
			'Import rejected: 2 problems in 1 record of 1; nothing was imported.',
			'Missing or invalid values (1):',
			'  dup.json record 1 → source → is missing',
			'A key written twice in one JSON object (1):',
			'  dup.json record 1 → question → is written twice in one object; JSON keeps only the last value, so the record is ambiguous'
		]);
	});

	it('creates a user and prints a generated password once', async () => {
		const c = capture();
		expect(
			await main(
				['user', 'create', '--email', 'Org@Example.org', '--role', 'organiser,adjudicator'],
				c.io
			)
		).toBe(0);
		expect(c.out[0]).toBe('Created org@example.org with roles organiser, adjudicator.');
		expect(c.out[1]).toMatch(/^Password \(shown once\): \S{16}$/);
		const again = capture();
		expect(
			await main(['user', 'create', '--email', 'org@example.org', '--role', 'physician'], again.io)
		).toBe(2);
		expect(again.err[0]).toMatch(/already exists/);
	});

	it('explains bad usage and unreadable files', async () => {
		let c = capture();
		expect(await main(['import', 'qa', join(dir, 'missing.json')], c.io)).toBe(2);
		expect(c.err[0]).toMatch(/Cannot read .*missing\.json: ENOENT/);
		c = capture();
		expect(await main(['items', 'count', '--type', 'short'], c.io)).toBe(2);
		expect(c.err[0]).toMatch(/--type must be one of/);
		c = capture();
		expect(await main(['frobnicate'], c.io)).toBe(2);
		expect(c.err[0]).toMatch(/Unknown command "frobnicate"/);
	});

	it('imports a judge only into a study it is told of', async () => {
		const path = join(dir, 'judge.jsonl');
		writeFileSync(path, '{"question_id": "q1", "model": "m1", "score": 3}\n');
		let c = capture();
		expect(await main(['import', 'judge', path, '--judge', 'gpt'], c.io)).toBe(2);
		expect(c.err[0]).toBe('Error: --study ID is required.');
		c = capture();
		expect(await main(['import', 'judge', path, '--study', '7', '--judge', 'gpt'], c.io)).toBe(2);
		expect(c.err[0]).toBe('Error: No such study.');
	});

	it('imports documents, then runs of a topic set, refusing missing abstracts unless kept', async () => {
		const topics = join(dir, 'topics.jsonl');
		writeFileSync(topics, JSON.stringify({ id: 1, topic: 'T', question: 'Q?', narrative: 'N.' }));
		let c = capture();
		expect(await main(['import', 'questions', topics, '--set', 'BioGen'], c.io)).toBe(0);

		const docs = join(dir, 'pubmed.jsonl');
		writeFileSync(docs, `${JSON.stringify({ pmid: '0101', title: 'A', abstract: 'One. Two.' })}\n`);
		c = capture();
		expect(await main(['import', 'documents', docs], c.io)).toBe(0);
		expect(c.out).toEqual(['Imported 1 documents (import #2): 1 created, 0 updated, 0 unchanged.']);

		const run = join(dir, 'run.jsonl');
		writeFileSync(
			run,
			JSON.stringify({
				metadata: { team_id: 't', run_id: 'run-1', topic_id: 1 },
				responses: [{ text: 'Cited.', citations: [101, 202] }]
			})
		);
		c = capture();
		expect(await main(['import', 'runs', run], c.io)).toBe(2);
		expect(c.err[0]).toBe(
			'Error: --set NAME is required: the question set whose topics the runs answer.'
		);
		c = capture();
		expect(await main(['import', 'runs', run, '--set', 'BioGen'], c.io)).toBe(2);
		expect(c.err[0]).toMatch(/1 cited PMID has no imported abstract \(202\)/);
		c = capture();
		expect(
			await main(['import', 'runs', run, '--set', 'BioGen', '--keep-missing-documents'], c.io)
		).toBe(0);
		expect(c.out).toEqual([
			'Imported 1 answers of run-1 to set "BioGen" (1 sentences written) (import #3): 1 created, 0 updated, 0 unchanged.'
		]);
		expect(c.err[0]).toBe('run.jsonl: BioGen 2025 task B (JSON Lines of sentences with citations)');
		expect(c.err[1]).toMatch(/^Warning: Cited PMIDs without an imported abstract/);
	});
});

describe('cliniq command lines', () => {
	// A database no command here may touch: one that did would fail to connect.
	const saved = process.env.DATABASE_URL;
	beforeAll(() => {
		process.env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
	});
	afterAll(() => {
		if (saved === undefined) delete process.env.DATABASE_URL;
		else process.env.DATABASE_URL = saved;
	});

	const IMPORT_KINDS = [
		'qa',
		'passages',
		'responses',
		'questions',
		'set-responses',
		'documents',
		'runs',
		'judge'
	];
	const STATS = ['ratings', 'rankings', 'correlate', 'pairwise', 'rubric', 'bt', 'evidence'];

	it.each([
		[['--help'], /^cliniq — organiser CLI/],
		[['help'], /^cliniq — organiser CLI/],
		[['help', 'import', 'qa'], /^Usage: cliniq import qa <files…> \[--dataset NAME\]/],
		[['import', '--help'], /^Usage: cliniq import KIND/],
		...IMPORT_KINDS.map((k) => [
			['import', k, '--help'],
			new RegExp(`^Usage: cliniq import ${k} `)
		]),
		[['import', 'runs', 'run.jsonl', '-h'], /--keep-missing-documents/],
		[['user', '--help'], /^Usage: cliniq user create --email E/],
		[['user', 'create', '--help'], /--password P/],
		[['items', '--help'], /^Usage: cliniq items count/],
		[['items', 'count', '--help'], /--type T/],
		[['db', '--help'], /cliniq db migrate[\s\S]*cliniq db seed[\s\S]*cliniq db template/],
		...['migrate', 'seed', 'template'].map((s) => [
			['db', s, '--help'],
			new RegExp(`cliniq db ${s}`)
		]),
		[['score', '--help'], /usage: cliniq score <command>/],
		[['score', 'run', '--help'], /usage: cliniq score <command>/],
		[['score', 'cases', '--help'], /usage: cliniq score <command>/],
		[['stats', '--help'], /cliniq stats ratings FILE/],
		...STATS.map((s) => [['stats', s, '--help'], new RegExp(`^Usage:\n  cliniq stats ${s} FILE`)]),
		[['bench', '--help'], /^Usage: cliniq bench \[SUITE…\][\s\S]*http[\s\S]*--rate N/],
		[['bench', 'http', '--help'], /^Usage: cliniq bench/]
	] as [string[], RegExp][])('%j prints its usage and exits 0', async (argv, usage) => {
		const c = capture();
		expect(await main(argv, c.io)).toBe(0);
		expect(c.out.join('\n')).toMatch(usage);
		expect(c.err).toEqual([]);
	});

	it('prints only the usage of the bench with --help, running no benchmark', async () => {
		const c = capture();
		expect(await main(['bench', '--help'], c.io)).toBe(0);
		expect(c.out).toHaveLength(1);
		expect(c.out[0]).toMatch(/Suites:[\s\S]*\bcli\b/);
	});

	it.each([
		[['--bogus'], /Unknown option --bogus: name a command first/],
		[
			['import', 'qa', 'a.json', '--bogus'],
			/Unknown option --bogus for cliniq import qa; it takes --dataset/
		],
		[['import', 'qa', 'a.json', '--model', 'm'], /Unknown option --model for cliniq import qa/],
		[
			['import', 'passages', 'p.csv', '--set', 's'],
			/Unknown option --set for cliniq import passages; it takes no options/
		],
		[
			['import', 'runs', 'r.jsonl', '--set'],
			/Option '--set <value>' argument missing \(cliniq import runs --help\)/
		],
		[
			['user', 'create', '--email', 'a@b.org', '--bogus'],
			/Unknown option --bogus for cliniq user create/
		],
		[
			['items', 'count', '--bogus'],
			/Unknown option --bogus for cliniq items count; it takes --type/
		],
		[
			['db', 'migrate', '--bogus'],
			/Unknown option --bogus for cliniq db migrate; it takes no options/
		],
		[['db', 'migrate', 'extra'], /Unexpected argument 'extra'/],
		[['score', 'run', '--bogus'], /Unknown option '--bogus'/],
		[['stats', 'ratings', 'x.csv', '--bogus'], /Unknown option --bogus for cliniq stats ratings/],
		[['stats', 'bt', 'x.csv', '--level', 'ordinal'], /Unknown option --level for cliniq stats bt/],
		[['bench', '--bogus'], /Unknown option --bogus for cliniq bench; it takes --rate/],
		[
			['bench', 'review', '--rate', '5'],
			/Unknown option --rate for cliniq bench review; it takes no options/
		],
		[['bench', 'http', '--rate', 'fast'], /--rate must be a positive number, not "fast"/]
	] as [string[], RegExp][])('%j is refused with exit status 2', async (argv, message) => {
		const c = capture();
		expect(await main(argv, c.io)).toBe(2);
		expect(c.out).toEqual([]);
		expect(c.err.join('\n')).toMatch(message);
	});

	it.each([
		[['frobnicate'], /Unknown command "frobnicate"/],
		[['import'], /Name the import kind: qa\|passages/],
		[['import', 'bogus', 'a.json'], /Unknown import kind "bogus": use qa\|passages/],
		[['user', 'delete'], /Unknown user subcommand "delete": use create/],
		[['items', 'list'], /Unknown items subcommand "list": use count/],
		[['db', 'drop'], /Unknown db subcommand "drop": use migrate\|seed\|template/],
		[['score', 'bogus'], /unknown command 'bogus'/],
		[['stats', 'median', 'x.csv'], /Unknown stats subcommand "median"/],
		[['bench', 'bogus'], /Unknown benchmark bogus; choose from import, /]
	] as [string[], RegExp][])(
		'%j: an unknown command is refused with exit status 2',
		async (argv, message) => {
			const c = capture();
			expect(await main(argv, c.io)).toBe(2);
			expect(c.err.join('\n')).toMatch(message);
		}
	);

	it('answers --help from the real entry, bin/cliniq.js', async () => {
		const bin = resolve(import.meta.dirname, '../../bin/cliniq.js');
		const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, '--help']);
		expect(stdout).toMatch(/^cliniq — organiser CLI of cliniq-portal\n\nUsage:/);
		expect(stdout).toMatch(/cliniq COMMAND --help/);
		expect(stderr).toBe('');
	}, 60_000);
});
