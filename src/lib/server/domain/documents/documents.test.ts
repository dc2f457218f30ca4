// The documents import against a real database: sentences split on import, stored once by PMID,
// unchanged on an identical re-import and refused with other text, records named 1-based.
import { count } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { recordLabel, type RecordError } from '../../../schemas/qa-record';
import { auditEvent, document, importRecord } from '../../db/schema';
import { countAllRows, describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { documentCount, getDocuments, importDocuments, listDocuments } from '.';

// A stand-in splitter (the real one has its own tests): sentences end at ". ".
vi.mock('../../../text/sentences', () => ({
	splitSentences: (text: string) =>
		text
			.split(/(?<=\.)\s+/)
			.map((s) => s.trim())
			.filter(Boolean),
	splitAnswer: (text: string) => [{ text, citations: [] }]
}));

const actor = { userId: null, label: 'test' };
const jsonl = (fileName: string, records: unknown[]) => ({
	fileName,
	text: records.map((r) => JSON.stringify(r)).join('\n') + '\n'
});
const json = (fileName: string, value: unknown) => ({ fileName, text: JSON.stringify(value) });

const d1 = {
	pmid: '0034567890',
	title: 'Ibuprofen and ACE inhibitors',
	abstract: 'NSAIDs blunt ACE inhibitors. Kidney function may fall. Monitor creatinine.'
};
const d2 = { pmid: 23456789, abstract: 'HbA1c reflects three months of glucose.' };

async function problems(work: Promise<unknown>): Promise<RecordError[]> {
	const e = await work.then(
		() => null,
		(err: unknown) => err
	);
	expect(e).toBeInstanceOf(DomainError);
	return [...(e as DomainError).records];
}
const labelled = (errors: RecordError[]) => errors.map((e) => `${recordLabel(e)} ${e.field}`);

describeEachDb('documents', (h) => {
	it('imports JSONL, splitting each abstract into sentences, PMIDs without leading zeros', async () => {
		const r = await importDocuments(h.db, [jsonl('pubmed.jsonl', [d1, d2])], actor);
		expect(r).toMatchObject({ created: 2, updated: 0, unchanged: 0, total: 2, warnings: [] });
		const docs = await getDocuments(h.db, ['34567890', '23456789', '1']);
		expect([...docs.keys()].sort()).toEqual(['23456789', '34567890']);
		expect(docs.get('34567890')).toMatchObject({
			title: d1.title,
			sentences: [
				'NSAIDs blunt ACE inhibitors.',
				'Kidney function may fall.',
				'Monitor creatinine.'
			],
			record: d1
		});
		expect(docs.get('23456789')).toMatchObject({ title: '', sentences: [d2.abstract] });
		expect(await documentCount(h.db)).toBe(2);
		expect(await listDocuments(h.db)).toMatchObject([
			{ pmid: '34567890', sentences: 3 },
			{ pmid: '23456789', sentences: 1 }
		]);
		const [imp] = await h.db.select().from(importRecord);
		expect(imp).toMatchObject({ kind: 'documents', created: 2 });
		const events = await h.db.select().from(auditEvent);
		expect(events.map((e) => e.action)).toEqual(['import.documents']);
	});

	it('reads a JSON array and {"documents": [...]}', async () => {
		await importDocuments(h.db, [json('a.json', [d1])], actor);
		const r = await importDocuments(h.db, [json('b.json', { documents: [d2] })], actor);
		expect(r).toMatchObject({ created: 1 });
		expect(await documentCount(h.db)).toBe(2);
	});

	it('leaves an identical re-import unchanged and refuses other text for a stored PMID', async () => {
		await importDocuments(h.db, [jsonl('a.jsonl', [d1, d2])], actor);
		// The same document, its PMID spelt as an integer: the same content.
		const again = await importDocuments(
			h.db,
			[jsonl('a.jsonl', [{ ...d1, pmid: 34567890 }, d2])],
			actor
		);
		expect(again).toMatchObject({ created: 0, unchanged: 2 });

		const before = await countAllRows(h.db);
		const found = await problems(
			importDocuments(
				h.db,
				[
					jsonl('b.jsonl', [
						{ pmid: 1, abstract: 'New.' },
						{ ...d2, abstract: 'Revised.' }
					])
				],
				actor
			)
		);
		expect(labelled(found)).toEqual(['b.jsonl record 2 abstract']);
		expect(found[0].reason).toMatch(/PMID 23456789 is already imported with other text/);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('names bad records 1-based with their field and writes nothing', async () => {
		const before = await countAllRows(h.db);
		const found = await problems(
			importDocuments(
				h.db,
				[
					jsonl('p.jsonl', [
						d1,
						{ pmid: 'PMC123', abstract: 'x' },
						{ pmid: '1234567890123', abstract: 'x' },
						{ pmid: 5 },
						{ pmid: 6, abstract: '   ' },
						{ pmid: 7, abstract: 'x'.repeat(100_001) },
						{ pmid: 8, abstract: 'a\u0000b' },
						{ pmid: '000', abstract: 'zero' }
					])
				],
				actor
			)
		);
		expect(labelled(found)).toEqual([
			'p.jsonl record 2 pmid',
			'p.jsonl record 3 pmid',
			'p.jsonl record 4 abstract',
			'p.jsonl record 5 abstract',
			'p.jsonl record 6 abstract',
			'p.jsonl record 7 abstract',
			'p.jsonl record 8 pmid'
		]);
		expect(found[0].reason).toMatch(/must be a PubMed id/);
		expect(found[2].reason).toBe('is missing');
		expect(found[3].reason).toBe('must not be empty');
		expect(found[4].reason).toBe('is longer than 100,000 characters');
		expect(found[5].reason).toMatch(/NUL character/);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('imports a repeat once with a warning, and refuses a conflicting repeat naming both', async () => {
		const ok = await importDocuments(h.db, [jsonl('a.jsonl', [d1, d1])], actor);
		expect(ok).toMatchObject({ created: 1, warnings: [{ kind: 'duplicate_record', count: 1 }] });
		const found = await problems(
			importDocuments(h.db, [jsonl('b.jsonl', [d2, { ...d2, title: 'Other' }])], actor)
		);
		expect(found).toMatchObject([{ index: 1, field: 'pmid', kind: 'conflicting_duplicate' }]);
	});

	describe('a large file', () => {
		it('imports 10,000 documents in one go', async () => {
			const many = Array.from({ length: 10_000 }, (_, i) => ({
				pmid: 10_000_000 + i,
				title: `Study ${i}`,
				abstract: `Background ${i}. Methods. Results ${i % 7}. Conclusions.`
			}));
			const started = Date.now();
			const r = await importDocuments(h.db, [jsonl('big.jsonl', many)], actor);
			expect(r).toMatchObject({ created: 10_000, total: 10_000 });
			expect(Date.now() - started).toBeLessThan(60_000);
			const [{ n }] = await h.db.select({ n: count() }).from(document);
			expect(n).toBe(10_000);
			const again = await importDocuments(h.db, [jsonl('big.jsonl', many)], actor);
			expect(again).toMatchObject({ created: 0, unchanged: 10_000 });
		}, 120_000);
	});
});
