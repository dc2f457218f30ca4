import { count, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { importRecord, model, qaItem, response } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { validRecord } from '../../fixtures/records';
import { DomainError } from '../../errors';
import { importQaFiles } from './qa-import';
import { importResponses } from './response-import';

const actor = { userId: null, label: 'test' };

describeEachDb('model output import', (h) => {
	const tf = validRecord('true_false', 1);
	const sa = validRecord('short_answer', 2);
	beforeEach(async () => {
		await importQaFiles(h.db, [{ fileName: 'qa.json', text: JSON.stringify([tf, sa]) }], { actor });
	});

	const submission = (inputs: object[], responses: unknown[]) => ({
		fileName: 'true_false.json',
		text: JSON.stringify({ inputs, responses, prompts: inputs.map(() => 'prompt') })
	});

	it('matches submission files to items by their QA record and keeps the raw output', async () => {
		const raw = [{ generated_text: '<think>hmm</think> True. Metformin is first line.' }];
		const result = await importResponses(h.db, [submission([tf], [raw])], { actor, model: 'm-1' });
		expect(result).toMatchObject({ created: 1, updated: 0, unchanged: 0, models: ['m-1'] });
		const [row] = await h.db.select().from(response);
		expect(row.raw).toEqual(raw);
		expect(row.text).toBe('True. Metformin is first line.');
	});

	it('imports JSONL by item key, with the model per line, and is idempotent', async () => {
		const items = await h.db.select().from(qaItem).orderBy(qaItem.id);
		const lines = [
			{ item: items[0].itemKey, model: 'a', response: 'False' },
			{ item: items[1].itemKey, model: 'b', response: 'Average glucose.' }
		];
		const file = {
			fileName: 'out.jsonl',
			text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
		};
		expect(await importResponses(h.db, [file], { actor })).toMatchObject({ created: 2 });
		expect(await importResponses(h.db, [file], { actor })).toMatchObject({
			created: 0,
			unchanged: 2
		});
		lines[1].response = 'Mean glucose over three months.';
		const changed = { fileName: 'out.jsonl', text: lines.map((l) => JSON.stringify(l)).join('\n') };
		expect(await importResponses(h.db, [changed], { actor })).toMatchObject({
			updated: 1,
			unchanged: 1
		});
		expect((await h.db.select().from(model)).map((m) => m.name).sort()).toEqual(['a', 'b']);
	});

	it('rejects the whole import when one record matches no item, writing nothing', async () => {
		const unknown = { ...tf, question: 'A question that was never imported.' };
		const error = await importResponses(h.db, [submission([tf, unknown], ['True', 'False'])], {
			actor,
			model: 'm-1'
		}).catch((e) => e);
		expect(error).toBeInstanceOf(DomainError);
		expect((error as DomainError).records).toHaveLength(1);
		expect((error as DomainError).records[0]).toMatchObject({ index: 1, field: 'item' });
		expect((error as DomainError).records[0].reason).toMatch(/matches no QA item/);
		const [[r], [m], imports] = await Promise.all([
			h.db.select({ n: count() }).from(response),
			h.db.select({ n: count() }).from(model),
			h.db.select().from(importRecord).where(eq(importRecord.kind, 'responses'))
		]);
		expect([r.n, m.n, imports.length]).toEqual([0, 0, 0]);
	});

	it('refuses a response with a NUL or a broken character, naming the record, writing nothing', async () => {
		const before = await h.db.select({ n: count() }).from(response);
		const error = (await importResponses(
			h.db,
			[submission([tf, sa], ['True\u0000', { answer: 'x \uDC00' }])],
			{ actor, model: 'm-1' }
		).catch((e) => e)) as DomainError;
		expect(error.records.map((e) => [e.index, e.field, e.reason.split(' (')[0]])).toEqual([
			[0, 'response', 'contains a NUL character'],
			[1, 'response.answer', 'contains a broken character']
		]);
		expect(await h.db.select({ n: count() }).from(response)).toEqual(before);
	});

	it('refuses mismatched inputs/responses lengths and a missing model name', async () => {
		const lengths = await importResponses(h.db, [submission([tf, sa], ['True'])], {
			actor,
			model: 'x'
		}).catch((e) => e);
		expect((lengths as DomainError).records[0].reason).toMatch(/has 1 entries but inputs has 2/);
		const noModel = await importResponses(h.db, [submission([tf], ['True'])], { actor }).catch(
			(e) => e
		);
		expect((noModel as DomainError).records[0].field).toBe('model');
	});

	it('reports bad JSONL lines with their line number', async () => {
		const file = {
			fileName: 'out.jsonl',
			text: '{"item": "x", "model": "a", "response": "ok"}\nnot json\n{"model": "a"}'
		};
		const error = (await importResponses(h.db, [file], { actor }).catch((e) => e)) as DomainError;
		expect(error.records.map((e) => [e.index, e.field])).toEqual([
			[1, '(line)'],
			[2, 'response'],
			[2, 'item']
		]);
	});
});
