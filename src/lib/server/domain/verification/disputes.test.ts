import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { dataset, dispute, qaItem, qaItemVersion, reviewTask, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { reviewNext } from '../../fixtures/review-flow';
import { seedItems, seedUsers } from '../../fixtures/review';
import { commentOnDispute, getDispute, listDisputes, transitionDispute } from './disputes';
import { setSecondaryShare } from './settings';

describeEachDb('disputes', (h) => {
	let alice: User;
	let org: User;
	let disputeId: number;
	let itemId: number;
	beforeEach(async () => {
		await seedItems(h.db, 1);
		[alice] = await seedUsers(h.db, 1);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		const [ds] = await h.db.select().from(dataset);
		await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: 0 });
		const { lease } = await reviewNext(h.db, alice.id, {
			verdict: 'incorrect',
			relevance: 3,
			disputeCategory: 'factually_wrong',
			disputeReason: 'The answer contradicts the passage.'
		});
		itemId = lease.itemId;
		[{ id: disputeId }] = await h.db.select().from(dispute);
	});

	it('goes open → under review (with an owner) → rejected, with a thread and timestamps', async () => {
		const open = await listDisputes(h.db, { status: 'open' });
		expect(open.rows.map((d) => d.id)).toEqual([disputeId]);
		expect(open.total).toBe(1);
		expect(await listDisputes(h.db, { category: 'outdated' })).toMatchObject({
			rows: [],
			total: 0
		});
		const skip = await transitionDispute(h.db, org.id, disputeId, {
			to: 'rejected',
			comment: 'no'
		}).catch((e) => e);
		expect(skip.code).toBe('conflict');
		const taken = await transitionDispute(h.db, org.id, disputeId, { to: 'under_review' });
		expect(taken).toMatchObject({ status: 'under_review', ownerId: org.id, resolvedAt: null });
		await commentOnDispute(h.db, alice.id, disputeId, 'See paragraph 3.');
		const rejected = await transitionDispute(h.db, org.id, disputeId, {
			to: 'rejected',
			comment: 'The passage supports the answer.'
		});
		expect(rejected.status).toBe('rejected');
		expect(rejected.resolvedAt).toBeInstanceOf(Date);
		const shown = await getDispute(h.db, disputeId);
		expect(shown!.thread.map((c) => c.statusChange)).toEqual(['under_review', null, 'rejected']);
		expect(shown!.next).toEqual([]);
		const reopen = await transitionDispute(h.db, org.id, disputeId, { to: 'under_review' }).catch(
			(e) => e
		);
		expect(reopen.code).toBe('conflict');
	});

	it('upheld with a correction adds a new item version and keeps the old one', async () => {
		await transitionDispute(h.db, org.id, disputeId, { to: 'under_review' });
		const [before] = await h.db
			.select()
			.from(qaItemVersion)
			.where(eq(qaItemVersion.itemId, itemId));
		const record = {
			...(before.record as Record<string, unknown>),
			question: 'Corrected question?'
		};
		await transitionDispute(h.db, org.id, disputeId, {
			to: 'upheld',
			comment: 'Fixed the wording.',
			remedy: 'correct',
			record
		});
		const versions = await h.db
			.select()
			.from(qaItemVersion)
			.where(eq(qaItemVersion.itemId, itemId))
			.orderBy(qaItemVersion.version);
		expect(versions.map((v) => [v.version, v.origin])).toEqual([
			[1, 'import'],
			[2, 'correction']
		]);
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, itemId));
		expect(item).toMatchObject({
			currentVersionId: versions[1].id,
			question: 'Corrected question?'
		});
	});

	it('refuses an invalid correction and changes nothing', async () => {
		await transitionDispute(h.db, org.id, disputeId, { to: 'under_review' });
		const err = await transitionDispute(h.db, org.id, disputeId, {
			to: 'upheld',
			comment: 'x',
			remedy: 'correct',
			record: { question: '' }
		}).catch((e) => e);
		expect(err.code).toBe('invalid');
		const [d] = await h.db.select().from(dispute);
		expect(d.status).toBe('under_review');
		expect(
			await h.db.select().from(qaItemVersion).where(eq(qaItemVersion.itemId, itemId))
		).toHaveLength(1);
	});

	it('upheld with withdrawal withdraws the item and cancels its open tasks', async () => {
		await transitionDispute(h.db, org.id, disputeId, { to: 'under_review' });
		await transitionDispute(h.db, org.id, disputeId, {
			to: 'upheld',
			comment: 'Unfixable.',
			remedy: 'withdraw'
		});
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, itemId));
		expect(item.status).toBe('withdrawn');
		const open = await h.db.select().from(reviewTask).where(eq(reviewTask.itemId, itemId));
		expect(open.every((t) => t.state === 'done' || t.state === 'cancelled')).toBe(true);
	});
});
