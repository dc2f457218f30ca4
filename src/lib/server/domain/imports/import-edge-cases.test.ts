import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { recordLabel, type RecordError } from '../../../schemas/qa-record';
import { importRecord, qaItem } from '../../db/schema';
import { countAllRows, describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { validRecord } from '../../fixtures/records';
import { importPassages } from './passage-import';
import { importQaFiles } from './qa-import';
import { importResponses } from './response-import';

// Every case counts the rows of every table before and after: a rejected import must leave all
// of them as they were, an accepted one must add exactly the rows it reports.

const actor = { userId: null, label: 'test' };
const json = (value: unknown, fileName = 'batch.json') => ({
	fileName,
	text: JSON.stringify(value)
});

/** The tables whose row count changed, with the change. */
function added(before: Record<string, number>, after: Record<string, number>) {
	return Object.fromEntries(
		Object.keys(after)
			.filter((t) => after[t] !== before[t])
			.map((t) => [t, after[t] - before[t]])
	);
}

async function rejection(work: Promise<unknown>): Promise<DomainError> {
	const e = await work.then(
		() => null,
		(err: unknown) => err
	);
	expect(e).toBeInstanceOf(DomainError);
	return e as DomainError;
}

const described = (records: readonly RecordError[]) =>
	records.map((e) => [recordLabel(e), e.field, e.kind]);

describeEachDb('import edge cases', (h) => {
	const a = validRecord('short_answer', 1);
	const b = validRecord('true_false', 2);
	const c = validRecord('multiple_choice', 3);

	beforeEach(async () => {
		// Something in most tables to leave unchanged: passages, items and an earlier import.
		await importPassages(
			h.db,
			json([
				{ paragraph_id: 'test-p1-para01', text: 'Passage one.' },
				{ paragraph_id: 'test-p2-para01', text: 'Passage two.' }
			]),
			{ actor }
		);
		await importQaFiles(h.db, [json([validRecord('list', 9)], 'earlier.json')], { actor });
	});

	it('rejects a QA record repeated with different content, changing no table', async () => {
		const before = await countAllRows(h.db);
		const error = await rejection(
			importQaFiles(h.db, [json([a, b, { ...a, answer: 'Something else' }])], { actor })
		);
		expect(described(error.records)).toEqual([
			['batch.json record 3', 'question', 'conflicting_duplicate']
		]);
		expect(error.records[0].reason).toBe('repeats the question of record 1 with different content');
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('rejects a QA file with a key written twice, naming the record and the key path', async () => {
		const text = `[${JSON.stringify(a)}, [${JSON.stringify(b)},
			{"question": "Which one?", "question": "Which other?", "answer": "x",
			 "source": {"isbn": "", "page": 1, "paragraph_id": "p", "paragraph_id": "q"},
			 "type": "short_answer"}]]`;
		const before = await countAllRows(h.db);
		const error = await rejection(importQaFiles(h.db, [{ fileName: 'dup.json', text }], { actor }));
		// The nested array is flattened: its second entry is the third record.
		expect(described(error.records)).toEqual([
			['dup.json record 3', 'question', 'duplicate_key'],
			['dup.json record 3', 'source.paragraph_id', 'duplicate_key']
		]);
		expect(error.message).toBe(
			'Import rejected: 2 problems in 1 record of 3; nothing was imported.'
		);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('imports a QA record repeated exactly once, with a warning naming the repeat', async () => {
		const before = await countAllRows(h.db);
		const result = await importQaFiles(h.db, [json([a, b, a])], { actor });
		expect(result).toMatchObject({ created: 2, total: 2 });
		expect(result.warnings).toEqual([
			{
				kind: 'duplicate_record',
				message: '1 record repeats an earlier one with identical content; each was imported once.',
				count: 1,
				records: [
					{
						file: 'batch.json',
						index: 2,
						field: 'question',
						reason: 'repeats record 1 exactly; imported once'
					}
				]
			}
		]);
		expect(added(before, await countAllRows(h.db))).toEqual({
			import: 1,
			qa_item: 2,
			qa_item_version: 2,
			// The import creates each new item's primary review task and draws its secondary sample.
			review_task: 2,
			audit_event: 2
		});
	});

	it('imports QA pairs whose passage is missing, with a warning stored on the import', async () => {
		const before = await countAllRows(h.db);
		// a and b cite imported passages; c and a second question on c's paragraph do not.
		const c2 = { ...c, question: 'Another question on the third passage?' };
		const result = await importQaFiles(h.db, [json([a, b, c, c2])], { actor });
		expect(result.created).toBe(4);
		const [warning] = result.warnings;
		expect(warning).toMatchObject({ kind: 'missing_passage', count: 2 });
		expect(warning.message).toBe(
			'2 QA pairs cite a paragraph id with no imported passage: test-p3-para01. They are imported; reviewers cannot see their source until the passages are.'
		);
		expect(warning.records.map(recordLabel)).toEqual([
			'batch.json record 3',
			'batch.json record 4'
		]);
		const [stored] = await h.db
			.select()
			.from(importRecord)
			.where(eq(importRecord.id, result.importId));
		expect(stored.warnings).toEqual(result.warnings);
		expect(added(before, await countAllRows(h.db))).toEqual({
			import: 1,
			qa_item: 4,
			qa_item_version: 4,
			review_task: 4,
			audit_event: 2
		});
	});

	it('names the first ten missing paragraph ids and counts the rest', async () => {
		const many = Array.from({ length: 14 }, (_, i) => validRecord('short_answer', 100 + i));
		const { warnings } = await importQaFiles(h.db, [json(many)], { actor });
		expect(warnings[0].count).toBe(14);
		expect(warnings[0].message).toMatch(
			/^14 QA pairs cite 14 paragraph ids with no imported passage: test-p100-para01, .*test-p109-para01 and 4 more\./
		);
	});

	it('passages: a repeated id is imported once with a warning, or rejects when the text differs', async () => {
		let before = await countAllRows(h.db);
		const p = { paragraph_id: 'test-p7-para01', text: 'Seven.' };
		const result = await importPassages(h.db, json([p, { paragraph_id: 'x', text: 'X' }, p]), {
			actor
		});
		expect(result).toMatchObject({ created: 2, total: 2 });
		expect(result.warnings[0]).toMatchObject({ kind: 'duplicate_record', count: 1 });
		expect(result.warnings[0].records.map(recordLabel)).toEqual(['record 3']);
		expect(added(before, await countAllRows(h.db))).toEqual({
			import: 1,
			passage: 2,
			audit_event: 1
		});

		before = await countAllRows(h.db);
		const conflict = await rejection(
			importPassages(h.db, json([p, { ...p, text: 'Eight.' }]), { actor })
		);
		expect(described(conflict.records)).toEqual([
			['record 2', 'paragraph_id', 'conflicting_duplicate']
		]);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('passages: a key twice in JSON (an id in the id → text form) or a column twice in CSV rejects', async () => {
		const before = await countAllRows(h.db);
		const object = await rejection(
			importPassages(
				h.db,
				{ fileName: 'p.json', text: '{"a": "one", "b": "two", "a": "three"}' },
				{ actor }
			)
		);
		expect(described(object.records)).toEqual([['record 1', 'paragraph_id', 'duplicate_key']]);
		const array = await rejection(
			importPassages(
				h.db,
				{ fileName: 'p.json', text: '[{"paragraph_id": "a", "text": "one", "text": "two"}]' },
				{ actor }
			)
		);
		expect(described(array.records)).toEqual([['record 1', 'text', 'duplicate_key']]);
		const csv = await rejection(
			importPassages(
				h.db,
				{ fileName: 'p.csv', text: 'paragraph_id,text,text\na,one,two\n' },
				{ actor }
			)
		);
		expect(described(csv.records)).toEqual([['(file)', 'text', 'duplicate_key']]);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('outputs: the same (model, item) twice is imported once with a warning, or rejects when the outputs differ', async () => {
		await importQaFiles(h.db, [json([a, b])], { actor });
		const items = await h.db.select().from(qaItem).orderBy(qaItem.id);
		const key = items.find((i) => i.question === a.question)!.itemKey;
		const line = (response: string, item = key) => JSON.stringify({ item, model: 'm', response });
		let before = await countAllRows(h.db);
		const ok = await importResponses(
			h.db,
			[{ fileName: 'o.jsonl', text: [line('yes'), line('yes')].join('\n') }],
			{ actor }
		);
		expect(ok).toMatchObject({ created: 1, total: 1 });
		expect(ok.warnings[0].records.map(recordLabel)).toEqual(['o.jsonl record 2']);
		expect(added(before, await countAllRows(h.db))).toEqual({
			import: 1,
			model: 1,
			response: 1,
			audit_event: 1
		});

		before = await countAllRows(h.db);
		const conflict = await rejection(
			importResponses(
				h.db,
				[{ fileName: 'o.jsonl', text: [line('no'), line('maybe')].join('\n') }],
				{ actor }
			)
		);
		expect(described(conflict.records)).toEqual([
			['o.jsonl record 2', 'item', 'conflicting_duplicate']
		]);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('outputs: a key twice in a JSONL line or in a submission file rejects, naming record and key', async () => {
		await importQaFiles(h.db, [json([a])], { actor });
		const before = await countAllRows(h.db);
		const jsonl = await rejection(
			importResponses(
				h.db,
				[
					{
						fileName: 'o.jsonl',
						text: '\n{"item": 1, "model": "m", "response": "a", "response": "b"}'
					}
				],
				{ actor }
			)
		);
		expect(described(jsonl.records)).toEqual([['o.jsonl record 2', 'response', 'duplicate_key']]);
		const text = `{"inputs": [${JSON.stringify({ ...a, type: 'short_answer' }).replace('{', '{"type": "x", ')}],
			"responses": ["one"], "responses": ["two"]}`;
		const submission = await rejection(
			importResponses(h.db, [{ fileName: 'short_answer.json', text }], { actor, model: 'm' })
		);
		expect(described(submission.records)).toEqual([
			['short_answer.json record 1', 'inputs.type', 'duplicate_key'],
			['short_answer.json (file)', 'responses', 'duplicate_key']
		]);
		expect(await countAllRows(h.db)).toEqual(before);
	});
});
