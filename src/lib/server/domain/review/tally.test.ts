import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '../../db/client';
import { rowsOf } from '../../db/client';
import { dataset, qaItem, review, reviewerTally, reviewTask, type User } from '../../db/schema';
import { QA_TYPES, VERDICTS } from '../../../constants';
import { createTestDb, describeEachDb, hasPostgres, postgresUnmet } from '../../db/testing';
import { skippedTitle } from '$scoring/testing/skip';
import { validRecord } from '../../fixtures/records';
import { seedItems, seedPassages, seedUsers } from '../../fixtures/review';
import { importQaFiles } from '../imports/qa-import';
import { withdrawItem } from '../items/corrections';
import { seededRandom } from '../verification/sampling';
import { setSecondaryShare } from '../verification/settings';
import { claimNext } from './queue';
import { amendReview, newFormKey, submitAndNext, submitReview } from './reviews';

interface Tally {
	userId: string;
	datasetId: number;
	reviewed: number;
	sampled: number;
}

const byKey = (a: Tally, b: Tally) => a.userId.localeCompare(b.userId) || a.datasetId - b.datasetId;

/** The tally as the claim reads it. */
async function storedTally(db: Db): Promise<Tally[]> {
	const rows = await db.select().from(reviewerTally);
	return rows.filter((r) => r.reviewed > 0 || r.sampled !== 0).sort(byKey);
}

/** The same numbers recomputed from the review rows. */
async function recomputedTally(db: Db): Promise<Tally[]> {
	const rows = rowsOf<{ user_id: string; dataset_id: number; reviewed: number; sampled: number }>(
		await db.execute(sql`
			select r.reviewer_id as user_id, i.dataset_id, count(*)::int as reviewed,
				count(*) filter (where i.in_secondary_sample)::int as sampled
			from ${review} r join ${qaItem} i on i.id = r.item_id
			where r.round = 'primary' and r.revision = 1
			group by r.reviewer_id, i.dataset_id`)
	);
	return rows
		.map((r) => ({
			userId: r.user_id,
			datasetId: r.dataset_id,
			reviewed: r.reviewed,
			sampled: r.sampled
		}))
		.sort(byKey);
}

async function importBatch(db: Db, from: number, perType: number, name: string) {
	const records = QA_TYPES.flatMap((type) =>
		Array.from({ length: perType }, (_, i) => validRecord(type, from + i))
	);
	await seedPassages(db, perType, from);
	await importQaFiles(db, [{ fileName: `batch-${from}.json`, text: JSON.stringify(records) }], {
		actor: { userId: null, label: 'cli (test)' },
		dataset: name
	});
}

describeEachDb('reviewer tally', (h) => {
	it('equals the counts recomputed from the reviews after any sequence of submissions, amendments, share changes, imports and withdrawals', async () => {
		const random = seededRandom('reviewer-tally');
		const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
		const [org] = await seedUsers(h.db, 1, ['organiser']);
		const reviewers = await seedUsers(h.db, 3);
		await importBatch(h.db, 1, 2, 'first');
		let next = 100;
		const steps: string[] = [];
		for (let step = 0; step < 45; step++) {
			const roll = random();
			const reviewer = pick(reviewers);
			if (roll < 0.45) {
				// A judgement: submit alone, or submit and take the next item in one statement.
				const lease = await claimNext(h.db, reviewer.id);
				if (lease) {
					const input = {
						taskId: lease.taskId,
						key: lease.leaseToken,
						verdict: pick([...VERDICTS]),
						relevance: 1 + Math.floor(random() * 5)
					};
					if (random() < 0.5) await submitReview(h.db, reviewer.id, input);
					else await submitAndNext(h.db, reviewer.id, input);
					steps.push(`submit ${lease.round}`);
				}
			} else if (roll < 0.6) {
				// An amendment of the reviewer's latest revision of one of their reviews.
				const mine = await h.db
					.select({ id: review.id, taskId: review.taskId })
					.from(review)
					.where(eq(review.reviewerId, reviewer.id))
					.orderBy(desc(review.revision));
				if (mine.length) {
					const { taskId } = pick(mine);
					const latest = mine.find((r) => r.taskId === taskId)!;
					await amendReview(h.db, reviewer.id, latest.id, {
						key: newFormKey(),
						verdict: 'incorrect',
						relevance: 2
					});
					steps.push('amend');
				}
			} else if (roll < 0.8) {
				const datasets = await h.db.select().from(dataset);
				const ds = pick(datasets);
				const share = pick([0, 0.2, 0.45, 0.7, 1]);
				await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share });
				steps.push(`share ${ds.name} ${share}`);
			} else if (roll < 0.93) {
				const name = pick(['first', 'second']);
				await importBatch(h.db, next, 1, name);
				next += 10;
				steps.push(`import ${name}`);
			} else {
				const [item] = await h.db
					.select({ id: qaItem.id })
					.from(qaItem)
					.where(sql`${qaItem.status} <> 'withdrawn'`)
					.orderBy(sql`random()`)
					.limit(1);
				if (item)
					await h.db.transaction((tx) => withdrawItem(tx, org.id, item.id, 'Out of scope.'));
				steps.push('withdraw');
			}
			expect({ after: steps.join(', '), tally: await storedTally(h.db) }).toEqual({
				after: steps.join(', '),
				tally: await recomputedTally(h.db)
			});
		}
		// The sequence did exercise what moves the tally.
		expect(steps.filter((s) => s.startsWith('submit primary')).length).toBeGreaterThan(5);
		expect(steps.some((s) => s.startsWith('share'))).toBe(true);
		expect(steps.some((s) => s.startsWith('import'))).toBe(true);
		expect((await storedTally(h.db)).some((t) => t.sampled > 0)).toBe(true);
	});

	it('refreshes a dataset from its reviews, for reviews written outside the submission', async () => {
		await seedItems(h.db, 1);
		const [alice] = await seedUsers(h.db, 1);
		const lease = await claimNext(h.db, alice.id);
		await submitReview(h.db, alice.id, {
			taskId: lease!.taskId,
			key: lease!.leaseToken,
			verdict: 'correct',
			relevance: 4
		});
		const [ds] = await h.db.select().from(dataset);
		await h.db.delete(reviewerTally);
		await h.db.execute(sql`select reviewer_tally_refresh(${ds.id})`);
		expect(await storedTally(h.db)).toEqual(await recomputedTally(h.db));
		expect((await storedTally(h.db))[0]).toMatchObject({ userId: alice.id, reviewed: 1 });
	});
});

// Concurrent submissions and sample changes only interleave with real connections (PGlite runs one
// statement at a time).
describe.skipIf(!hasPostgres())(
	skippedTitle('reviewer tally under concurrency (PostgreSQL)', postgresUnmet()),
	() => {
		let h: DatabaseHandle;
		const REVIEWERS = 8;
		const PER_TYPE = 30;
		beforeAll(async () => {
			h = await createTestDb('postgres', { max: REVIEWERS + 4 });
			await seedItems(h.db, PER_TYPE);
		});
		afterAll(async () => {
			await h?.close();
		});

		it('stays exact while reviewers submit and the organiser changes the share at once', async () => {
			const [org] = await seedUsers(h.db, 1, ['organiser']);
			const users: User[] = await seedUsers(h.db, REVIEWERS);
			const [ds] = await h.db.select().from(dataset);
			let reviewing = true;
			const work = users.map(async (u) => {
				let lease = await claimNext(h.db, u.id);
				while (lease) {
					const result = await submitAndNext(h.db, u.id, {
						taskId: lease.taskId,
						key: lease.leaseToken,
						verdict: 'correct',
						relevance: 5
					});
					lease = result.next;
				}
			});
			const organiser = (async () => {
				const shares = [0.1, 0.9, 0.3, 0.6, 0.2, 0.8];
				let i = 0;
				for (; reviewing; i++)
					await setSecondaryShare(h.db, org.id, { datasetId: ds.id, share: shares[i % 6] });
				return i;
			})();
			await Promise.all(work).finally(() => (reviewing = false));
			const changes = await organiser;
			// The sample did change while the reviewers were at work.
			expect(changes).toBeGreaterThan(1);
			const [{ open }] = rowsOf<{ open: number }>(
				await h.db.execute(
					sql`select count(*)::int as open from ${reviewTask} where state = 'pending' and round = 'primary'`
				)
			);
			expect(open).toBe(0);
			const tally = await storedTally(h.db);
			expect(tally).toEqual(await recomputedTally(h.db));
			expect(tally.reduce((n, t) => n + t.reviewed, 0)).toBe(7 * PER_TYPE);
			expect(
				await h.db
					.select()
					.from(reviewerTally)
					.where(and(eq(reviewerTally.datasetId, ds.id), sql`${reviewerTally.sampled} < 0`))
			).toEqual([]);
		});
	}
);
