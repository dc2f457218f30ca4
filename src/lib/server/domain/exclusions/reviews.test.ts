// Excluding a reviewer (every study) against the QA review workflow: the items whose current review
// the exclusion takes out go back into the review queue — to nobody who held or did another task of
// the item — their outcomes follow the reviews that still count, reviews submitted under an
// exclusion reopen their own item, revoking gives the reviews back while their fresh tasks wait
// unclaimed, and adjudicated items keep what the adjudicator decided.
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { auditEvent, qaItem, reviewTask, user } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, seedUsers } from '../../fixtures/review';
import { reviewItem } from '../../fixtures/review-flow';
import { claimNext } from '../review/queue';
import { submitReview } from '../review/reviews';
import { adjudicate } from '../verification/adjudication';
import { reviewJudgements } from '../agreement/extract';
import { excludeJudgements, excludedReviewCounts, revokeExclusion } from '.';

async function items(db: Db) {
	return db
		.select({ id: qaItem.id, datasetId: qaItem.datasetId })
		.from(qaItem)
		.orderBy(asc(qaItem.id));
}

async function outcome(db: Db, itemId: number) {
	const [row] = await db
		.select({
			status: qaItem.status,
			provenance: qaItem.provenance,
			verdict: qaItem.finalVerdict,
			relevance: qaItem.finalRelevance
		})
		.from(qaItem)
		.where(eq(qaItem.id, itemId));
	return row;
}

/** The item's current task of a round: state, whether it replaced a retired one. */
async function currentTask(db: Db, itemId: number, round: 'primary' | 'secondary') {
	const [row] = await db
		.select({ id: reviewTask.id, state: reviewTask.state, reopened: reviewTask.reopened })
		.from(reviewTask)
		.where(
			and(eq(reviewTask.itemId, itemId), eq(reviewTask.round, round), isNull(reviewTask.retiredAt))
		);
	return row ?? null;
}

/** Claims and submits until the queue gives the reviewer nothing; returns what they were given. */
async function drain(db: Db, reviewerId: string, verdict: 'correct' | 'incorrect' = 'correct') {
	const given: string[] = [];
	for (;;) {
		const lease = await claimNext(db, reviewerId);
		if (!lease) return given;
		given.push(`${lease.itemId}:${lease.round}`);
		await submitReview(db, reviewerId, {
			verdict,
			relevance: 4,
			taskId: lease.taskId,
			key: lease.leaseToken
		});
	}
}

describeEachDb('excluding a reviewer', (h) => {
	async function setup() {
		const [organiser] = await seedUsers(h.db, 1, ['organiser']);
		const [a, b, c] = await seedUsers(h.db, 3, ['reviewer']);
		await seedItems(h.db, 1);
		return { organiser: organiser.id, a: a.id, b: b.id, c: c.id, items: await items(h.db) };
	}

	it('puts the items they reviewed back into the queue for others, and the outcomes follow', async () => {
		const { organiser, a, b, c, items: all } = await setup();
		const [single, agreedByB, secondByA, untouched] = all.map((i) => i.id);
		await reviewItem(h.db, a, single, 'primary', {
			verdict: 'incorrect',
			relevance: 1,
			sampled: false
		});
		await reviewItem(h.db, a, agreedByB, 'primary', {
			verdict: 'correct',
			relevance: 4,
			sampled: true
		});
		await reviewItem(h.db, b, agreedByB, 'secondary', { verdict: 'correct', relevance: 4 });
		await reviewItem(h.db, b, secondByA, 'primary', {
			verdict: 'correct',
			relevance: 3,
			sampled: true
		});
		await reviewItem(h.db, a, secondByA, 'secondary', { verdict: 'correct', relevance: 3 });
		await reviewItem(h.db, c, untouched, 'primary', {
			verdict: 'correct',
			relevance: 5,
			sampled: false
		});
		expect(await outcome(h.db, single)).toMatchObject({ status: 'done', verdict: 'incorrect' });
		const datasetId = all[0].datasetId;
		const before = await reviewJudgements(h.db, datasetId);
		expect(before).toHaveLength(6);

		const made = await excludeJudgements(
			h.db,
			{ raterId: a, studyId: null, from: null, until: null, reason: 'Did not read the passages.' },
			organiser
		);
		expect(made.reviewTasksChanged).toBe(3);
		expect(await outcome(h.db, single)).toEqual({
			status: 'awaiting_primary',
			provenance: null,
			verdict: null,
			relevance: null
		});
		expect((await outcome(h.db, agreedByB)).status).toBe('awaiting_primary');
		expect((await outcome(h.db, secondByA)).status).toBe('awaiting_secondary');
		expect(await outcome(h.db, untouched)).toMatchObject({ status: 'done', relevance: 5 });
		for (const [item, round] of [
			[single, 'primary'],
			[agreedByB, 'primary'],
			[secondByA, 'secondary']
		] as const)
			expect(await currentTask(h.db, item, round)).toMatchObject({
				state: 'pending',
				reopened: true
			});
		// The statistics read only what counts: A's three reviews are out, and say so.
		const [{ pseudonym }] = await h.db
			.select({ pseudonym: user.pseudonym })
			.from(user)
			.where(eq(user.id, a));
		expect(before.filter((r) => r.reviewer === pseudonym)).toHaveLength(3);
		expect(await reviewJudgements(h.db, datasetId)).toEqual(
			before.filter((r) => r.reviewer !== pseudonym)
		);
		expect(await excludedReviewCounts(h.db, datasetId)).toMatchObject({ judgements: 3, raters: 1 });
		// The excluded reviewer gets no more work, and is told why.
		await expect(claimNext(h.db, a)).rejects.toThrow(/set your reviews aside/);

		// B reviewed the other round of two of the reopened items: B never gets those back.
		const givenB = await drain(h.db, b, 'correct');
		expect(givenB).not.toContain(`${agreedByB}:primary`);
		expect(givenB).not.toContain(`${secondByA}:secondary`);
		expect(givenB).toContain(`${single}:primary`);
		const givenC = await drain(h.db, c, 'correct');
		expect(givenC).toContain(`${agreedByB}:primary`);
		expect(givenC).toContain(`${secondByA}:secondary`);
		// C's primary and B's secondary agree (correct, 4): the item is decided without A.
		expect(await outcome(h.db, agreedByB)).toMatchObject({
			status: 'done',
			provenance: 'agreed',
			verdict: 'correct',
			relevance: 4
		});
		expect(await outcome(h.db, single)).toMatchObject({ status: 'done', verdict: 'correct' });
		const after = await reviewJudgements(h.db, datasetId);
		const pseudonyms = new Set(after.map((r) => r.reviewer));
		expect(after.filter((r) => r.item === single)).toHaveLength(1);
		expect(pseudonyms.size).toBe(2);
		const audits = await h.db
			.select({ objectId: auditEvent.objectId })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'review_task.reopen'));
		expect(audits).toHaveLength(3);
	});

	it('gives the reviews back when revoked while their fresh tasks wait unclaimed', async () => {
		const { organiser, a, c, items: all } = await setup();
		const [first, second] = all.map((i) => i.id);
		await reviewItem(h.db, a, first, 'primary', {
			verdict: 'incorrect',
			relevance: 2,
			sampled: false
		});
		await reviewItem(h.db, a, second, 'primary', {
			verdict: 'incorrect',
			relevance: 2,
			sampled: false
		});
		const { exclusion } = await excludeJudgements(
			h.db,
			{ raterId: a, studyId: null, from: null, until: null, reason: 'Checking their work.' },
			organiser
		);
		// C reviews the first item's fresh task; the second's still waits.
		await reviewItem(h.db, c, first, 'primary', { verdict: 'correct', relevance: 5 });
		const revoked = await revokeExclusion(h.db, exclusion.id, organiser, { reason: 'Checked.' });
		expect(revoked.reviewTasksChanged).toBe(1);
		expect(await outcome(h.db, second)).toMatchObject({
			status: 'done',
			verdict: 'incorrect',
			relevance: 2
		});
		// The first item keeps the review made while the exclusion stood.
		expect(await outcome(h.db, first)).toMatchObject({
			status: 'done',
			verdict: 'correct',
			relevance: 5
		});
		expect(await currentTask(h.db, second, 'primary')).toMatchObject({
			state: 'done',
			reopened: false
		});
		const cancelled = await h.db
			.select({ state: reviewTask.state })
			.from(reviewTask)
			.where(and(eq(reviewTask.itemId, second), eq(reviewTask.reopened, true)));
		expect(cancelled).toEqual([{ state: 'cancelled' }]);
		// Nobody is offered the second item again.
		const [other] = await seedUsers(h.db, 1, ['reviewer']);
		expect(await drain(h.db, other.id)).not.toContain(`${second}:primary`);
		const restored = await h.db
			.select({ objectId: auditEvent.objectId })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'review_task.restore'));
		expect(restored).toHaveLength(1);
	});

	it('sets aside only the reviews submitted in the range', async () => {
		const { organiser, a, items: all } = await setup();
		const [early, late] = all.map((i) => i.id);
		await reviewItem(h.db, a, early, 'primary', {
			verdict: 'correct',
			relevance: 3,
			sampled: false
		});
		await new Promise((r) => setTimeout(r, 20));
		const from = new Date();
		await new Promise((r) => setTimeout(r, 20));
		await reviewItem(h.db, a, late, 'primary', {
			verdict: 'correct',
			relevance: 3,
			sampled: false
		});
		const made = await excludeJudgements(
			h.db,
			{ raterId: a, studyId: null, from, until: new Date(Date.now() + 1), reason: 'A bad hour.' },
			organiser
		);
		expect(made.reviewTasksChanged).toBe(1);
		expect((await outcome(h.db, early)).status).toBe('done');
		expect((await outcome(h.db, late)).status).toBe('awaiting_primary');
		// The range has ended: the reviewer works again.
		await new Promise((r) => setTimeout(r, 5));
		expect(await claimNext(h.db, a)).not.toBeNull();
	});

	it('an exclusion that starts later leaves the reviews before it alone', async () => {
		const { organiser, a, items: all } = await setup();
		await reviewItem(h.db, a, all[0].id, 'primary', {
			verdict: 'correct',
			relevance: 3,
			sampled: false
		});
		const made = await excludeJudgements(
			h.db,
			{
				raterId: a,
				studyId: null,
				from: new Date(Date.now() + 60_000),
				until: null,
				reason: 'Later.'
			},
			organiser
		);
		expect(made.reviewTasksChanged).toBe(0);
		expect((await outcome(h.db, all[0].id)).status).toBe('done');
	});

	it('a review submitted under an exclusion is kept, does not count, and reopens its item', async () => {
		const { organiser, a, b, items: all } = await setup();
		const lease = await claimNext(h.db, a);
		expect(lease).not.toBeNull();
		await h.db.update(qaItem).set({ inSecondarySample: true }).where(eq(qaItem.id, lease!.itemId));
		await excludeJudgements(
			h.db,
			{ raterId: a, studyId: null, from: null, until: null, reason: 'Rushed.' },
			organiser
		);
		const { review } = await submitReview(h.db, a, {
			verdict: 'correct',
			relevance: 5,
			taskId: lease!.taskId,
			key: lease!.leaseToken
		});
		expect(review.id).toBeGreaterThan(0);
		expect((await outcome(h.db, lease!.itemId)).status).toBe('awaiting_primary');
		expect(await currentTask(h.db, lease!.itemId, 'primary')).toMatchObject({
			state: 'pending',
			reopened: true
		});
		// No secondary task came of it: the item waits for a primary review that counts.
		expect(await currentTask(h.db, lease!.itemId, 'secondary')).toBeNull();
		expect(all.length).toBeGreaterThan(1);
		expect(await drain(h.db, b)).toContain(`${lease!.itemId}:primary`);
	});

	it('adjudicated items keep what the adjudicator decided', async () => {
		const { organiser, a, b, items: all } = await setup();
		const item = all[0].id;
		await reviewItem(h.db, a, item, 'primary', { verdict: 'correct', relevance: 5, sampled: true });
		await reviewItem(h.db, b, item, 'secondary', { verdict: 'incorrect', relevance: 1 });
		expect((await outcome(h.db, item)).status).toBe('awaiting_adjudication');
		await adjudicate(h.db, organiser, {
			itemId: item,
			verdict: 'incorrect',
			relevance: 2,
			reason: 'The passage contradicts the answer.'
		});
		const made = await excludeJudgements(
			h.db,
			{ raterId: a, studyId: null, from: null, until: null, reason: 'Careless.' },
			organiser
		);
		expect(made.reviewTasksChanged).toBe(0);
		expect(await outcome(h.db, item)).toMatchObject({
			status: 'done',
			provenance: 'adjudicated',
			verdict: 'incorrect'
		});
		const tasks = await h.db
			.select({ id: reviewTask.id })
			.from(reviewTask)
			.where(inArray(reviewTask.itemId, [item]));
		expect(tasks).toHaveLength(2);
	});
});
