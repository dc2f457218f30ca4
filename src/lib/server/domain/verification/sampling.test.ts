import { and, asc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditEvent, dataset, qaItem, review, reviewTask, type User } from '../../db/schema';
import { QA_TYPES, type QaType } from '../../../constants';
import type { Db } from '../../db/client';
import { describeEachDb } from '../../db/testing';
import { validRecord } from '../../fixtures/records';
import { reviewNext } from '../../fixtures/review-flow';
import { seedItems, seedPassages, seedUsers } from '../../fixtures/review';
import { importQaFiles } from '../imports/qa-import';
import { claimNext, leasedItem, queueStats, returnTask, seededSortKey } from '../review/queue';
import {
	apportion,
	batchDrawCounts,
	planSample,
	seededRandom,
	stratifiedSample,
	type SampleItem
} from './sampling';
import { setSecondaryShare, updateDatasetSettings } from './settings';

describe('stratified sample', () => {
	const items = QA_TYPES.flatMap((type, t) =>
		Array.from({ length: 20 }, (_, i) => ({ id: t * 100 + i + 1, type: type as QaType }))
	);

	it('takes the share within every type', () => {
		const chosen = stratifiedSample(items, 0.45, 'seed-1');
		for (const type of QA_TYPES) {
			const n = items.filter((i) => i.type === type && chosen.has(i.id)).length;
			expect(n).toBe(9); // round(0.45 × 20)
		}
	});

	it('draws the share of the whole: 45 % of 21 items (3 per type) is 9, not 7', () => {
		const small = QA_TYPES.flatMap((type, t) =>
			Array.from({ length: 3 }, (_, i) => ({ id: t * 10 + i + 1, type: type as QaType }))
		);
		const chosen = stratifiedSample(small, 0.45, 'demo');
		expect(chosen.size).toBe(9);
		// As close to the share as whole items allow in every type: 1 or 2 of 3.
		for (const type of QA_TYPES) {
			const n = small.filter((i) => i.type === type && chosen.has(i.id)).length;
			expect([1, 2]).toContain(n);
		}
	});

	it('apportions by largest remainder: the total is the share of the whole, each stratum its quota rounded', () => {
		const random = seededRandom('apportion');
		for (let trial = 0; trial < 2000; trial++) {
			const strata = 1 + Math.floor(random() * 9);
			const sizes = Array.from({ length: strata }, () => Math.floor(random() * 60));
			const share = trial % 10 === 0 ? [0, 1, 0.5, 0.45][trial % 4] : random();
			const counts = apportion(sizes, share);
			const total = sizes.reduce((a, b) => a + b, 0);
			expect(counts.reduce((a, b) => a + b, 0)).toBe(Math.round(share * total));
			counts.forEach((c, i) => {
				expect(c).toBeGreaterThanOrEqual(Math.floor(share * sizes[i] - 1e-9));
				expect(c).toBeLessThanOrEqual(Math.min(sizes[i], Math.ceil(share * sizes[i] + 1e-9)));
			});
		}
		expect(apportion([3, 3, 3, 3, 3, 3, 3], 0.45)).toEqual([2, 2, 1, 1, 1, 1, 1]);
		expect(apportion([], 0.45)).toEqual([]);
	});

	it('is reproducible from the seed and independent of input order', () => {
		const a = stratifiedSample(items, 0.45, 'seed-1');
		const b = stratifiedSample([...items].reverse(), 0.45, 'seed-1');
		const c = stratifiedSample(items, 0.45, 'seed-2');
		expect([...a].sort()).toEqual([...b].sort());
		expect([...a].sort()).not.toEqual([...c].sort());
	});

	it('has a PRNG that spreads values over [0, 1)', () => {
		const random = seededRandom('x');
		const values = Array.from({ length: 10_000 }, random);
		expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
		expect(Math.max(...values)).toBeLessThan(1);
		const mean = values.reduce((a, b) => a + b, 0) / values.length;
		expect(mean).toBeGreaterThan(0.48);
		expect(mean).toBeLessThan(0.52);
	});
});
describe('sample draws of successive imports', () => {
	// Items already sampled stay sampled, so a type drawn at its ceiling earlier can hold the others
	// back: the total is always round(share × N), and every type is at the floor or ceiling of its
	// quota whenever some draw of the fresh items achieves that (and within one item of it otherwise).
	it('keeps the whole sample at round(share × N) after every import, each type at the floor or ceiling of its quota when achievable', () => {
		const random = seededRandom('batches');
		const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
		let inBounds = 0;
		for (let trial = 0; trial < 1000; trial++) {
			const strata = 1 + Math.floor(random() * 7);
			const share = trial % 10 === 0 ? [0, 1, 0.5, 0.45][trial % 4] : random();
			const size = Array<number>(strata).fill(0);
			const sampled = Array<number>(strata).fill(0);
			const imports = 1 + Math.floor(random() * 6);
			for (let b = 0; b < imports; b++) {
				const fresh = size.map(() => (random() < 0.3 ? 0 : Math.floor(random() * 15)));
				fresh.forEach((n, i) => (size[i] += n));
				const target = Math.round(share * sum(size));
				const lo = size.map((n, i) => Math.max(sampled[i], Math.floor(share * n + 1e-9)));
				const hi = size.map((n, i) => Math.min(sampled[i] + fresh[i], Math.ceil(share * n - 1e-9)));
				const achievable = lo.every((l, i) => l <= hi[i]) && sum(lo) <= target && target <= sum(hi);
				const draw = batchDrawCounts(
					size.map((n, i) => ({ size: n, sampled: sampled[i], fresh: fresh[i] })),
					share,
					random
				);
				draw.forEach((d, i) => {
					expect(d).toBeGreaterThanOrEqual(0);
					expect(d).toBeLessThanOrEqual(fresh[i]);
					sampled[i] += d;
				});
				expect(sum(sampled)).toBe(target);
				const slack = achievable ? 0 : 1;
				sampled.forEach((c, i) => {
					expect(c).toBeGreaterThanOrEqual(Math.floor(share * size[i] + 1e-9) - slack);
					expect(c).toBeLessThanOrEqual(Math.ceil(share * size[i] - 1e-9) + slack);
				});
				if (achievable) inBounds++;
			}
		}
		// Most imports allow every type its rounded quota; the bound above is not vacuous.
		expect(inBounds).toBeGreaterThan(2000);
	});
});

describe('sample plan of a new share', () => {
	// One type of 10: items 1–2 sampled, 3–5 reviewed once, 6–10 not reviewed yet.
	const items: SampleItem[] = Array.from({ length: 10 }, (_, i) => ({
		id: i + 1,
		type: 'list' as QaType,
		sampled: i < 2,
		primaryDone: i < 5,
		secondaryStarted: i < 2
	}));

	it('raises from items awaiting their primary review first, reopening done items only when needed', () => {
		const half = planSample(items, 0.5, 's', false);
		expect(half).toMatchObject({ before: 2, after: 5, reopen: [], remove: [], kept: 0 });
		expect(half.add.every((id) => id > 5)).toBe(true);
		expect(half.add).toHaveLength(3);
		const most = planSample(items, 0.9, 's', false);
		expect(most.add.sort((a, b) => a - b)).toEqual([6, 7, 8, 9, 10]);
		expect(most.reopen).toHaveLength(2);
		expect(most.reopen.every((id) => id >= 3 && id <= 5)).toBe(true);
		expect(most.after).toBe(9);
	});

	it('lowers by removing sampled items whose secondary review has not started; the others stay', () => {
		const low = planSample(items, 0.1, 's', false);
		expect(low).toMatchObject({ before: 2, after: 2, remove: [], kept: 1 });
		const open = items.map((i) => ({ ...i, secondaryStarted: false }));
		expect(planSample(open, 0.1, 's', false)).toMatchObject({ after: 1, kept: 0 });
		expect(planSample(open, 0.1, 's', false).remove).toHaveLength(1);
	});
});

type Settings = Parameters<typeof updateDatasetSettings>[2];

async function settingsOf(db: Db, over: Partial<Settings> = {}): Promise<Settings> {
	const [ds] = await db.select().from(dataset);
	return {
		datasetId: ds.id,
		secondaryPercent: ds.secondaryShare * 100,
		seed: undefined,
		queueOrder: ds.queueOrder,
		leaseMinutes: ds.leaseMinutes,
		disagreeOnVerdict: ds.disagreeOnVerdict,
		relevanceGap: ds.relevanceGap,
		confirm: undefined,
		...over
	};
}

async function sampleOf(db: Db) {
	const rows = await db
		.select({ id: qaItem.id, type: qaItem.type, sampled: qaItem.inSecondarySample })
		.from(qaItem)
		.orderBy(qaItem.id);
	const perType = new Map<QaType, { sampled: number; total: number }>();
	for (const r of rows) {
		const e = perType.get(r.type) ?? { sampled: 0, total: 0 };
		e.total++;
		if (r.sampled) e.sampled++;
		perType.set(r.type, e);
	}
	return { ids: rows.filter((r) => r.sampled).map((r) => r.id), rows, perType };
}

async function importBatch(db: Db, from: number, perType: number, name?: string) {
	await seedPassages(db, perType, from);
	const records = QA_TYPES.flatMap((type) =>
		Array.from({ length: perType }, (_, i) => validRecord(type, from + i))
	);
	return importQaFiles(db, [{ fileName: `batch-${from}.json`, text: JSON.stringify(records) }], {
		actor: { userId: null, label: 'cli (test)' },
		dataset: name
	});
}

describeEachDb('secondary sample at import', (h) => {
	it('draws 9 of 21 items (45 %, 3 per type) at import and queues them all with no page visit', async () => {
		const result = await importBatch(h.db, 1, 3);
		const { ids, perType } = await sampleOf(h.db);
		expect(ids).toHaveLength(9);
		for (const type of QA_TYPES) expect([1, 2]).toContain(perType.get(type)!.sampled);
		const [reviewer] = await seedUsers(h.db, 1);
		expect(await queueStats(h.db, reviewer.id)).toEqual({ primary: 21, secondary: 0 });
		expect(await claimNext(h.db, reviewer.id)).not.toBeNull();
		const [ds] = await h.db.select().from(dataset);
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'dataset.sample_import'));
		expect(event.after).toMatchObject({
			importId: result.importId,
			seed: `${ds.sampleSeed}:import:${result.importId}`,
			drawn: 9,
			sampled: 9,
			total: 21
		});
	});

	it('draws among later imports so that the whole dataset stays at the share', async () => {
		await importBatch(h.db, 1, 3);
		const first = await sampleOf(h.db);
		const second = await importBatch(h.db, 10, 2);
		const after = await sampleOf(h.db);
		expect(after.ids).toHaveLength(Math.round(0.45 * 35)); // 16
		for (const type of QA_TYPES) expect([2, 3]).toContain(after.perType.get(type)!.sampled);
		// Earlier items keep their place in (or out of) the sample.
		for (const row of first.rows) expect(after.ids.includes(row.id)).toBe(row.sampled);
		const [ds] = await h.db.select().from(dataset);
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'dataset.sample_import'))
			.orderBy(asc(auditEvent.id));
		expect(events[1].after).toMatchObject({
			seed: `${ds.sampleSeed}:import:${second.importId}`,
			drawn: 7,
			sampled: 16,
			total: 35
		});
	});
});

describeEachDb('secondary share change', (h) => {
	let org: User;
	let alice: User;
	let bob: User;
	beforeEach(async () => {
		await seedItems(h.db, 3);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		[alice, bob] = await seedUsers(h.db, 2);
	});

	it('previews a raise, applies exactly the confirmed change, reopens done items only as needed', async () => {
		for (let i = 0; i < 6; i++) await reviewNext(h.db, alice.id);
		const done = new Set(
			(
				await h.db
					.select({ id: reviewTask.itemId })
					.from(reviewTask)
					.where(and(eq(reviewTask.round, 'primary'), eq(reviewTask.state, 'done')))
			).map((r) => r.id)
		);
		const before = await sampleOf(h.db);
		const unsampled = before.rows.filter((r) => !r.sampled);
		const preview = await updateDatasetSettings(
			h.db,
			org.id,
			await settingsOf(h.db, { secondaryPercent: 100 })
		);
		expect(preview.status).toBe('confirm');
		if (preview.status !== 'confirm') return;
		expect(preview.plan).toMatchObject({ before: 9, after: 21, total: 21, kept: 0 });
		expect(preview.plan.add.length).toBe(unsampled.filter((r) => !done.has(r.id)).length);
		expect(preview.plan.reopen.length).toBe(unsampled.filter((r) => done.has(r.id)).length);
		expect(preview.plan.reopen.length).toBeGreaterThan(0);
		// Nothing changes before the organiser confirms.
		expect((await sampleOf(h.db)).ids).toEqual(before.ids);
		expect((await h.db.select().from(dataset))[0].secondaryShare).toBeCloseTo(0.45);
		const stale = await updateDatasetSettings(
			h.db,
			org.id,
			await settingsOf(h.db, { secondaryPercent: 100, confirm: 'not-the-key' })
		);
		expect(stale).toMatchObject({ status: 'confirm', stale: true });

		const saved = await updateDatasetSettings(
			h.db,
			org.id,
			await settingsOf(h.db, { secondaryPercent: 100, confirm: preview.plan.key })
		);
		expect(saved.status).toBe('saved');
		expect((await sampleOf(h.db)).ids).toHaveLength(21);
		const secondary = await h.db.select().from(reviewTask).where(eq(reviewTask.round, 'secondary'));
		// Every item Alice reviewed now awaits a secondary review that she is never offered.
		expect(secondary.map((t) => t.itemId).sort()).toEqual([...done].sort());
		expect(secondary.every((t) => t.state === 'pending' && t.excludedUserId === alice.id)).toBe(
			true
		);
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'dataset.settings'));
		expect(event.before).toMatchObject({ secondaryShare: 0.45, sampled: 9 });
		expect(event.after).toMatchObject({
			secondaryShare: 1,
			sampled: 21,
			sample: { reopened: preview.plan.reopen.length, added: preview.plan.add.length }
		});
	});

	it('lowers the share: items already secondary-reviewed stay, pending secondary tasks are cancelled', async () => {
		const [ds] = await h.db.select().from(dataset);
		await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: 1 });
		for (let i = 0; i < 4; i++) await reviewNext(h.db, alice.id);
		const { lease } = await reviewNext(h.db, bob.id); // a secondary review comes first
		expect(lease.round).toBe('secondary');
		const plan = await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: 0 });
		expect(plan).toMatchObject({ before: 21, after: 1, kept: 1 });
		expect((await sampleOf(h.db)).ids).toEqual([lease.itemId]);
		const open = await h.db
			.select()
			.from(reviewTask)
			.where(and(eq(reviewTask.round, 'secondary'), eq(reviewTask.state, 'pending')));
		expect(open).toEqual([]);
		// Single-reviewed items are final again; the double-reviewed one keeps its agreement.
		const reviewed = await h.db
			.select({ id: qaItem.id, provenance: qaItem.provenance })
			.from(qaItem)
			.innerJoin(review, eq(review.itemId, qaItem.id))
			.where(eq(review.round, 'primary'));
		expect(reviewed).toHaveLength(4);
		for (const r of reviewed)
			expect(r.provenance).toBe(r.id === lease.itemId ? 'agreed' : 'single');
	});

	it('re-seeds only while no review exists', async () => {
		const [ds] = await h.db.select().from(dataset);
		const redrawn = await setSecondaryShare(h.db, org.id, {
			datasetId: ds.id,
			share: 0.45,
			seed: 'another'
		});
		expect(redrawn).toMatchObject({ redraw: true, after: 9 });
		await reviewNext(h.db, alice.id);
		const err = await setSecondaryShare(h.db, org.id, {
			datasetId: ds.id,
			share: 0.45,
			seed: 'third'
		}).catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'locked', field: 'seed' });
	});

	it('sends the secondary round to someone else, blind', async () => {
		const [ds] = await h.db.select().from(dataset);
		await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: 1 });
		for (let i = 0; i < 21; i++) await reviewNext(h.db, alice.id);
		expect(await claimNext(h.db, alice.id)).toBeNull();
		const secondary = await h.db.select().from(reviewTask).where(eq(reviewTask.round, 'secondary'));
		expect(secondary).toHaveLength(21);
		expect(secondary.every((t) => t.excludedUserId === alice.id)).toBe(true);
		const lease = await claimNext(h.db, bob.id);
		expect(lease!.round).toBe('secondary');
		const shown = await leasedItem(h.db, bob.id, lease!.taskId);
		// Blind: the screen's data carries the item and passage only, no review of anyone.
		expect(Object.keys(shown!).sort()).toEqual(['item', 'lease', 'passage', 'version']);
	});
});

describeEachDb('reviewer queue', (h) => {
	it('checks every reviewer at about the share: within one item of share × their primary reviews', async () => {
		await seedItems(h.db, 6);
		const reviewers = await seedUsers(h.db, 3);
		const active = new Set(reviewers.map((r) => r.id));
		while (active.size) {
			for (const r of reviewers) {
				if (!active.has(r.id)) continue;
				const lease = await claimNext(h.db, r.id);
				if (!lease) active.delete(r.id);
				else await reviewNext(h.db, r.id);
			}
		}
		const rows = await h.db
			.select({ reviewer: review.reviewerId, sampled: qaItem.inSecondarySample })
			.from(review)
			.innerJoin(qaItem, eq(qaItem.id, review.itemId))
			.where(eq(review.round, 'primary'));
		expect(rows).toHaveLength(42);
		for (const r of reviewers) {
			const mine = rows.filter((row) => row.reviewer === r.id);
			const checked = mine.filter((row) => row.sampled).length;
			expect(mine.length).toBeGreaterThan(0);
			expect(Math.abs(checked - 0.45 * mine.length)).toBeLessThanOrEqual(1);
		}
	});

	async function claimOrder(userId: string) {
		const order: number[] = [];
		for (let lease = await claimNext(h.db, userId); lease; lease = await claimNext(h.db, userId)) {
			order.push(lease.itemId);
			await returnTask(h.db, userId, { taskId: lease.taskId, token: lease.leaseToken, skip: true });
		}
		return order;
	}

	it('offers items in a seeded order that the stored keys reproduce, different for another seed', async () => {
		await seedItems(h.db, 3, 'a');
		await seedItems(h.db, 3, 'b');
		const [org] = await seedUsers(h.db, 1, ['organiser']);
		const [alice] = await seedUsers(h.db, 1);
		const datasets = await h.db.select().from(dataset).orderBy(dataset.name);
		for (const [k, ds] of datasets.entries())
			await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: 0, seed: `seed-${k}` });
		const seedOf = new Map((await h.db.select().from(dataset)).map((d) => [d.id, d.sampleSeed!]));
		expect([...seedOf.values()].sort()).toEqual(['seed-0', 'seed-1']);
		const tasks = await h.db
			.select({ id: reviewTask.id, itemId: reviewTask.itemId, sortKey: reviewTask.sortKey })
			.from(reviewTask);
		const items = await h.db.select().from(qaItem);
		const datasetOf = new Map(items.map((i) => [i.id, i.datasetId]));
		for (const t of tasks)
			expect(t.sortKey).toBe(seededSortKey(seedOf.get(datasetOf.get(t.itemId)!)!, t.itemId));
		const expected = [...tasks]
			.sort((a, b) => a.sortKey - b.sortKey || a.id - b.id)
			.map((t) => t.itemId);
		expect(await claimOrder(alice.id)).toEqual(expected);
		// The same records, in the two datasets' seeded orders, come in different orders.
		const keyOf = new Map(items.map((i) => [i.id, i.itemKey]));
		const inDataset = (id: number) =>
			expected.filter((i) => datasetOf.get(i) === id).map((i) => keyOf.get(i));
		expect(inDataset(datasets[0].id)).not.toEqual(inDataset(datasets[1].id));
		expect([...inDataset(datasets[0].id)].sort()).toEqual([...inDataset(datasets[1].id)].sort());
	});

	it('offers items in import order when the organiser chooses it', async () => {
		await seedItems(h.db, 3);
		const [org] = await seedUsers(h.db, 1, ['organiser']);
		const [alice] = await seedUsers(h.db, 1);
		const [ds] = await h.db.select().from(dataset);
		await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: 0 });
		const saved = await updateDatasetSettings(
			h.db,
			org.id,
			await settingsOf(h.db, { secondaryPercent: 0, queueOrder: 'import' })
		);
		expect(saved.status).toBe('saved');
		const tasks = await h.db.select().from(reviewTask);
		expect(tasks.every((t) => t.sortKey === t.itemId)).toBe(true);
		const ids = (await h.db.select({ id: qaItem.id }).from(qaItem)).map((r) => r.id);
		expect(await claimOrder(alice.id)).toEqual(ids.sort((a, b) => a - b));
	});
});
