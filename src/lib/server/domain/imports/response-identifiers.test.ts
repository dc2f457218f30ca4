import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { findSampleDir } from '$scoring/testing/sample-dir';
import { skippedTitle } from '$scoring/testing/skip';
import { qaItem, response } from '../../db/schema';
import { countAllRows, describeEachDb } from '../../db/testing';
import { validRecord } from '../../fixtures/records';
import { recordLabel } from '../../../schemas/qa-record';
import { DomainError } from '../../errors';
import { importQaFiles } from './qa-import';
import { importResponses } from './response-import';

const actor = { userId: null, label: 'test' };

// Our own fixtures: two true/false items and two list items; the list items come from one
// passage (a paragraph id shared by two items of one type).
const tf1 = validRecord('true_false', 1);
const tf2 = validRecord('true_false', 2);
const list1 = validRecord('list', 3);
const list2: Record<string, unknown> = { ...validRecord('list', 4), source: list1.source };

const rejection = async (p: Promise<unknown>) => {
	const e = await p.catch((x) => x);
	expect(e).toBeInstanceOf(DomainError);
	return e as DomainError;
};

describeEachDb('model outputs matched by ClinIQLink identifiers', (h) => {
	let ids: Record<string, number>;
	beforeEach(async () => {
		const text = JSON.stringify([tf1, tf2, list1, list2]);
		await importQaFiles(h.db, [{ fileName: 'qa.json', text }], { actor });
		const items = await h.db.select().from(qaItem).orderBy(qaItem.id);
		ids = Object.fromEntries(items.map((i) => [i.question, i.id]));
	});
	const answers = async () =>
		Object.fromEntries(
			(await h.db.select().from(response)).map((r) => [r.itemId, r.text] as [number, string])
		);
	const file = (fileName: string, value: unknown) => ({ fileName, text: JSON.stringify(value) });

	it('matches a submission file by source paragraph id, also when the questions were reworded', async () => {
		const inputs = [tf2, tf1].map((r) => ({ ...r, question: `${r.question} (as prompted)` }));
		const submission = file('true_false.json', { inputs, responses: ['False', 'True'] });
		const result = await importResponses(h.db, [submission], {
			actor,
			model: 'm',
			matchBy: 'source'
		});
		expect(result.matches).toEqual([{ file: 'true_false.json', by: 'source', detected: false }]);
		expect(await answers()).toEqual({
			[ids[tf2.question as string]]: 'False',
			[ids[tf1.question as string]]: 'True'
		});
	});

	it('tells, when the whole record matches nothing, which item the paragraph id would match', async () => {
		const inputs = [{ ...tf1, question: 'Reworded?' }];
		const error = await rejection(
			importResponses(h.db, [file('true_false.json', { inputs, responses: ['True'] })], {
				actor,
				model: 'm'
			})
		);
		expect(error.records).toHaveLength(1);
		expect(error.records[0]).toMatchObject({ index: 0, kind: 'unmatched' });
		expect(error.records[0].reason).toMatch(
			new RegExp(
				`^true_false record of paragraph "test-p1-para01", question "Reworded\\?" matches no QA item .*by its paragraph id it would be item ${ids[tf1.question as string]}`
			)
		);
	});

	it('matches outputs alone by type and position, detected from the file', async () => {
		const result = await importResponses(
			h.db,
			[
				file('TF.json', ['True', 'False']),
				file('list.json', { responses: ['Tremor', 'Constipation'] })
			],
			{ actor, model: 'm' }
		);
		expect(result.matches).toEqual([
			{ file: 'TF.json', by: 'position', detected: true },
			{ file: 'list.json', by: 'position', detected: true }
		]);
		expect(await answers()).toEqual({
			[ids[tf1.question as string]]: 'True',
			[ids[tf2.question as string]]: 'False',
			[ids[list1.question as string]]: 'Tremor',
			[ids[list2.question as string]]: 'Constipation'
		});
	});

	it('matches JSON Lines by paragraph id or by type and index', async () => {
		const lines = [
			{ paragraph_id: 'test-p2-para01', model: 'a', response: 'False' },
			{ source: { paragraph_id: 'test-p1-para01' }, model: 'a', response: 'True' }
		];
		const byIndex = [{ type: 'list', index: 1, model: 'b', response: 'Tremor' }];
		const jsonl = (name: string, rows: object[]) => ({
			fileName: name,
			text: rows.map((r) => JSON.stringify(r)).join('\n')
		});
		const result = await importResponses(
			h.db,
			[jsonl('a.jsonl', lines), jsonl('b.jsonl', byIndex)],
			{
				actor
			}
		);
		expect(result.matches.map((m) => m.by)).toEqual(['source', 'position']);
		expect(await answers()).toEqual({
			[ids[tf2.question as string]]: 'False',
			[ids[tf1.question as string]]: 'True',
			[ids[list2.question as string]]: 'Tremor'
		});
	});

	it('lists every output that matched nothing, with identifier and position; skipped, or rejecting all', async () => {
		const outputs = file('true_false.json', ['True', 'False', 'True', 'False']);
		const before = await countAllRows(h.db);
		const rejected = await rejection(importResponses(h.db, [outputs], { actor, model: 'm' }));
		expect(rejected.records.map((r) => [recordLabel(r), r.reason.split(' matches')[0]])).toEqual([
			['true_false.json record 3', 'true_false #3 (index 2)'],
			['true_false.json record 4', 'true_false #4 (index 3)']
		]);
		expect(rejected.records[0].reason).toMatch(/the dataset has 2 true_false items/);
		expect(await countAllRows(h.db)).toEqual(before);

		const skipped = await importResponses(h.db, [outputs], {
			actor,
			model: 'm',
			unmatched: 'skip'
		});
		expect(skipped).toMatchObject({ created: 2, skipped: 2 });
		expect(skipped.warnings[0].kind).toBe('unmatched_response');
		expect(skipped.warnings[0].records.map(recordLabel)).toEqual([
			'true_false.json record 3',
			'true_false.json record 4'
		]);
		expect(await h.db.select({ n: count() }).from(response)).toEqual([{ n: 2 }]);
	});

	it('refuses a paragraph id that fits several items, writing nothing', async () => {
		const before = await countAllRows(h.db);
		const inputs = [list1, tf1];
		const error = await rejection(
			importResponses(h.db, [file('mixed.json', { inputs, responses: ['Tremor', 'True'] })], {
				actor,
				model: 'm',
				matchBy: 'source',
				unmatched: 'skip'
			})
		);
		expect(error.records).toHaveLength(1);
		expect(error.records[0]).toMatchObject({ index: 0, kind: 'ambiguous' });
		expect(error.records[0].reason).toMatch(
			new RegExp(
				`^paragraph id "test-p3-para01" \\(list\\) fits 2 QA items \\(item ${ids[list1.question as string]}, item ${ids[list2.question as string]}\\)`
			)
		);
		expect(await countAllRows(h.db)).toEqual(before);
		// The whole record tells the two apart.
		const whole = await importResponses(
			h.db,
			[file('mixed.json', { inputs, responses: ['Tremor', 'True'] })],
			{ actor, model: 'm' }
		);
		expect(whole.matches[0].by).toBe('record');
		expect((await answers())[ids[list1.question as string]]).toBe('Tremor');
	});

	it('refuses an identifier the file does not carry', async () => {
		const error = await rejection(
			importResponses(h.db, [file('true_false.json', ['True'])], {
				actor,
				model: 'm',
				matchBy: 'source'
			})
		);
		expect(error.records[0]).toMatchObject({ file: 'true_false.json', index: -1 });
		expect(error.records[0].reason).toMatch(/cannot be matched by the source paragraph id/);
	});
});

// The public ClinIQLink sample is read at test time for its shapes only (never copied here).
const { dir: SAMPLE_DIR, reason } = findSampleDir();
if (!SAMPLE_DIR) console.warn(`Skipping the sample-shaped output import test: ${reason}`);

describe.skipIf(!SAMPLE_DIR)(
	skippedTitle('ClinIQLink sample shapes (outputs by identifier)', SAMPLE_DIR ? null : reason),
	() => {
		describeEachDb('sample', (h) => {
			const files = SAMPLE_DIR
				? readdirSync(SAMPLE_DIR)
						.filter((f) => f.endsWith('.json'))
						.map((f) => ({
							fileName: f,
							records: JSON.parse(readFileSync(join(SAMPLE_DIR, f), 'utf8')) as Record<
								string,
								unknown
							>[]
						}))
				: [];
			beforeEach(async () => {
				await importQaFiles(
					h.db,
					files.map((f) => ({ fileName: f.fileName, text: JSON.stringify(f.records) })),
					{ actor }
				);
			});

			it('imports submission files built from the sample by paragraph id, and outputs alone by position', async () => {
				const total = files.reduce((n, f) => n + f.records.length, 0);
				const submissions = files.map((f) => ({
					fileName: f.fileName,
					text: JSON.stringify({
						inputs: f.records,
						responses: f.records.map((_, i) => `answer ${i}`),
						prompts: f.records.map(() => 'prompt')
					})
				}));
				const bySource = await importResponses(h.db, submissions, {
					actor,
					model: 'm',
					matchBy: 'source'
				});
				expect(bySource).toMatchObject({ created: total, skipped: 0 });
				const alone = files.map((f) => ({
					fileName: f.fileName,
					text: JSON.stringify(f.records.map((_, i) => `answer ${i}`))
				}));
				const byPosition = await importResponses(h.db, alone, { actor, model: 'm' });
				expect(byPosition.matches.every((m) => m.by === 'position')).toBe(true);
				// Sample items are imported in file order, so positions pair each output with its record.
				expect(byPosition).toMatchObject({ created: 0, updated: 0, unchanged: total });
				expect(
					await h.db.select({ n: count() }).from(response).where(eq(response.text, 'answer 0'))
				).toEqual([{ n: files.length }]);
			});
		});
	}
);
