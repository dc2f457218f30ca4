import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { adjudication, dataset, qaItem, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { reviewNext } from '../../fixtures/review-flow';
import { seedItems, seedUsers } from '../../fixtures/review';
import { adjudicate, adjudicationCase, adjudicationQueue } from './adjudication';
import { amendReview, newFormKey } from '../review/reviews';
import { setSecondaryShare } from './settings';

describeEachDb('adjudication', (h) => {
	let alice: User;
	let bob: User;
	let org: User;
	beforeEach(async () => {
		await seedItems(h.db, 1);
		[alice, bob] = await seedUsers(h.db, 2);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		const [ds] = await h.db.select().from(dataset);
		await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: 1, seed: 's' });
	});

	const itemOf = async (id: number) =>
		(await h.db.select().from(qaItem).where(eq(qaItem.id, id)))[0];

	it('marks agreeing reviews as agreed and different verdicts as a disagreement', async () => {
		const one = await reviewNext(h.db, alice.id, { verdict: 'correct', relevance: 5 });
		await reviewNext(h.db, bob.id, { verdict: 'correct', relevance: 4 });
		expect(await itemOf(one.lease.itemId)).toMatchObject({
			status: 'done',
			provenance: 'agreed',
			finalVerdict: 'correct',
			finalRelevance: 4
		});
		const two = await reviewNext(h.db, alice.id, { verdict: 'correct', relevance: 5 });
		await reviewNext(h.db, bob.id, { verdict: 'incorrect', relevance: 5 });
		expect((await itemOf(two.lease.itemId)).status).toBe('awaiting_adjudication');
		const queue = await adjudicationQueue(h.db);
		expect(queue.map((q) => q.id)).toEqual([two.lease.itemId]);
	});

	it('shows both reviews under pseudonyms, records the decision and locks amendments', async () => {
		const first = await reviewNext(h.db, alice.id, { verdict: 'correct', relevance: 5 });
		const second = await reviewNext(h.db, bob.id, { verdict: 'correct', relevance: 2 });
		const itemId = first.lease.itemId;
		expect((await itemOf(itemId)).status).toBe('awaiting_adjudication');
		const shown = await adjudicationCase(h.db, itemId);
		expect(shown!.primary).toMatchObject({
			verdict: 'correct',
			relevance: 5,
			reviewer: alice.pseudonym
		});
		expect(shown!.secondary).toMatchObject({ relevance: 2, reviewer: bob.pseudonym });
		expect(JSON.stringify(shown)).not.toContain(alice.displayName);
		const revealed = await adjudicationCase(h.db, itemId, true);
		expect(revealed!.primary!.reviewer).toBe(alice.displayName);

		await adjudicate(h.db, org.id, {
			itemId,
			verdict: 'correct',
			relevance: 4,
			reason: 'Common in GP.'
		});
		expect(await itemOf(itemId)).toMatchObject({
			status: 'done',
			provenance: 'adjudicated',
			finalVerdict: 'correct',
			finalRelevance: 4
		});
		const [saved] = await h.db.select().from(adjudication);
		expect(saved.reviewIds.sort()).toEqual([first.review.id, second.review.id].sort());
		const again = await adjudicate(h.db, org.id, {
			itemId,
			verdict: 'incorrect',
			relevance: 1,
			reason: 'twice'
		}).catch((e) => e);
		expect(again.code).toBe('conflict');
		const amend = await amendReview(h.db, alice.id, first.review.id, {
			verdict: 'incorrect',
			relevance: 1,
			key: newFormKey()
		}).catch((e) => e);
		expect(amend.code).toBe('locked');
	});

	it('resolves a disagreement when a reviewer amends towards agreement', async () => {
		const first = await reviewNext(h.db, alice.id, { verdict: 'incorrect', relevance: 5 });
		await reviewNext(h.db, bob.id, { verdict: 'correct', relevance: 5 });
		expect((await itemOf(first.lease.itemId)).status).toBe('awaiting_adjudication');
		await amendReview(h.db, alice.id, first.review.id, {
			verdict: 'correct',
			relevance: 5,
			key: newFormKey()
		});
		expect(await itemOf(first.lease.itemId)).toMatchObject({
			status: 'done',
			provenance: 'agreed'
		});
	});
});
