import { beforeEach, expect, it } from 'vitest';
import type { RecordError } from '../../../schemas/qa-record';
import { countAllRows, describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { validRecord } from '../../fixtures/records';
import { importPassages } from './passage-import';
import { importQaFiles, type QaImportFile } from './qa-import';
import { importResponses } from './response-import';

// Files built to hurt: nesting far past any ClinIQLink file, one record of megabytes, bytes
// that are not UTF-8, an output in a shape the scorer would silently rewrite. Each is refused with
// a message that says what and where, and no table gains a row.

const actor = { userId: null, label: 'test' };

/** A file arriving as bytes in chunks of `size`, as an upload or a file on disk arrives. */
function bytesFile(fileName: string, bytes: Uint8Array, size = 4096): QaImportFile {
	async function* chunks() {
		for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
	}
	return { fileName, chunks: chunks() };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

async function problems(work: Promise<unknown>): Promise<RecordError[]> {
	const e = await work.then(
		() => null,
		(err: unknown) => err
	);
	expect(e).toBeInstanceOf(DomainError);
	return [...(e as DomainError).records];
}

/**
 * Where the 65th level opens in `text` (1-based, as people count), for texts whose strings hold
 * no brackets.
 */
function sixtyFifthLevel(text: string): string {
	let depth = 0;
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '[' || text[i] === '{') depth++;
		else if (text[i] === ']' || text[i] === '}') depth--;
		if (depth === 65) return (i + 1).toLocaleString('en');
	}
	throw new Error('not that deep');
}

/** `depth` arrays nested inside each other. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describeEachDb('hostile import files', (h) => {
	let before: Record<string, number>;
	beforeEach(async () => {
		before = await countAllRows(h.db);
	});
	const unchanged = async () => expect(await countAllRows(h.db)).toEqual(before);

	it('refuses a QA file nested 100,000 deep, naming the record and where, before parsing it', async () => {
		const text = `[${JSON.stringify(validRecord('true_false', 1))}, ${nested(100_000)}]`;
		const [p] = await problems(
			importQaFiles(h.db, [bytesFile('deep.json', utf8(text))], { actor })
		);
		expect(p.reason).toBe(
			`The file nests deeper than 64 levels in record 2 (line 1, character ${sixtyFifthLevel(text)} of the file); ClinIQLink files nest at most 5 levels.`
		);
		await unchanged();
	});

	it('refuses a record nested deep inside one field, in JSON Lines too', async () => {
		const record = { ...validRecord('true_false', 1), question: JSON.parse(nested(100)) };
		const lines = `${JSON.stringify(validRecord('true_false', 2))}\n${JSON.stringify(record)}\n`;
		const [p] = await problems(
			importQaFiles(h.db, [{ fileName: 'd.jsonl', text: lines }], { actor })
		);
		expect(p.reason).toMatch(/^The file nests deeper than 64 levels in record 2 \(line 2, /);
		await unchanged();
	});

	it('accepts nesting up to the limit: the limit counts levels, not brackets', async () => {
		// A record whose question is 62 arrays deep sits 64 levels deep in the file; it is read,
		// and refused only for what it is (a question that is not text).
		const record = { ...validRecord('true_false', 1), question: JSON.parse(nested(62)) };
		const [p] = await problems(
			importQaFiles(h.db, [{ fileName: 'q.json', text: JSON.stringify([record]) }], { actor })
		);
		expect(p.field).toBe('question');
	});

	it('refuses one record of millions of characters with the size limit', async () => {
		const huge = { ...validRecord('true_false', 1), question: 'x'.repeat(3_000_000) };
		const text = JSON.stringify([validRecord('true_false', 2), huge]);
		const [p] = await problems(
			importQaFiles(h.db, [bytesFile('big.json', utf8(text), 65536)], { actor })
		);
		expect(p.reason).toBe(
			'Record 2 (from line 1) is longer than 1,000,000 characters, the most one record may hold; is the file cut or merged?'
		);
		await unchanged();
	});

	it('refuses bytes that are not UTF-8 with the offset of the first one, whatever the chunks', async () => {
		const good = utf8(
			JSON.stringify([{ ...validRecord('true_false', 1), question: 'Café 🩺 ok?' }])
		);
		const at = good.indexOf(0xc3); // the é
		const bad = good.slice();
		bad[at + 1] = 0x28; // é's second byte replaced: 0xC3 no longer begins a character
		for (const size of [1, 2, 3, 7, 4096]) {
			const [p] = await problems(importQaFiles(h.db, [bytesFile('q.json', bad, size)], { actor }));
			expect(p.reason).toBe(
				`The file is not valid UTF-8: byte ${at} (counted from 0) is 0xC3, which does not belong there. Nothing was imported; save the file as UTF-8 and try again.`
			);
		}
		const cut = good.slice(0, good.indexOf(0xf0) + 2); // ends inside the 🩺
		const [p] = await problems(importQaFiles(h.db, [bytesFile('q.json', cut, 3)], { actor }));
		expect(p.reason).toMatch(/^The file is not valid UTF-8: the file ends inside a character/);
		await unchanged();
	});

	it('refuses passages nested deep or not UTF-8', async () => {
		const deep = `[{"paragraph_id": "p1", "text": "ok"}, ${nested(50_000)}]`;
		const [d] = await problems(importPassages(h.db, bytesFile('p.json', utf8(deep)), { actor }));
		expect(d).toMatchObject({ file: 'p.json', index: -1, field: '(file)' });
		expect(d.reason).toContain(
			`deeper than 64 levels at line 1, character ${sixtyFifthLevel(deep)} of the file;`
		);
		const unclosed = utf8('paragraph_id,text\np1,"never closed\np2,second\n');
		const [q] = await problems(importPassages(h.db, bytesFile('p.csv', unclosed), { actor }));
		expect(q.reason).toBe(
			'has a quote that is never closed, so the rest of the file would read as one field'
		);
		const latin1 = new Uint8Array([...utf8('paragraph_id,text\np1,caf'), 0xe9, 0x0a]);
		const [u] = await problems(importPassages(h.db, bytesFile('p.csv', latin1), { actor }));
		expect(u.reason).toMatch(/^The file is not valid UTF-8: byte 24 \(counted from 0\) is 0xE9/);
		await unchanged();
	});

	it('refuses model outputs nested deep, in a submission file and in a JSON Lines line', async () => {
		const submission = JSON.stringify({ responses: [JSON.parse(nested(80))] });
		const [s] = await problems(
			importResponses(h.db, [bytesFile('true_false.json', utf8(submission))], { actor, model: 'm' })
		);
		expect(s.reason).toContain(`at line 1, character ${sixtyFifthLevel(submission)} of the file`);
		const jsonl = `{"item": 1, "response": "True"}\n{"item": 2, "response": ${nested(70)}}\n`;
		const [l] = await problems(
			importResponses(h.db, [{ fileName: 'o.jsonl', text: jsonl }], { actor, model: 'm' })
		);
		expect(l).toMatchObject({ index: 1, field: '(line)' });
		// The line is one record of JSON Lines: its levels count from the line.
		const second = jsonl.indexOf('\n') + 1;
		const own = Number(sixtyFifthLevel(jsonl.slice(second)));
		expect(l.reason).toContain(`at line 2, character ${second + own} of the file`);
		await unchanged();
	});

	it('refuses an output given as an array of text, which the scorer would silently join', async () => {
		const tf = validRecord('true_false', 1);
		await importQaFiles(h.db, [{ fileName: 'qa.json', text: JSON.stringify([tf]) }], { actor });
		before = await countAllRows(h.db);
		const file = {
			fileName: 'true_false.json',
			text: JSON.stringify({ inputs: [tf], responses: [['True']] })
		};
		const [p] = await problems(importResponses(h.db, [file], { actor, model: 'm' }));
		expect(p).toMatchObject({ file: 'true_false.json', index: 0, field: 'response' });
		expect(p.reason).toMatch(/^is an array holding a string \(\["True"\]\); an output is a string/);
		await unchanged();
		// A chat or pipeline output (an array of objects) is what ClinIQLink reads as written.
		const chat = {
			...file,
			text: JSON.stringify({ inputs: [tf], responses: [[{ generated_text: 'True' }]] })
		};
		expect(await importResponses(h.db, [chat], { actor, model: 'm' })).toMatchObject({
			created: 1
		});
	});
});
