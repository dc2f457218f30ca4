import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { dataset, qaItem, reviewTask, type User } from '../../db/schema';
import { QA_TYPES, type QaType } from '../../../constants';
import { describeEachDb } from '../../db/testing';
import { reviewNext } from '../../fixtures/review-flow';
import { seedItems, seedUsers } from '../../fixtures/review';
import { claimNext, ensureReviewTasks, leasedItem } from '../review/queue';
import { apportion, drawSecondarySample, seededRandom, stratifiedSample } from './sampling';

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

describeEachDb('secondary sample', (h) => {
	let users: User[];
	beforeEach(async () => {
		await seedItems(h.db, 4);
		users = await seedUsers(h.db, 3, ['organiser']);
		await ensureReviewTasks(h.db);
	});

	it('records the seed, samples per type and gives the secondary round to someone else, blind', async () => {
		const [ds] = await h.db.select().from(dataset);
		await h.db.update(dataset).set({ secondaryShare: 0.5 });
		const result = await drawSecondarySample(h.db, users[0].id, {
			datasetId: ds.id,
			seed: 'fixed'
		});
		expect(result).toMatchObject({ seed: 'fixed', sampled: 14, total: 28 });
		for (const type of QA_TYPES) expect(result.perType[type]).toEqual({ sampled: 2, total: 4 });
		const [after] = await h.db.select().from(dataset);
		expect(after.sampleSeed).toBe('fixed');

		// The same seed draws the same items.
		const sampledIds = async () =>
			(await h.db.select({ id: qaItem.id }).from(qaItem).where(eq(qaItem.inSecondarySample, true)))
				.map((r) => r.id)
				.sort();
		const first = await sampledIds();
		await drawSecondarySample(h.db, users[0].id, { datasetId: ds.id, seed: 'fixed' });
		expect(await sampledIds()).toEqual(first);

		// Alice reviews everything once; the secondary round never goes back to her.
		const [alice, bob] = users;
		for (let i = 0; i < 28; i++) await reviewNext(h.db, alice.id);
		expect(await claimNext(h.db, alice.id)).toBeNull();
		const secondary = await h.db.select().from(reviewTask).where(eq(reviewTask.round, 'secondary'));
		expect(secondary).toHaveLength(14);
		expect(secondary.every((t) => t.excludedUserId === alice.id)).toBe(true);
		const lease = await claimNext(h.db, bob.id);
		expect(lease!.round).toBe('secondary');
		const shown = await leasedItem(h.db, bob.id, lease!.taskId);
		// Blind: the screen's data carries the item and passage only, no review of anyone.
		expect(Object.keys(shown!).sort()).toEqual(['item', 'lease', 'passage', 'version']);
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, lease!.itemId));
		expect(item.status).toBe('awaiting_secondary');
	});

	it('refuses to redraw once secondary reviews exist', async () => {
		const [ds] = await h.db.select().from(dataset);
		await h.db.update(dataset).set({ secondaryShare: 1 });
		await drawSecondarySample(h.db, users[0].id, { datasetId: ds.id });
		await reviewNext(h.db, users[0].id);
		await reviewNext(h.db, users[1].id); // the secondary task comes first
		const err = await drawSecondarySample(h.db, users[0].id, { datasetId: ds.id }).catch((e) => e);
		expect(err.code).toBe('locked');
	});
});
