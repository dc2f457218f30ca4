import { count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { QA_TYPES } from '../../../constants';
import { recordLabel } from '../../../schemas/qa-record';
import { TEXT_LIMITS } from '../../../schemas/text';
import { auditEvent, importRecord, qaItem, qaItemVersion } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { validRecord } from '../../fixtures/records';
import { DomainError } from '../../errors';
import { importQaFiles } from './qa-import';

const actor = { userId: null, label: 'test' };
const file = (records: unknown, fileName = 'mixed.json') => ({
	fileName,
	text: JSON.stringify(records)
});
const allTypes = () => QA_TYPES.map((t, i) => validRecord(t, i));

describeEachDb('QA import', (h) => {
	async function tableCounts() {
		const [[items], [versions], [imports], [audits]] = await Promise.all([
			h.db.select({ n: count() }).from(qaItem),
			h.db.select({ n: count() }).from(qaItemVersion),
			h.db.select({ n: count() }).from(importRecord),
			h.db.select({ n: count() }).from(auditEvent)
		]);
		return { items: items.n, versions: versions.n, imports: imports.n, audits: audits.n };
	}

	it('imports all seven types from a mixed array, with typed columns and the raw record', async () => {
		const result = await importQaFiles(h.db, [file(allTypes())], { actor });
		expect(result).toMatchObject({ created: 7, unchanged: 0, updated: 0, total: 7 });
		const versions = await h.db.select().from(qaItemVersion);
		const mc = versions.find((v) => v.type === 'multiple_choice')!;
		expect(mc.correctAnswer).toBe('ACE inhibitors');
		expect(mc.options).toHaveLength(4);
		const mhi = versions.find((v) => v.type === 'multi_hop_inverse')!;
		expect(mhi.incorrectStep).toBe(2);
		expect(mhi.incorrectStepExplanation).toMatch(/raise serum uric acid/);
		expect((mhi.record as Record<string, unknown>).incorrect_reasoning_step).toHaveLength(2);
		const items = await h.db.select().from(qaItem);
		expect(
			items.every((i) => i.currentVersionId !== null && i.firstImportId === result.importId)
		).toBe(true);
	});

	it('takes the type from the file name when records have none', async () => {
		const { type: _t, ...untyped } = validRecord('true_false');
		const result = await importQaFiles(h.db, [file([untyped], 'TF.json')], { actor });
		expect(result.created).toBe(1);
		const [item] = await h.db.select().from(qaItem);
		expect(item.type).toBe('true_false');
	});

	it('rejects the whole file when one record is bad and writes nothing', async () => {
		const records = allTypes();
		records[4] = { ...records[4], incorrect_explanation: '' };
		const before = await tableCounts();
		const error = await importQaFiles(h.db, [file(records)], { actor }).catch((e) => e);
		expect(error).toBeInstanceOf(DomainError);
		expect((error as DomainError).records).toEqual([
			{ file: 'mixed.json', index: 4, field: 'incorrect_explanation', reason: 'must not be empty' }
		]);
		expect(await tableCounts()).toEqual(before);
	});

	it('counts the bad records, not all records, and names them as people count (from 1)', async () => {
		const records = allTypes();
		records[0] = { ...records[0], question: '' };
		records[4] = { ...records[4], incorrect_explanation: '', question: '' };
		const error = (await importQaFiles(h.db, [file(records)], { actor }).catch(
			(e) => e
		)) as DomainError;
		expect(error.message).toBe(
			`Import rejected: 3 problems in 2 records of ${records.length}; nothing was imported.`
		);
		expect(error.records.map(recordLabel)).toEqual([
			'mixed.json record 1',
			'mixed.json record 5',
			'mixed.json record 5'
		]);
	});

	it('refuses text the database cannot store, or too long, per record and field, writing nothing', async () => {
		const records: Record<string, unknown>[] = allTypes();
		records[0] = { ...records[0], question: 'Is it safe?\u0000' };
		records[1] = { ...records[1], options: ['A', 'B \uD800 broken', 'C', 'D'] };
		records[2] = { ...records[2], question: 'x'.repeat(TEXT_LIMITS.field + 1) };
		records[3] = { ...records[3], ['note\u0000']: 'a key with a NUL' };
		const before = await tableCounts();
		const error = (await importQaFiles(h.db, [file(records)], { actor }).catch(
			(e) => e
		)) as DomainError;
		expect(error).toBeInstanceOf(DomainError);
		expect(error.records.map((e) => [recordLabel(e), e.field, e.reason.split(' (')[0]])).toEqual([
			['mixed.json record 1', 'question', 'contains a NUL character'],
			['mixed.json record 2', 'options[1]', 'contains a broken character'],
			['mixed.json record 3', 'question', 'is longer than 20,000 characters'],
			['mixed.json record 4', 'note\u0000', 'its name contains a NUL character']
		]);
		expect(await tableCounts()).toEqual(before);
	});

	it('rolls back everything when the database fails half-way', async () => {
		await importQaFiles(h.db, [file([validRecord('short_answer', 1)])], { actor });
		const before = await tableCounts();
		// A record whose key collides after a concurrent change cannot happen in one transaction,
		// so force a failure inside it: a progress callback that throws after the first write.
		const many = Array.from({ length: 600 }, (_, i) => validRecord('short_answer', i + 10));
		const failing = importQaFiles(h.db, [file(many)], {
			actor,
			onProgress: (done) => {
				if (done > 0) throw new Error('disk full');
			}
		});
		await expect(failing).rejects.toThrow('disk full');
		expect(await tableCounts()).toEqual(before);
	});

	it('is idempotent: re-importing the same records changes nothing', async () => {
		await importQaFiles(h.db, [file(allTypes())], { actor });
		const after1 = await tableCounts();
		const shuffledKeys = allTypes().map((r) => Object.fromEntries(Object.entries(r).reverse()));
		const again = await importQaFiles(h.db, [file(shuffledKeys)], { actor });
		expect(again).toMatchObject({ created: 0, unchanged: 7, updated: 0 });
		const after2 = await tableCounts();
		expect(after2.items).toBe(after1.items);
		expect(after2.versions).toBe(after1.versions);
	});

	it('a changed answer creates a new version of the same item', async () => {
		await importQaFiles(h.db, [file([validRecord('short_answer', 1)])], { actor });
		const changed = {
			...validRecord('short_answer', 1),
			answer: 'Glycated haemoglobin over 8–12 weeks.'
		};
		const result = await importQaFiles(h.db, [file([changed])], { actor });
		expect(result).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
		const [item] = await h.db.select().from(qaItem);
		expect(item.currentVersion).toBe(2);
		const versions = await h.db
			.select()
			.from(qaItemVersion)
			.where(eq(qaItemVersion.itemId, item.id));
		expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
		const current = versions.find((v) => v.id === item.currentVersionId)!;
		expect(current.answer).toBe('Glycated haemoglobin over 8–12 weeks.');
		expect(item.lastImportId).toBe(result.importId);
	});

	it('keeps two questions on one passage apart and refuses conflicting duplicates', async () => {
		const a = validRecord('short_answer', 1);
		const b = { ...a, question: 'A different question on the same passage?' };
		expect((await importQaFiles(h.db, [file([a, b])], { actor })).created).toBe(2);
		const conflict = { ...a, answer: 'Something else' };
		const error = await importQaFiles(h.db, [file([a, conflict])], { actor }).catch((e) => e);
		expect((error as DomainError).records[0]).toMatchObject({ index: 1, field: 'question' });
	});

	it('records who imported what', async () => {
		const result = await importQaFiles(h.db, [file(allTypes(), 'batch-1.json')], {
			actor: { userId: null, label: 'cli (alice)' }
		});
		const [imp] = await h.db
			.select()
			.from(importRecord)
			.where(eq(importRecord.id, result.importId));
		expect(imp).toMatchObject({
			kind: 'qa',
			fileName: 'batch-1.json',
			actor: 'cli (alice)',
			created: 7
		});
		const [audit] = await h.db.select().from(auditEvent).where(eq(auditEvent.action, 'import.qa'));
		expect(audit).toMatchObject({ objectId: String(result.importId) });
	});

	it('rejects malformed JSON and non-array files clearly', async () => {
		const bad = await importQaFiles(h.db, [{ fileName: 'x.json', text: '[{' }], { actor }).catch(
			(e) => e
		);
		expect((bad as DomainError).records[0].reason).toMatch(/x\.json is not valid JSON/);
		const obj = await importQaFiles(h.db, [file({ a: 1 })], { actor }).catch((e) => e);
		expect((obj as DomainError).records[0].reason).toBe('must be a JSON array of QA records');
	});
});
