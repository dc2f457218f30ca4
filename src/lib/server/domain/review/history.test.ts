// The reviewer's history holds every judgement they gave in the queue — live reviews and hidden
// gold checks alike — in one shape, named by the public id their screen showed: as many lines as
// the counters count, no item or review numbers, the same page data for both kinds, and the same
// amendment (a check's latest revision is the one scored).
import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { reviewCheck, reviewGold, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, reviewGoldFile, seedUsers } from '../../fixtures/review';
import type { Verdict } from '../../../constants';
import { importReviewGold, reviewCheckResults, updateReviewerRound } from '../quality/review-round';
import { startWork, submitWork, type ShownWork } from './checks';
import { amendWork, historyEntry, reviewHistory } from './history';
import { newFormKey } from './reviews';
import { reviewerWorkday } from './workday';

/**
 * The keys of a value, all the way down (the first record of a list stands for all), values
 * dropped: the fields a page gets. Which fields are null or lists depends on the QA type.
 */
function shape(value: unknown): unknown {
	if (Array.isArray(value))
		return value.length && typeof value[0] === 'object' ? [shape(value[0])] : 'value';
	if (value && typeof value === 'object' && !(value instanceof Date))
		return Object.fromEntries(
			Object.entries(value)
				.sort(([a], [b]) => (a < b ? -1 : 1))
				.map(([k, v]) => [k, shape(v)])
		);
	return 'value';
}

async function goldOf(db: Db, checkId: number) {
	const [g] = await db
		.select({ verdict: reviewGold.verdict, relevance: reviewGold.relevance })
		.from(reviewCheck)
		.innerJoin(reviewGold, eq(reviewGold.id, reviewCheck.goldId))
		.where(eq(reviewCheck.id, checkId));
	return g;
}

describeEachDb("the reviewer's history of live reviews and hidden checks", (h) => {
	let organiser: User;
	let ann: User;
	beforeEach(async () => {
		[organiser] = await seedUsers(h.db, 1, ['organiser']);
		[ann] = await seedUsers(h.db, 1, ['reviewer']);
		await seedItems(h.db, 2);
		await importReviewGold(h.db, reviewGoldFile(10, 2000), organiser.id);
		await updateReviewerRound(
			h.db,
			{ required: false, passMark: 0.75, questionsPerAttempt: 2, maxAttempts: 2, checkEvery: 2 },
			organiser.id
		);
	});

	/** Works the queue for `n` submissions, answering every check wrongly on its verdict. */
	async function work(n: number) {
		const seen: { publicId: string; check: boolean; checkId: number | null }[] = [];
		let { shown } = await startWork(h.db, ann.id);
		for (let i = 0; i < n && shown; i++) {
			const s: ShownWork = shown;
			let verdict: Verdict = 'correct';
			let relevance = 3;
			if (s.lease.checkId !== null) {
				const g = await goldOf(h.db, s.lease.checkId);
				verdict = g.verdict === 'correct' ? 'incorrect' : 'correct';
				relevance = g.relevance;
			}
			seen.push({
				publicId: s.lease.publicId,
				check: s.lease.checkId !== null,
				checkId: s.lease.checkId
			});
			shown = (
				await submitWork(h.db, ann.id, {
					publicId: s.lease.publicId,
					key: s.lease.leaseToken,
					verdict,
					relevance,
					feedbackCategory: 'wording',
					feedback: `Note ${i}.`
				})
			).shown;
		}
		return seen;
	}

	it('lists every submission, checks too, in one shape and as many as the counters count', async () => {
		const seen = await work(8);
		expect(seen.filter((s) => s.check).length).toBeGreaterThan(0);
		expect(seen.filter((s) => !s.check).length).toBeGreaterThan(0);
		const history = await reviewHistory(h.db, ann.id);
		const workday = await reviewerWorkday(h.db, ann.id, 'UTC');
		expect(history.length).toBe(8);
		expect(workday.today).toBe(8);
		expect(new Set(history.map((r) => r.publicId))).toEqual(new Set(seen.map((s) => s.publicId)));
		const shapes = new Set(history.map((r) => JSON.stringify(shape(r))));
		expect(shapes.size).toBe(1);
		expect(Object.keys(history[0]).sort()).toEqual(
			[
				'publicId',
				'round',
				'revision',
				'verdict',
				'relevance',
				'timeOnTaskMs',
				'submittedAt',
				'type',
				'question'
			].sort()
		);
	});

	it("gives a check's page the same data shape as a live review's, and amends both alike", async () => {
		const seen = await work(8);
		const check = seen.find((s) => s.check)!;
		const live = seen.find((s) => !s.check)!;
		const [c, l] = await Promise.all([
			historyEntry(h.db, ann.id, check.publicId),
			historyEntry(h.db, ann.id, live.publicId)
		]);
		expect(c).not.toBeNull();
		expect(JSON.stringify(shape(c))).toBe(JSON.stringify(shape(l)));
		expect(c!.notes).toHaveLength(1);
		expect(l!.notes).toHaveLength(1);
		expect(c!.lockedBecause).toBeNull();
		// Nobody else reads them.
		const bob = (await seedUsers(h.db, 2, ['reviewer']))[1];
		expect(await historyEntry(h.db, bob.id, check.publicId)).toBeNull();
		await expect(
			amendWork(h.db, bob.id, check.publicId, {
				verdict: 'correct',
				relevance: 3,
				key: newFormKey()
			})
		).rejects.toMatchObject({ code: 'not_found' });

		// The check was answered wrongly; the amendment matches gold on both labels and is scored.
		const before = (await reviewCheckResults(h.db)).find((r) => r.raterId === ann.id)!;
		const g = await goldOf(h.db, check.checkId!);
		const key = newFormKey();
		const amended = await amendWork(h.db, ann.id, check.publicId, {
			verdict: g.verdict,
			relevance: g.relevance,
			key
		});
		expect(amended).toEqual({ duplicate: false, revision: 2 });
		// A double click saves once.
		expect(
			await amendWork(h.db, ann.id, check.publicId, {
				verdict: g.verdict,
				relevance: g.relevance,
				key
			})
		).toEqual({ duplicate: true, revision: 2 });
		const after = (await reviewCheckResults(h.db)).find((r) => r.raterId === ann.id)!;
		expect(after.checks).toBe(before.checks);
		expect(after.matched).toBe(before.matched + 1);
		const liveAmended = await amendWork(h.db, ann.id, live.publicId, {
			verdict: 'incorrect',
			relevance: 2,
			key: newFormKey()
		});
		expect(liveAmended).toEqual({ duplicate: false, revision: 2 });

		const [c2, l2] = await Promise.all([
			historyEntry(h.db, ann.id, check.publicId),
			historyEntry(h.db, ann.id, live.publicId)
		]);
		expect(c2!.revisions.map((r) => r.revision)).toEqual([2, 1]);
		expect(c2!.revisions[0]).toMatchObject({ verdict: g.verdict, relevance: g.relevance });
		expect(JSON.stringify(shape(c2))).toBe(JSON.stringify(shape(l2)));
		const lines = await reviewHistory(h.db, ann.id);
		expect(lines.find((r) => r.publicId === check.publicId)).toMatchObject({
			revision: 2,
			verdict: g.verdict
		});
		expect(lines.find((r) => r.publicId === live.publicId)).toMatchObject({
			revision: 2,
			verdict: 'incorrect'
		});
	});
});
