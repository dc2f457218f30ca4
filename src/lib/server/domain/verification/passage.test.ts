import { and, desc, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, dataset, qaItem, review, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, seedPassages, seedUsers } from '../../fixtures/review';
import { claimNext } from '../review/queue';
import { submitReview } from '../review/reviews';
import { workdayCounts, workdayBounds } from '../review/workday';
import { exportItems, itemsCsv, listItems, parseItemQuery } from '../items/items';
import { verificationProgress } from './progress';
import { updateDatasetSettings } from './settings';

describeEachDb('items without their source passage', (h) => {
	let alice: User;
	let org: User;
	let datasetId: number;
	beforeEach(async () => {
		// 14 items: 7 cite test-p1-para01, 7 cite test-p2-para01; no passage imported yet.
		await seedItems(h.db, 2, undefined, { passages: false });
		[alice] = await seedUsers(h.db, 1);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		[{ id: datasetId }] = await h.db.select().from(dataset);
		await h.db.update(qaItem).set({ inSecondarySample: false });
	});

	const setPolicy = async (withoutPassage: 'wait' | 'review') => {
		const [ds] = await h.db.select().from(dataset).where(eq(dataset.id, datasetId));
		const outcome = await updateDatasetSettings(h.db, org.id, {
			datasetId,
			secondaryPercent: ds.secondaryShare * 100,
			seed: ds.sampleSeed ?? undefined,
			queueOrder: ds.queueOrder,
			leaseMinutes: ds.leaseMinutes,
			disagreeOnVerdict: ds.disagreeOnVerdict,
			relevanceGap: ds.relevanceGap,
			withoutPassage
		});
		expect(outcome.status).toBe('saved');
	};
	const submitNext = async () => {
		const lease = await claimNext(h.db, alice.id);
		if (!lease) return null;
		const { review: saved } = await submitReview(h.db, alice.id, {
			taskId: lease.taskId,
			key: lease.leaseToken,
			verdict: 'correct',
			relevance: 4
		});
		return { lease, review: saved };
	};
	const paragraphOf = async (itemId: number) =>
		(await h.db.select().from(qaItem).where(eq(qaItem.id, itemId)))[0].paragraphId;

	it('by default no item without its passage is offered, and the progress counts them', async () => {
		expect(await claimNext(h.db, alice.id)).toBeNull();
		const progress = await verificationProgress(h.db);
		expect(progress.awaitingPassage).toEqual([{ round: 'primary', n: 14 }]);
		expect(progress.queue.filter((q) => q.state === 'pending')).toEqual([]);
		const left = await workdayCounts(h.db, alice.id, workdayBounds(new Date(), 'UTC'));
		expect(left.left).toBe(0);
	});

	it('importing the passage releases its items at once, reviewed with the passage', async () => {
		await seedPassages(h.db, 1); // test-p1-para01 only
		const offered: string[] = [];
		for (let r = await submitNext(); r; r = await submitNext()) {
			offered.push((await paragraphOf(r.lease.itemId))!);
			expect(r.review.withoutPassage).toBe(false);
		}
		expect(offered).toHaveLength(7);
		expect(new Set(offered)).toEqual(new Set(['test-p1-para01']));
		const progress = await verificationProgress(h.db);
		expect(progress.awaitingPassage).toEqual([{ round: 'primary', n: 7 }]);
		const { rows } = await listItems(h.db, parseItemQuery(new URLSearchParams('size=50')));
		expect(rows.filter((r) => r.reviewedWithoutPassage)).toEqual([]);
	});

	it('"review without passage" lets them through and the review, outcome and export record it', async () => {
		await setPolicy('review');
		const [change] = await h.db
			.select()
			.from(auditEvent)
			.where(and(eq(auditEvent.action, 'dataset.settings')))
			.orderBy(desc(auditEvent.id))
			.limit(1);
		expect(change.before).toMatchObject({ reviewWithoutPassage: false });
		expect(change.after).toMatchObject({ reviewWithoutPassage: true });
		expect((await verificationProgress(h.db)).awaitingPassage).toEqual([]);

		const first = await submitNext();
		expect(first).not.toBeNull();
		expect(first!.review.withoutPassage).toBe(true);
		const [stored] = await h.db.select().from(review).where(eq(review.id, first!.review.id));
		expect(stored.withoutPassage).toBe(true);

		const { rows } = await listItems(h.db, parseItemQuery(new URLSearchParams('size=50')));
		const row = rows.find((r) => r.id === first!.lease.itemId)!;
		expect(row).toMatchObject({ outcome: 'verified', reviewedWithoutPassage: true });
		expect(rows.filter((r) => r.reviewedWithoutPassage)).toHaveLength(1);

		const exported = await exportItems(h.db, parseItemQuery(new URLSearchParams()));
		expect(exported.find((r) => r.itemId === first!.lease.itemId)).toMatchObject({
			reviewedWithoutPassage: true
		});
		const csv = itemsCsv(exported).split('\n');
		const column = csv[0].split(',').indexOf('reviewedWithoutPassage');
		expect(column).toBeGreaterThan(-1);
		const line = csv.find((l) => l.startsWith(`${first!.lease.itemId},`))!;
		expect(line.split(',')[column]).toBe('true');
	});

	it('back to waiting holds the remaining items again; a lease already given stands', async () => {
		await setPolicy('review');
		const held = await claimNext(h.db, alice.id);
		expect(held).not.toBeNull();
		await setPolicy('wait');
		const { review: saved } = await submitReview(h.db, alice.id, {
			taskId: held!.taskId,
			key: held!.leaseToken,
			verdict: 'correct',
			relevance: 4
		});
		expect(saved.withoutPassage).toBe(true);
		expect(await claimNext(h.db, alice.id)).toBeNull();
		expect((await verificationProgress(h.db)).awaitingPassage).toEqual([
			{ round: 'primary', n: 13 }
		]);
	});
});
