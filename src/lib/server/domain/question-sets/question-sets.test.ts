import { count } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordLabel, type RecordError } from '../../../schemas/qa-record';
import { importRecord, setQuestion, setResponse } from '../../db/schema';
import { countAllRows, describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { getQuestionSet, importQuestions, importSetResponses, listQuestionSets } from '.';

const actor = { userId: null, label: 'test' };
const jsonl = (fileName: string, records: unknown[]) => ({
	fileName,
	text: records.map((r) => JSON.stringify(r)).join('\n') + '\n'
});
const json = (fileName: string, value: unknown) => ({ fileName, text: JSON.stringify(value) });

const q1 = {
	id: 'q1',
	question: 'Can I take ibuprofen with lisinopril?',
	reference_answer: 'Avoid.'
};
const q2 = {
	id: 2,
	question: 'What does an HbA1c of 8% mean?',
	context: '54-year-old with type 2 diabetes.',
	documents: [{ id: 'd1', title: 'ADA 2024', text: 'Targets below 7%.' }]
};
const q3 = { id: 'q3', question: 'Is a fever of 38.5 °C dangerous for an adult?' };

/** The problems of a rejected import, as the page lists them ("f record 2 → field → reason"). */
async function problems(work: Promise<unknown>): Promise<RecordError[]> {
	const e = await work.then(
		() => null,
		(err: unknown) => err
	);
	expect(e).toBeInstanceOf(DomainError);
	return [...(e as DomainError).records];
}
const labelled = (errors: RecordError[]) => errors.map((e) => `${recordLabel(e)} ${e.field}`);

describeEachDb('question sets', (h) => {
	const questions = () => h.db.select().from(setQuestion).orderBy(setQuestion.id);
	const responses = async () => (await h.db.select({ n: count() }).from(setResponse))[0].n;

	it('imports a set from a JSON array and its responses from JSONL, many models in one file', async () => {
		const result = await importQuestions(h.db, [json('set.json', [q1, q2, q3])], {
			setName: 'Patient questions',
			description: 'From the clinic inbox',
			actor
		});
		expect(result).toMatchObject({
			created: 3,
			updated: 0,
			unchanged: 0,
			total: 3,
			setCreated: true
		});
		const rows = await questions();
		// The integer id 2 is kept as its text "2"; the record is stored exactly as given.
		expect(rows.map((r) => r.externalId)).toEqual(['q1', '2', 'q3']);
		expect(rows[1]).toMatchObject({ context: q2.context, documents: q2.documents, record: q2 });
		expect(rows[0].referenceAnswer).toBe('Avoid.');

		const answers = [
			{ question_id: 'q1', model: 'm-a', response: '<think>hmm</think> Better avoid it.' },
			{ question_id: 2, model: 'm-a', response: 'Above target.' },
			{ question_id: 'q1', model: 'm-b', response: 'Ask your doctor.' }
		];
		const r = await importSetResponses(h.db, [jsonl('out.jsonl', answers)], {
			setName: 'Patient questions',
			actor
		});
		expect(r).toMatchObject({ created: 3, total: 3, models: ['m-a', 'm-b'] });
		const [kept] = await h.db.select().from(setResponse).orderBy(setResponse.id).limit(1);
		// Kept as given: the think block is the presentation's business.
		expect(kept.text).toBe('<think>hmm</think> Better avoid it.');
		const [set] = await listQuestionSets(h.db);
		expect(set).toMatchObject({
			name: 'Patient questions',
			description: 'From the clinic inbox',
			questions: 3,
			responses: 3,
			models: [
				{ name: 'm-a', responses: 2 },
				{ name: 'm-b', responses: 1 }
			]
		});
		expect(await getQuestionSet(h.db, set.id)).toEqual(set);
		expect(await getQuestionSet(h.db, set.id + 1)).toBeNull();
		const kinds = await h.db.select({ kind: importRecord.kind }).from(importRecord);
		expect(kinds.map((k) => k.kind).sort()).toEqual(['questions', 'set_responses']);
	});

	it('reads {"questions": [...]} and adds to an existing set', async () => {
		await importQuestions(h.db, [json('a.json', { questions: [q1] })], { setName: 'S', actor });
		const again = await importQuestions(h.db, [jsonl('b.jsonl', [q2, q3])], {
			setName: 'S',
			actor
		});
		expect(again).toMatchObject({ created: 2, setCreated: false });
		expect((await listQuestionSets(h.db)).map((s) => [s.name, s.questions])).toEqual([['S', 3]]);
	});

	it('names every bad record 1-based with its field, and writes nothing', async () => {
		const before = await countAllRows(h.db);
		const lines = [
			JSON.stringify(q1),
			'{"id": "q2", "question": ', // line 2: not JSON
			JSON.stringify({ id: 'q3' }), // line 3: no question
			JSON.stringify({ id: 'q4', question: 'x'.repeat(20_001) }), // line 4: too long
			JSON.stringify({ id: 'q5', question: 'ok', documents: [{ title: 'no id' }] }) // line 5
		].join('\n');
		const found = await problems(
			importQuestions(h.db, [{ fileName: 'q.jsonl', text: lines }], { setName: 'S', actor })
		);
		expect(labelled(found)).toEqual([
			'q.jsonl record 2 (record)',
			'q.jsonl record 3 question',
			'q.jsonl record 4 question',
			'q.jsonl record 5 documents[0].id'
		]);
		expect(found[1].reason).toBe('is missing');
		expect(found[2].reason).toBe('is longer than 20,000 characters');
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('rejects a whole response file for one unknown question id, writing no model or response', async () => {
		await importQuestions(h.db, [json('set.json', [q1])], { setName: 'S', actor });
		const before = await countAllRows(h.db);
		const found = await problems(
			importSetResponses(
				h.db,
				[
					jsonl('out.jsonl', [
						{ question_id: 'q1', model: 'new-model', response: 'fine' },
						{ question_id: 'q9', model: 'new-model', response: 'lost' }
					])
				],
				{ setName: 'S', actor }
			)
		);
		expect(labelled(found)).toEqual(['out.jsonl record 2 question_id']);
		expect(found[0].reason).toMatch(/"q9", which set "S" does not have/);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('imports an exact repeat once with a warning, and rejects a conflicting one naming both', async () => {
		const ok = await importQuestions(h.db, [json('set.json', [q1, q3, q1])], {
			setName: 'S',
			actor
		});
		expect(ok).toMatchObject({ created: 2, total: 2 });
		expect(ok.warnings).toMatchObject([{ kind: 'duplicate_record', count: 1 }]);
		expect(ok.warnings[0].records[0]).toMatchObject({ index: 2, field: 'id' });

		const found = await problems(
			importQuestions(h.db, [json('x.json', [q3, { ...q3, question: 'Other text?' }])], {
				setName: 'S',
				actor
			})
		);
		expect(found).toMatchObject([{ index: 1, field: 'id', kind: 'conflicting_duplicate' }]);
		expect(found[0].reason).toBe('repeats the id "q3" of record 1 with different content');

		await importQuestions(h.db, [json('set.json', [q1])], { setName: 'S', actor });
		const twice = await problems(
			importSetResponses(
				h.db,
				[
					jsonl('a.jsonl', [
						{ question_id: 'q1', model: 'm', response: 'Yes.' },
						{ question_id: 'q1', model: 'm', response: 'No.' }
					])
				],
				{ setName: 'S', actor }
			)
		);
		expect(labelled(twice)).toEqual(['a.jsonl record 2 question_id']);
		const same = { question_id: 'q1', model: 'm', response: 'Yes.' };
		const once = await importSetResponses(h.db, [jsonl('a.jsonl', [same, same])], {
			setName: 'S',
			actor
		});
		expect(once).toMatchObject({ created: 1, warnings: [{ kind: 'duplicate_record', count: 1 }] });
	});

	it('leaves identical re-imports unchanged and updates changed ones', async () => {
		await importQuestions(h.db, [json('set.json', [q1, q3])], { setName: 'S', actor });
		const again = await importQuestions(
			h.db,
			[json('set.json', [q1, { ...q3, reference_answer: 'Usually not.' }])],
			{ setName: 'S', actor }
		);
		expect(again).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
		expect((await questions())[1].referenceAnswer).toBe('Usually not.');

		const out = [{ question_id: 'q1', model: 'm', response: 'A' }];
		await importSetResponses(h.db, [jsonl('o.jsonl', out)], { setName: 'S', actor });
		expect(
			await importSetResponses(h.db, [jsonl('o.jsonl', out)], { setName: 'S', actor })
		).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
		const changed = [{ question_id: 'q1', model: 'm', response: 'B' }];
		expect(
			await importSetResponses(h.db, [jsonl('o.jsonl', changed)], { setName: 'S', actor })
		).toMatchObject({ updated: 1 });
		expect(await responses()).toBe(1);
		const [row] = await h.db.select().from(setResponse);
		expect(row.text).toBe('B');
	});

	it('keeps unknown keys with the record and names them in a warning', async () => {
		const withAnswer = { id: 'q1', question: 'Q?', answer: 'A.' };
		const r = await importQuestions(h.db, [json('s.json', [withAnswer])], { setName: 'S', actor });
		expect(r.warnings).toMatchObject([{ kind: 'unknown_key', count: 1 }]);
		expect(r.warnings[0].records[0]).toMatchObject({ index: 0, field: 'answer' });
		expect(r.warnings[0].records[0].reason).toMatch(/did you mean "reference_answer"/);
		const [row] = await questions();
		expect(row.record).toEqual(withAnswer);
		expect(row.referenceAnswer).toBeNull();
	});

	it('refuses responses to a set that does not exist', async () => {
		const e = await importSetResponses(
			h.db,
			[jsonl('o.jsonl', [{ question_id: 'q1', model: 'm', response: 'A' }])],
			{ setName: 'Nope', actor }
		).catch((x: unknown) => x);
		expect(e).toBeInstanceOf(DomainError);
		expect((e as DomainError).field).toBe('set');
	});

	describe('hostile input', () => {
		let before: Record<string, number>;
		beforeEach(async () => {
			before = await countAllRows(h.db);
		});

		it('refuses a file nested 100,000 deep with the reader’s limit, writing nothing', async () => {
			const deep = '['.repeat(100_000) + ']'.repeat(100_000);
			const found = await problems(
				importQuestions(h.db, [{ fileName: 's.json', text: `[${JSON.stringify(q1)}, ${deep}]` }], {
					setName: 'S',
					actor
				})
			);
			expect(found).toHaveLength(1);
			expect(found[0]).toMatchObject({ index: -1, field: '(file)' });
			expect(found[0].reason).toMatch(/nests deeper than 64 levels in record 2/);
			const wrapped = await problems(
				importQuestions(h.db, [{ fileName: 's.json', text: `{"questions": ${deep}}` }], {
					setName: 'S',
					actor
				})
			);
			expect(wrapped[0].reason).toMatch(/nests deeper than 64 levels/);
			const line = await problems(
				importSetResponses(h.db, [{ fileName: 'o.jsonl', text: deep }], { setName: 'S', actor })
			);
			expect(labelled(line)).toEqual(['o.jsonl record 1 (record)']);
			expect(await countAllRows(h.db)).toEqual(before);
		});

		it('names a NUL character by record and field', async () => {
			const found = await problems(
				importQuestions(h.db, [json('s.json', [q1, { id: 'q2', question: 'a\u0000b' }])], {
					setName: 'S',
					actor
				})
			);
			expect(labelled(found)).toEqual(['s.json record 2 question']);
			expect(found[0].reason).toMatch(/NUL character/);
			expect(await countAllRows(h.db)).toEqual(before);
		});

		it('refuses a 10 MB string as too long a record, in every file form', async () => {
			const huge = 'x'.repeat(10 * 1024 * 1024);
			const big = { id: 'q2', question: huge };
			const array = await problems(
				importQuestions(h.db, [json('s.json', [q1, big])], { setName: 'S', actor })
			);
			// The reader stops at the record, before holding it whole: record 2 of the array.
			expect(array[0].reason).toMatch(/^Record 2 .* longer than 1,000,000 characters/);
			const lines = await problems(
				importQuestions(h.db, [jsonl('s.jsonl', [q1, big])], { setName: 'S', actor })
			);
			expect(labelled(lines)).toEqual(['s.jsonl record 2 (record)']);
			const wrapped = await problems(
				importQuestions(h.db, [json('s.json', { questions: [q1, big] })], {
					setName: 'S',
					actor
				})
			);
			expect(labelled(wrapped)).toEqual(['s.json record 2 (record)']);
			expect(await countAllRows(h.db)).toEqual(before);
		});
	});
});
