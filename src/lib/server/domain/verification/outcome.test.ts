import { asc, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { dataset, feedbackNote, passage, qaItem, snapshotItem, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { reviewItem } from '../../fixtures/review-flow';
import { seedItems, seedUsers } from '../../fixtures/review';
import { listItems, parseItemQuery } from '../items/items';
import { withdrawItem } from '../items/corrections';
import { adjudicate } from './adjudication';
import { resolveItemOutcome } from '../items';
import { transitionDispute } from './disputes';
import { resolveFeedback } from './feedback';
import { freezeSnapshot, previewSnapshot } from './snapshots';

describeEachDb('item state and outcome', (h) => {
	let alice: User;
	let bob: User;
	let org: User;
	let datasetId: number;
	let ids: number[];
	beforeEach(async () => {
		await seedItems(h.db, 1, undefined, { passages: false }); // 7 items, no passage
		[alice, bob] = await seedUsers(h.db, 2);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		[{ id: datasetId }] = await h.db.select().from(dataset);
		// Every item out of the sample unless a test puts it in.
		await h.db.update(qaItem).set({ inSecondarySample: false });
		ids = (await h.db.select({ id: qaItem.id }).from(qaItem).orderBy(asc(qaItem.id))).map(
			(r) => r.id
		);
	});

	/** The item as the organisers' item table shows it. */
	const row = async (id: number) => {
		const { rows } = await listItems(h.db, parseItemQuery(new URLSearchParams('size=200')));
		const found = rows.find((r) => r.id === id);
		if (!found) throw new Error(`item ${id} is not in the table`);
		return found;
	};
	/** Whether a snapshot frozen now (threshold 1) would hold the item. */
	const inSnapshotPool = async (id: number) => {
		if (!(await previewSnapshot(h.db, datasetId, 1)).selected) return false;
		const snap = await freezeSnapshot(h.db, org.id, {
			datasetId,
			name: `probe ${id} ${Date.now()}`,
			threshold: 1
		});
		const frozen = await h.db
			.select({ itemId: snapshotItem.itemId })
			.from(snapshotItem)
			.where(eq(snapshotItem.snapshotId, snap.id));
		return frozen.some((f) => f.itemId === id);
	};

	it('an unreviewed item awaits its primary review and has no verdict', async () => {
		expect(await row(ids[0])).toMatchObject({
			status: 'awaiting_primary',
			outcome: 'pending',
			finalVerdict: null,
			provenance: null,
			held: false,
			reviews: 0
		});
	});

	it('a single review out of the sample is done; only a correct verdict makes it verified', async () => {
		await reviewItem(h.db, alice.id, ids[0], 'primary', { verdict: 'correct', relevance: 5 });
		await reviewItem(h.db, alice.id, ids[1], 'primary', { verdict: 'incorrect', relevance: 5 });
		await reviewItem(h.db, alice.id, ids[2], 'primary', { verdict: 'cannot_tell', relevance: 3 });
		expect(await row(ids[0])).toMatchObject({
			status: 'done',
			outcome: 'verified',
			finalVerdict: 'correct',
			finalRelevance: 5,
			provenance: 'single',
			reviews: 1
		});
		expect(await row(ids[1])).toMatchObject({
			status: 'done',
			outcome: 'incorrect',
			finalVerdict: 'incorrect',
			provenance: 'single'
		});
		expect(await row(ids[2])).toMatchObject({
			status: 'done',
			outcome: 'cannot_tell',
			finalVerdict: 'cannot_tell',
			finalRelevance: 3
		});
		// Only the correct one can enter a snapshot.
		const preview = await previewSnapshot(h.db, datasetId, 1);
		expect(preview.selected).toBe(1);
		// The table's filters agree: verified means correct, the state filter does not.
		const verified = await listItems(h.db, parseItemQuery(new URLSearchParams('outcome=verified')));
		expect(verified.rows.map((r) => r.id)).toEqual([ids[0]]);
		const done = await listItems(h.db, parseItemQuery(new URLSearchParams('status=done')));
		expect(done.total).toEqual({ kind: 'exact', n: 3 });
	});

	it('a sampled item awaits its secondary review; agreement makes it done and agreed', async () => {
		await reviewItem(h.db, alice.id, ids[0], 'primary', {
			verdict: 'correct',
			relevance: 5,
			sampled: true
		});
		expect(await row(ids[0])).toMatchObject({
			status: 'awaiting_secondary',
			outcome: 'pending',
			finalVerdict: null
		});
		await reviewItem(h.db, bob.id, ids[0], 'secondary', { verdict: 'correct', relevance: 4 });
		expect(await row(ids[0])).toMatchObject({
			status: 'done',
			outcome: 'verified',
			provenance: 'agreed',
			finalRelevance: 4,
			reviews: 2
		});
	});

	it('a disagreement awaits adjudication; the adjudicated item is done with that verdict', async () => {
		await reviewItem(h.db, alice.id, ids[0], 'primary', {
			verdict: 'correct',
			relevance: 5,
			sampled: true
		});
		await reviewItem(h.db, bob.id, ids[0], 'secondary', { verdict: 'incorrect', relevance: 5 });
		expect(await row(ids[0])).toMatchObject({
			status: 'awaiting_adjudication',
			outcome: 'pending',
			finalVerdict: null,
			provenance: null
		});
		expect(await previewSnapshot(h.db, datasetId, 1)).toMatchObject({ selected: 0 });
		await adjudicate(h.db, org.id, {
			itemId: ids[0],
			verdict: 'incorrect',
			relevance: 2,
			reason: 'the answer is wrong'
		});
		expect(await row(ids[0])).toMatchObject({
			status: 'done',
			outcome: 'incorrect',
			finalVerdict: 'incorrect',
			finalRelevance: 2,
			provenance: 'adjudicated'
		});
	});

	it('an open dispute holds a correct item out of snapshots until it is rejected', async () => {
		await reviewItem(h.db, alice.id, ids[3], 'primary', {
			verdict: 'correct',
			relevance: 5,
			disputeCategory: 'outdated',
			disputeReason: 'the guideline changed'
		});
		expect(await row(ids[3])).toMatchObject({
			status: 'done',
			finalVerdict: 'correct',
			held: true,
			outcome: 'held'
		});
		const held = await listItems(h.db, parseItemQuery(new URLSearchParams('held=yes')));
		expect(held.rows.map((r) => r.id)).toEqual([ids[3]]);
		expect(await inSnapshotPool(ids[3])).toBe(false);

		const [{ id: disputeId }] = await h.db.query.dispute.findMany();
		await transitionDispute(h.db, org.id, disputeId, { to: 'under_review' });
		expect((await row(ids[3])).outcome).toBe('held');
		await transitionDispute(h.db, org.id, disputeId, { to: 'rejected', comment: 'still current' });
		expect(await row(ids[3])).toMatchObject({ held: false, outcome: 'verified' });
		expect(await inSnapshotPool(ids[3])).toBe(true);
	});

	it('an unresolved feedback note holds the item; resolving it releases the item', async () => {
		await reviewItem(h.db, alice.id, ids[3], 'primary', {
			verdict: 'incorrect',
			relevance: 4,
			feedbackCategory: 'wording',
			feedback: 'typo in the question'
		});
		expect(await row(ids[3])).toMatchObject({
			status: 'done',
			finalVerdict: 'incorrect',
			held: true,
			outcome: 'held'
		});
		const [note] = await h.db.select().from(feedbackNote);
		await resolveFeedback(h.db, org.id, { id: note.id, resolution: 'fixed' });
		expect(await row(ids[3])).toMatchObject({ held: false, outcome: 'incorrect' });
	});

	it('filters on whether the source passage was imported', async () => {
		const query = (q: string) => listItems(h.db, parseItemQuery(new URLSearchParams(q)));
		expect((await query('passage=missing')).total).toEqual({ kind: 'exact', n: 7 });
		// The seeded items share one paragraph id; give one item its own.
		await h.db.update(qaItem).set({ paragraphId: 'own-para' }).where(eq(qaItem.id, ids[2]));
		await h.db.insert(passage).values({
			paragraphId: 'own-para',
			text: 'the source',
			contentHash: 'x'
		});
		expect((await query('passage=present')).rows.map((r) => r.id)).toEqual([ids[2]]);
		expect((await query('passage=missing')).total).toEqual({ kind: 'exact', n: 6 });
		expect((await row(ids[2])).hasPassage).toBe(true);
	});

	it('a withdrawn item stays withdrawn and never enters a snapshot', async () => {
		await reviewItem(h.db, alice.id, ids[0], 'primary', { verdict: 'correct', relevance: 5 });
		await h.db.transaction((tx) => withdrawItem(tx, org.id, ids[0], 'duplicate'));
		const outcome = await h.db.transaction((tx) => resolveItemOutcome(tx, ids[0]));
		expect(outcome).toBeNull();
		expect(await row(ids[0])).toMatchObject({ status: 'withdrawn', outcome: 'withdrawn' });
		expect(await inSnapshotPool(ids[0])).toBe(false);
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, ids[0]));
		expect(item.status).toBe('withdrawn');
	});
});
