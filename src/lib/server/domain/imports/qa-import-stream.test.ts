import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { QA_TYPES } from '../../../constants';
import { recordLabel } from '../../../schemas/qa-record';
import { rowsOf } from '../../db/client';
import { qaItem, qaItemVersion, reviewTask } from '../../db/schema';
import { countAllRows, describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { validRecord } from '../../fixtures/records';
import { importQaFiles, type StreamedFile } from './qa-import';

// Large files are read as they arrive and written in batches inside the import's transaction:
// what a reader sees must not depend on where the chunks end, and a problem found after some
// batches were written must still leave the database as it was.

const actor = { userId: null, label: 'test' };

/** Records of every type, with characters of several UTF-8 lengths in their questions. */
const records = (n: number, from = 1) =>
	Array.from({ length: n }, (_, i) => {
		const r = validRecord(QA_TYPES[i % QA_TYPES.length], from + i);
		return { ...r, question: `${r.question as string} — é 🩺 "quoted" \\ [x]` };
	});

/** A file's bytes in chunks of `size` bytes: characters, strings and records cut anywhere. */
function streamed(fileName: string, text: string, size: number): StreamedFile {
	const bytes = new TextEncoder().encode(text);
	async function* chunks() {
		for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
	}
	return { fileName, chunks: chunks() };
}

async function rejection(work: Promise<unknown>): Promise<DomainError> {
	const e = await work.then(
		() => null,
		(err: unknown) => err
	);
	expect(e).toBeInstanceOf(DomainError);
	return e as DomainError;
}

describeEachDb('QA import of streamed files', (h) => {
	it('reads records cut across chunks exactly as the whole text', async () => {
		const batch = records(14);
		const result = await importQaFiles(
			h.db,
			[streamed('batch.json', JSON.stringify(batch, null, 1), 7)],
			{ actor }
		);
		expect(result).toMatchObject({ created: 14, updated: 0, unchanged: 0, total: 14 });
		const stored = await h.db
			.select({ record: qaItemVersion.record })
			.from(qaItemVersion)
			.orderBy(qaItemVersion.id);
		expect(stored.map((s) => (s.record as { question: string }).question)).toEqual(
			batch.map((r) => r.question)
		);
		// The same records as one text: recognised as unchanged, so they were read identically.
		const again = await importQaFiles(
			h.db,
			[{ fileName: 'batch.json', text: JSON.stringify(batch) }],
			{ actor }
		);
		expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 14 });
	});

	it('reads JSON Lines as the array form, naming a bad line by its number', async () => {
		const batch = records(7);
		const lines = `${batch.map((r) => JSON.stringify(r)).join('\n')}\n`;
		const result = await importQaFiles(h.db, [streamed('batch.jsonl', lines, 11)], { actor });
		expect(result).toMatchObject({ created: 7, total: 7 });
		const again = await importQaFiles(
			h.db,
			[{ fileName: 'batch.json', text: JSON.stringify(batch) }],
			{ actor }
		);
		expect(again).toMatchObject({ created: 0, unchanged: 7 });

		const before = await countAllRows(h.db);
		const empty = { ...validRecord('true_false', 60), question: ' ' };
		const bad = [...records(2, 50), null, empty].map((r) => (r ? JSON.stringify(r) : ''));
		const error = await rejection(
			importQaFiles(h.db, [{ fileName: 'more.jsonl', text: bad.join('\n') }], { actor })
		);
		expect(error.records.map((e) => [recordLabel(e), e.field, e.reason])).toEqual([
			['more.jsonl record 4', 'question', 'must not be empty']
		]);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('a bad record after a written batch rejects the whole import and leaves every table as it was', async () => {
		await importQaFiles(h.db, [{ fileName: 'first.json', text: JSON.stringify(records(3)) }], {
			actor
		});
		const before = await countAllRows(h.db);
		// More than one batch: the first 2,000 records are written before the bad one is read.
		const many: Record<string, unknown>[] = records(2100, 100);
		many[2098] = { ...many[2098], question: '' };
		let written = 0;
		const error = await rejection(
			importQaFiles(h.db, [streamed('many.json', JSON.stringify(many), 65536)], {
				actor,
				onProgress: (done) => (written = done)
			})
		);
		expect(written).toBeGreaterThan(0);
		expect(error.message).toBe(
			'Import rejected: 1 problem in 1 record of 2100; nothing was imported.'
		);
		expect(error.records.map((e) => [recordLabel(e), e.field])).toEqual([
			['many.json record 2099', 'question']
		]);
		expect(await countAllRows(h.db)).toEqual(before);

		// A file cut short after its first batch is rejected as a file, and also writes nothing.
		const text = JSON.stringify(records(2100, 100));
		const cut = await rejection(
			importQaFiles(h.db, [streamed('cut.json', text.slice(0, text.length - 40), 65536)], {
				actor
			})
		);
		expect(cut.records).toEqual([
			{
				index: -1,
				field: '(file)',
				reason: 'cut.json is not valid JSON: the file ends inside a record (line 1)'
			}
		]);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('refuses a page number no database integer holds, per record, writing nothing', async () => {
		const before = await countAllRows(h.db);
		const batch: Record<string, unknown>[] = records(3);
		const source = batch[1].source as Record<string, unknown>;
		batch[1] = { ...batch[1], source: { ...source, page: 3_000_000_000 } };
		const error = await rejection(
			importQaFiles(h.db, [{ fileName: 'pages.json', text: JSON.stringify(batch) }], { actor })
		);
		expect(error.records.map((e) => [recordLabel(e), e.field, e.reason])).toEqual([
			['pages.json record 2', 'source.page', 'is larger than 2,147,483,647']
		]);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('creates the review tasks and refreshes the planner statistics after a large import', async () => {
		const result = await importQaFiles(
			h.db,
			[streamed('large.json', JSON.stringify(records(1200)), 65536)],
			{ actor }
		);
		expect(result.created).toBe(1200);
		const [tasks] = await h.db
			.select({ n: sql<number>`count(*)::int` })
			.from(reviewTask)
			.where(sql`${reviewTask.round} = 'primary'`);
		expect(tasks.n).toBe(1200);
		const [estimate] = rowsOf<{ items: number; versions: number }>(
			await h.db.execute(sql`
				select (select reltuples from pg_class where oid = 'qa_item'::regclass)::int as items,
					(select reltuples from pg_class where oid = 'qa_item_version'::regclass)::int as versions`)
		);
		const [items] = await h.db.select({ n: sql<number>`count(*)::int` }).from(qaItem);
		expect(estimate).toEqual({ items: items.n, versions: items.n });
		// The search indexes hold the new rows themselves, not in a pending list every search reads.
		const pending = rowsOf<{ pages: number }>(
			await h.db.execute(sql`
				select gin_clean_pending_list(c.oid)::int as pages from pg_class c
				where c.relname in ('qa_item_version_question_trgm', 'qa_item_version_answer_trgm')`)
		);
		expect(pending).toEqual([{ pages: 0 }, { pages: 0 }]);
	});
});
