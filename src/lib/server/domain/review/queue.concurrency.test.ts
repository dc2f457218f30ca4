import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { dataset, review, reviewTask } from '../../db/schema';
import { createTestDb, hasPostgres, postgresUnmet } from '../../db/testing';
import { skippedTitle } from '$scoring/testing/skip';
import { seedItems, seedUsers } from '../../fixtures/review';
import { claimNext } from './queue';
import { submitAndNext } from './reviews';
import { setSecondaryShare } from '../verification/settings';

// Row locks and SKIP LOCKED only mean something with real concurrent connections: PGlite has one
// connection and serialises everything, so this test needs PostgreSQL (CI provides it).
describe.skipIf(!hasPostgres())(
	skippedTitle('review queue under concurrency (PostgreSQL)', postgresUnmet()),
	() => {
		let h: DatabaseHandle;
		const REVIEWERS = 20;
		const PER_TYPE = 30; // 210 items, 420 claims with a 100 % secondary round
		beforeAll(async () => {
			h = await createTestDb('postgres', { max: REVIEWERS + 5 });
			await seedItems(h.db, PER_TYPE);
		});
		afterAll(async () => {
			await h?.close();
		});

		it('20 reviewers at once: no task leased twice, no submission lost', async () => {
			const users = await seedUsers(h.db, REVIEWERS);
			const [ds] = await h.db.select().from(dataset);
			await setSecondaryShare(h.db, users[0].id, {
				datasetId: ds.id,
				share: 1,
				seed: 'concurrency'
			});
			const claims: { user: string; taskId: number; itemId: number; round: string }[] = [];
			const submitted: number[] = [];
			// A claim finds nothing while the tasks left are locked by others' claims and submits
			// (SKIP LOCKED) or are not this reviewer's to take (the second round of their own item);
			// a reviewer's page asks again, so a reviewer stops only when no task is left open (or
			// after 200 tries: then the counts below show what was left).
			const openTasks = async () =>
				(
					await h.db
						.select({ n: count() })
						.from(reviewTask)
						.where(inArray(reviewTask.state, ['pending', 'leased']))
				)[0].n;
			const claimAgain = async (user: string) => {
				for (let tries = 0; tries < 200; tries++) {
					const lease = await claimNext(h.db, user);
					if (lease || (await openTasks()) === 0) return lease;
					await new Promise((resolve) => setTimeout(resolve, 5));
				}
				return null;
			};
			await Promise.all(
				users.map(async (u) => {
					let lease = await claimAgain(u.id);
					while (lease) {
						claims.push({
							user: u.id,
							taskId: lease.taskId,
							itemId: lease.itemId,
							round: lease.round
						});
						const result = await submitAndNext(h.db, u.id, {
							taskId: lease.taskId,
							key: lease.leaseToken,
							verdict: 'correct',
							relevance: 5
						});
						submitted.push(result.review.id);
						lease = result.next ?? (await claimAgain(u.id));
					}
				})
			);
			const items = 7 * PER_TYPE;
			// Every task claimed exactly once (the next claim of a user only comes after their submit).
			expect(claims).toHaveLength(2 * items);
			expect(new Set(claims.map((c) => c.taskId)).size).toBe(2 * items);
			// Both rounds of an item never went to the same reviewer.
			const byItem = new Map<number, Set<string>>();
			for (const c of claims) byItem.set(c.itemId, (byItem.get(c.itemId) ?? new Set()).add(c.user));
			expect([...byItem.values()].every((s) => s.size === 2)).toBe(true);
			// No submission lost: one stored review per claim, every task done.
			const [{ n }] = await h.db.select({ n: count() }).from(review);
			expect(n).toBe(2 * items);
			expect(new Set(submitted).size).toBe(2 * items);
			const [{ open }] = await h.db
				.select({ open: count() })
				.from(reviewTask)
				.where(eq(reviewTask.state, 'pending'));
			expect(open).toBe(0);
			// The work was actually shared out.
			expect(new Set(claims.map((c) => c.user)).size).toBeGreaterThan(10);
		});
	}
);
