import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
