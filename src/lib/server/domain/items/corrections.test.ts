import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, qaItem, qaItemVersion, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedUsers } from '../../fixtures/review';
import { validRecord } from '../../fixtures/records';
import { importQaFiles } from '../imports/qa-import';
import { checkCorrection } from './correction-form';
import { correctionStart, saveCorrection } from './corrections';

describeEachDb('item corrections', (h) => {
	let org: User;
	let itemId: number;
	beforeEach(async () => {
		[org] = await seedUsers(h.db, 1, ['organiser']);
		const text = JSON.stringify([validRecord('list', 1)]);
		await importQaFiles(h.db, [{ fileName: 'list.json', text }], {
			actor: { userId: null, label: 'test' }
		});
		[{ id: itemId }] = await h.db.select({ id: qaItem.id }).from(qaItem);
	});

	/** The start's record with one list answer replaced and the question reworded, as checked. */
	async function corrected() {
		const start = (await correctionStart(h.db, itemId))!;
		const values = { ...start.values, question: 'Which are signs of hypothyroidism?' };
		values.answers = ['Weight gain', 'Cold intolerance', 'Tremor'];
		const checked = checkCorrection(start.record, values);
		if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
		return checked.record;
	}

	it('saves a new version with its typed fields and an audit event holding before and after', async () => {
		const record = await corrected();
		await saveCorrection(h.db, org.id, {
			itemId,
			record,
			reason: 'Tremor is a sign.',
			baseVersion: 1
		});
		const versions = await h.db
			.select()
			.from(qaItemVersion)
			.where(eq(qaItemVersion.itemId, itemId))
			.orderBy(qaItemVersion.version);
		expect(versions.map((v) => [v.version, v.origin, v.reason])).toEqual([
			[1, 'import', null],
			[2, 'correction', 'Tremor is a sign.']
		]);
		expect(versions[1].answerList).toEqual(['Weight gain', 'Cold intolerance', 'Tremor']);
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, itemId));
		expect(item).toMatchObject({
			currentVersion: 2,
			question: 'Which are signs of hypothyroidism?'
		});
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'item.correct'));
		expect(event).toMatchObject({ actorId: org.id, objectId: String(itemId) });
		expect(event.before).toMatchObject({ version: 1, record: { question: versions[0].question } });
		expect(event.after).toMatchObject({ version: 2, reason: 'Tremor is a sign.', record });
	});

	it('refuses a correction of a version that is no longer current, writing nothing', async () => {
		const record = await corrected();
		await saveCorrection(h.db, org.id, { itemId, record, reason: 'First.', baseVersion: 1 });
		const again = { ...record, question: 'Another wording?' };
		const error = await saveCorrection(h.db, org.id, {
			itemId,
			record: again,
			reason: 'Second.',
			baseVersion: 1
		}).catch((e) => e);
		expect(error).toMatchObject({ code: 'conflict' });
		expect(error.message).toMatch(/changed meanwhile \(it is at version 2/);
		const versions = await h.db
			.select()
			.from(qaItemVersion)
			.where(eq(qaItemVersion.itemId, itemId));
		expect(versions).toHaveLength(2);
		expect(
			await h.db.select().from(auditEvent).where(eq(auditEvent.action, 'item.correct'))
		).toHaveLength(1);
	});

	it('refuses an invalid record, a missing reason and an unchanged record', async () => {
		const record = await corrected();
		const start = (await correctionStart(h.db, itemId))!;
		const cases = [
			{
				record: { ...record, options: [] },
				reason: 'x',
				message: /invalid: options needs at least 2/
			},
			{ record, reason: '  ', message: /Give the reason/ },
			{ record: start.record, reason: 'x', message: /identical to the current version/ }
		];
		for (const c of cases) {
			const error = await saveCorrection(h.db, org.id, { itemId, ...c, baseVersion: 1 }).catch(
				(e) => e
			);
			expect(error.message).toMatch(c.message);
		}
		expect(await h.db.select().from(qaItemVersion)).toHaveLength(1);
	});
});
