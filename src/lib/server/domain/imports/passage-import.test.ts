import { expect, it } from 'vitest';
import { passage } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { getItem } from '../items/items';
import { importPassages } from './passage-import';
import { importQaFiles } from './qa-import';
import { validRecord } from '../../fixtures/records';

const actor = { userId: null, label: 'test' };

describeEachDb('passage import', (h) => {
	it('imports CSV with quoted fields and shows the passage on its item', async () => {
		const csv =
			'paragraph_id,text,isbn,page\r\ntest-p1-para01,"Metformin, the first-line drug, ""lowers"" glucose.",978-0,11\r\n';
		expect(await importPassages(h.db, { fileName: 'p.csv', text: csv }, { actor })).toMatchObject({
			created: 1
		});
		const [p] = await h.db.select().from(passage);
		expect(p).toMatchObject({
			text: 'Metformin, the first-line drug, "lowers" glucose.',
			page: 11,
			isbn: '978-0'
		});
		const { importId: _i } = await importQaFiles(
			h.db,
			[{ fileName: 'q.json', text: JSON.stringify([validRecord('true_false', 1)]) }],
			{ actor }
		);
		const [item] = await h.db.query.qaItem.findMany();
		expect((await getItem(h.db, item.id))?.passage?.text).toMatch(/^Metformin/);
	});

	it('accepts a JSON object of id → text, and updates changed text on re-import', async () => {
		const file = (text: string) => ({
			fileName: 'p.json',
			text: JSON.stringify({ a: 'First.', b: text })
		});
		expect(await importPassages(h.db, file('Second.'), { actor })).toMatchObject({ created: 2 });
		expect(await importPassages(h.db, file('Second, revised.'), { actor })).toMatchObject({
			created: 0,
			updated: 1,
			unchanged: 1
		});
	});

	it('rejects a file with an empty text and a CSV without the needed header', async () => {
		const bad = await importPassages(
			h.db,
			{ fileName: 'p.json', text: JSON.stringify([{ paragraph_id: 'x', text: ' ' }]) },
			{ actor }
		).catch((e) => e);
		expect((bad as DomainError).records).toEqual([
			{ index: 0, field: 'text', reason: 'must not be empty' }
		]);
		const noHeader = await importPassages(
			h.db,
			{ fileName: 'p.csv', text: 'id,body\nx,y' },
			{ actor }
		).catch((e) => e);
		expect((noHeader as DomainError).records[0].reason).toMatch(
			/header row with paragraph_id and text/
		);
		expect(await h.db.select().from(passage)).toHaveLength(0);
	});
});
