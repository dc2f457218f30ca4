import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { dataset, feedbackNote, snapshotItem, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { reviewNext } from '../../fixtures/review-flow';
import { seedItems, seedUsers } from '../../fixtures/review';
import { transitionDispute } from './disputes';
import { resolveFeedback } from './feedback';
import { setSecondaryShare, updateDatasetSettings } from './settings';
import { amendReview, newFormKey } from '../review/reviews';
import { freezeSchema, freezeSnapshot, previewSnapshot, snapshotExport } from './snapshots';

describeEachDb('snapshots', (h) => {
	let alice: User;
	let org: User;
	let datasetId: number;
	beforeEach(async () => {
		await seedItems(h.db, 1); // 7 items, one per type, in id order by type
		[alice] = await seedUsers(h.db, 1);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		[{ id: datasetId }] = await h.db.select().from(dataset);
		// One review each, in import order: nothing is double-reviewed in these tests.
		await setSecondaryShare(h.db, org.id, { datasetId, share: 0 });
		await updateDatasetSettings(h.db, org.id, {
			datasetId,
			secondaryPercent: 0,
			seed: undefined,
			queueOrder: 'import',
			leaseMinutes: 30,
			disagreeOnVerdict: true,
			relevanceGap: 2
		});
	});

	it('selects verified correct items at the threshold without open disputes or feedback', async () => {
		const ok = await reviewNext(h.db, alice.id); // true_false: correct, 5
		const low = await reviewNext(h.db, alice.id, { verdict: 'correct', relevance: 4 });
		await reviewNext(h.db, alice.id, { verdict: 'incorrect', relevance: 5 });
		await reviewNext(h.db, alice.id, {
			verdict: 'correct',
			relevance: 5,
			feedbackCategory: 'wording',
			feedback: 'typo'
		});
		const disputed = await reviewNext(h.db, alice.id, {
			verdict: 'correct',
			relevance: 5,
			disputeCategory: 'outdated',
			disputeReason: 'old guideline'
		});
		// Two items stay unreviewed.
		const preview = await previewSnapshot(h.db, datasetId, 5);
		expect(preview.selected).toBe(1);
		expect(preview.belowThreshold).toBe(1);

		const snap = await freezeSnapshot(h.db, org.id, { datasetId, name: 'v1', threshold: 5 });
		const items = await h.db
			.select()
			.from(snapshotItem)
			.where(eq(snapshotItem.snapshotId, snap.id));
		expect(items.map((i) => i.itemId)).toEqual([ok.lease.itemId]);
		const exported = await snapshotExport(h.db, snap.id);
		expect(exported!.files['true_false.json']).toHaveLength(1);
		expect(exported!.files['multiple_choice.json']).toEqual([]);
		const tf = exported!.composition.find((r) => r.type === 'true_false')!;
		expect(tf).toEqual({
			type: 'true_false',
			relevance: [0, 0, 0, 0, 1],
			high: 1,
			low: 0,
			single: 1,
			double: 0,
			total: 1
		});
		// The composition counts the snapshot's items: the relevance-4 item is not one of them.
		const mc = exported!.composition.find((r) => r.type === 'multiple_choice')!;
		expect(mc).toMatchObject({ high: 0, low: 0, total: 0 });
		// Each record's outcome travels beside it in the wrapper; the record itself is untouched.
		expect(exported!.outcomes['true_false.json']).toEqual([
			expect.objectContaining({
				itemId: ok.lease.itemId,
				finalVerdict: 'correct',
				finalRelevance: 5,
				provenance: 'single'
			})
		]);
		expect(exported!.files['true_false.json'][0]).not.toHaveProperty('provenance');
		expect((snap.settings as { relevanceThreshold: number }).relevanceThreshold).toBe(5);

		// At threshold 4 the low item joins; resolving the note and rejecting the dispute add two more.
		const [note] = await h.db.select().from(feedbackNote);
		await resolveFeedback(h.db, org.id, { id: note.id, resolution: 'fixed' });
		const [{ id: disputeId }] = await h.db.query.dispute.findMany();
		await transitionDispute(h.db, org.id, disputeId, { to: 'under_review' });
		expect((await previewSnapshot(h.db, datasetId, 4)).selected).toBe(3);
		await transitionDispute(h.db, org.id, disputeId, { to: 'rejected', comment: 'current' });
		const v2 = await freezeSnapshot(h.db, org.id, { datasetId, name: 'v2', threshold: 4 });
		expect(v2.itemCount).toBe(4);
		expect(disputed.lease.itemId).toBeGreaterThan(0);

		// Frozen items can no longer be amended; the first snapshot's export is unchanged.
		const amend = await amendReview(h.db, alice.id, low.review.id, {
			verdict: 'incorrect',
			relevance: 1,
			key: newFormKey()
		}).catch((e) => e);
		expect(amend.code).toBe('locked');
		expect(await snapshotExport(h.db, snap.id)).toEqual(exported);
	});

	it('takes every verified item by default and reports the split by GP relevance', async () => {
		const five = await reviewNext(h.db, alice.id); // true_false: correct, 5
		const four = await reviewNext(h.db, alice.id, { verdict: 'correct', relevance: 4 });
		const two = await reviewNext(h.db, alice.id, { verdict: 'correct', relevance: 2 });
		await reviewNext(h.db, alice.id, { verdict: 'incorrect', relevance: 5 });
		// The form sends an empty threshold when none is chosen: no threshold.
		const input = freezeSchema.parse({ datasetId: String(datasetId), name: 'all', threshold: '' });
		expect(input.threshold).toBeUndefined();
		expect(await previewSnapshot(h.db, datasetId)).toMatchObject({
			selected: 3,
			belowThreshold: 0
		});
		const snap = await freezeSnapshot(h.db, org.id, input);
		expect(snap.itemCount).toBe(3);
		const items = await h.db
			.select()
			.from(snapshotItem)
			.where(eq(snapshotItem.snapshotId, snap.id));
		expect(items.map((i) => i.itemId).sort((a, b) => a - b)).toEqual(
			[five, four, two].map((r) => r.lease.itemId).sort((a, b) => a - b)
		);
		expect(snap.settings).toMatchObject({ relevanceThreshold: null });
		const exported = await snapshotExport(h.db, snap.id);
		const byType = Object.fromEntries(exported!.composition.map((r) => [r.type, r]));
		// Counts per final GP relevance 1–5, per type.
		expect(byType.true_false.relevance).toEqual([0, 0, 0, 0, 1]);
		expect(byType.multiple_choice.relevance).toEqual([0, 0, 0, 1, 0]);
		expect(byType.list.relevance).toEqual([0, 1, 0, 0, 0]);
		expect(byType.short_answer.relevance).toEqual([0, 0, 0, 0, 0]);
		expect(byType.list).toMatchObject({ high: 0, low: 1, total: 1 });
		// A threshold stays a choice the snapshot records.
		const strict = await freezeSnapshot(h.db, org.id, { datasetId, name: 'five', threshold: 5 });
		expect(strict.itemCount).toBe(1);
		expect(strict.settings).toMatchObject({ relevanceThreshold: 5 });
	});

	it('refuses an empty snapshot and a duplicate name', async () => {
		const empty = await freezeSnapshot(h.db, org.id, {
			datasetId,
			name: 'none',
			threshold: 5
		}).catch((e) => e);
		expect(empty.code).toBe('invalid');
		await reviewNext(h.db, alice.id);
		await freezeSnapshot(h.db, org.id, { datasetId, name: 'v1', threshold: 5 });
		const dup = await freezeSnapshot(h.db, org.id, { datasetId, name: 'v1', threshold: 5 }).catch(
			(e) => e
		);
		expect(dup.code).toBe('conflict');
	});
});
