import { and, count, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
	auditEvent,
	dispute,
	feedbackNote,
	qaItem,
	review,
	reviewTask,
	type User
} from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, seedUsers } from '../../fixtures/review';
import { DomainError } from '../../errors';
import { claimNext, leasedItem } from './queue';
import { amendReview, newFormKey, reviewInputSchema, submitAndNext, submitReview } from './reviews';
import { reviewHistory } from './history';

describe('review input validation', () => {
	const base = { taskId: '3', key: 'k'.repeat(24), verdict: 'correct', relevance: '4' };
	it('accepts a complete review', () => {
		expect(reviewInputSchema.safeParse(base).success).toBe(true);
	});
	it.each([
		[{ relevance: '6' }, 'relevance', 'GP relevance must be from 1 to 5.'],
		[{ relevance: '0' }, 'relevance', 'GP relevance must be from 1 to 5.'],
		[{ relevance: '2.5' }, 'relevance', 'GP relevance must be a whole number from 1 to 5.'],
		[{ verdict: undefined }, 'verdict', 'Choose a verdict: correct, incorrect or cannot tell.'],
		[{ verdict: 'maybe' }, 'verdict', 'Choose a verdict: correct, incorrect or cannot tell.'],
		[{ feedback: 'typo' }, 'feedbackCategory', 'Choose a category for the feedback note.'],
		[{ disputeCategory: 'outdated' }, 'disputeReason', 'A formal dispute needs a reason.']
	])('rejects %o with a clear message', (change, field, message) => {
		const result = reviewInputSchema.safeParse({ ...base, ...change });
		expect(result.success).toBe(false);
		const issue = result.error!.issues.find((i) => i.path[0] === field);
		expect(issue?.message).toBe(message);
	});
});

describeEachDb('reviews', (h) => {
	let alice: User;
	let bob: User;
	beforeEach(async () => {
		await seedItems(h.db, 1);
		[alice, bob] = await seedUsers(h.db, 2);
	});

	async function counts() {
		const [[r], [f], [d]] = await Promise.all([
			h.db.select({ n: count() }).from(review),
			h.db.select({ n: count() }).from(feedbackNote),
			h.db.select({ n: count() }).from(dispute)
		]);
		return { reviews: r.n, notes: f.n, disputes: d.n };
	}
	const judgement = { verdict: 'correct' as const, relevance: 5 };

	it('records a review with feedback and a dispute, marks the task done and verifies the item', async () => {
		const lease = (await claimNext(h.db, alice.id))!;
		const started = Date.now() - 42_000;
		const { review: saved } = await submitReview(h.db, alice.id, {
			taskId: lease.taskId,
			key: lease.leaseToken,
			...judgement,
			feedbackCategory: 'wording',
			feedback: 'Second sentence is clumsy.',
			disputeCategory: 'outdated',
			disputeReason: 'Guideline changed in 2023.',
			startedAt: started
		});
		expect(saved.timeOnTaskMs).toBeGreaterThanOrEqual(42_000);
		expect(await counts()).toEqual({ reviews: 1, notes: 1, disputes: 1 });
		const [task] = await h.db.select().from(reviewTask).where(eq(reviewTask.id, lease.taskId));
		expect(task).toMatchObject({ state: 'done', doneBy: alice.id });
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, lease.itemId));
		expect(item).toMatchObject({
			status: 'done',
			provenance: 'single',
			finalVerdict: 'correct',
			finalRelevance: 5
		});
	});

	it('is idempotent: the same submission twice creates one review', async () => {
		const lease = (await claimNext(h.db, alice.id))!;
		const input = { taskId: lease.taskId, key: lease.leaseToken, ...judgement };
		const [one, two] = await Promise.all([
			submitReview(h.db, alice.id, input),
			submitReview(h.db, alice.id, input)
		]);
		expect(one.review.id).toBe(two.review.id);
		expect([one.duplicate, two.duplicate].sort()).toEqual([false, true]);
		expect((await counts()).reviews).toBe(1);
	});

	it('submit + next: leads straight to the next item, and a retried submit to the same one', async () => {
		const lease = (await claimNext(h.db, alice.id))!;
		const input = { taskId: lease.taskId, key: lease.leaseToken, ...judgement };
		const first = await submitAndNext(h.db, alice.id, input);
		const retry = await submitAndNext(h.db, alice.id, input);
		expect(first.next!.taskId).not.toBe(lease.taskId);
		expect(retry.next).toEqual(first.next);
		expect((await counts()).reviews).toBe(1);
	});

	it('refuses a review for an item the user does not lease, and changes nothing', async () => {
		const lease = (await claimNext(h.db, alice.id))!;
		const err = await submitReview(h.db, bob.id, {
			taskId: lease.taskId,
			key: lease.leaseToken,
			...judgement
		}).catch((e) => e);
		expect(err).toBeInstanceOf(DomainError);
		expect(err.code).toBe('not_leased');
		expect(err.message).toMatch(/no longer leased to you/);
		expect(await counts()).toEqual({ reviews: 0, notes: 0, disputes: 0 });
	});

	it('refuses a stale submission after the lease went to someone else', async () => {
		const t0 = new Date('2030-01-01T10:00:00Z');
		const stale = (await claimNext(h.db, alice.id, t0))!;
		const later = new Date(t0.getTime() + 31 * 60_000);
		const taken = (await claimNext(h.db, bob.id, later))!;
		expect(taken.taskId).toBe(stale.taskId);
		const err = await submitReview(
			h.db,
			alice.id,
			{ taskId: stale.taskId, key: stale.leaseToken, ...judgement },
			later
		).catch((e) => e);
		expect(err.code).toBe('not_leased');
		expect((await counts()).reviews).toBe(0);
	});

	it('refuses a second submission with a new key for a task already done', async () => {
		const lease = (await claimNext(h.db, alice.id))!;
		await submitReview(h.db, alice.id, {
			taskId: lease.taskId,
			key: lease.leaseToken,
			...judgement
		});
		const err = await submitReview(h.db, alice.id, {
			taskId: lease.taskId,
			key: newFormKey(),
			...judgement,
			verdict: 'incorrect'
		}).catch((e) => e);
		expect(err.code).toBe('already_submitted');
		const [only] = await h.db.select().from(review);
		expect(only.verdict).toBe('correct');
	});

	it('amends as a new revision, keeps the old one, and refuses to amend a stale revision', async () => {
		const lease = (await claimNext(h.db, alice.id))!;
		const { review: first } = await submitReview(h.db, alice.id, {
			taskId: lease.taskId,
			key: lease.leaseToken,
			...judgement
		});
		const { review: second } = await amendReview(h.db, alice.id, first.id, {
			verdict: 'incorrect',
			relevance: 2,
			key: newFormKey()
		});
		expect(second).toMatchObject({ revision: 2, supersedesId: first.id, verdict: 'incorrect' });
		const all = await h.db.select().from(review).orderBy(review.revision);
		expect(all.map((r) => [r.revision, r.verdict])).toEqual([
			[1, 'correct'],
			[2, 'incorrect']
		]);
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, lease.itemId));
		expect(item.finalVerdict).toBe('incorrect');
		const err = await amendReview(h.db, alice.id, first.id, {
			...judgement,
			key: newFormKey()
		}).catch((e) => e);
		expect(err.code).toBe('conflict');
		const notMine = await amendReview(h.db, bob.id, second.id, {
			...judgement,
			key: newFormKey()
		}).catch((e) => e);
		expect(notMine.code).toBe('not_found');
		const history = await reviewHistory(h.db, alice.id);
		expect(history).toHaveLength(1);
		expect(history[0]).toMatchObject({ publicId: lease.publicId, revision: 2 });
		// Nothing in the reviewer's history says whether the item is double-checked or how it
		// ended, nor names the item or the review by number.
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

	it('submit + next in one statement: notes, secondary task, outcome, audit, and the next item shown', async () => {
		await h.db.update(qaItem).set({ inSecondarySample: true });
		const lease = (await claimNext(h.db, alice.id))!;
		const result = await submitAndNext(h.db, alice.id, {
			taskId: lease.taskId,
			key: lease.leaseToken,
			...judgement,
			feedbackCategory: 'wording',
			feedback: 'Clumsy.',
			disputeCategory: 'outdated',
			disputeReason: 'Guideline changed.'
		});
		expect(result.duplicate).toBe(false);
		expect(result.review).toMatchObject({
			taskId: lease.taskId,
			reviewerId: alice.id,
			revision: 1
		});
		expect(result.review.submittedAt).toBeInstanceOf(Date);
		expect(await counts()).toEqual({ reviews: 1, notes: 1, disputes: 1 });
		// The item is in the sample: its secondary task exists and is never Alice's.
		const [secondary] = await h.db
			.select()
			.from(reviewTask)
			.where(and(eq(reviewTask.itemId, lease.itemId), eq(reviewTask.round, 'secondary')));
		expect(secondary).toMatchObject({ state: 'pending', excludedUserId: alice.id });
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, lease.itemId));
		expect(item.status).toBe('awaiting_secondary');
		// The next item comes with what the screen shows, exactly as leasedItem reads it.
		expect(result.next!.taskId).not.toBe(secondary.id);
		expect(result.shown).toEqual(await leasedItem(h.db, alice.id, result.next!.taskId));
		const actions = await h.db
			.select({ action: auditEvent.action, objectId: auditEvent.objectId })
			.from(auditEvent)
			.where(eq(auditEvent.actorId, alice.id))
			.orderBy(auditEvent.id);
		expect(actions).toEqual([
			{ action: 'review_task.lease', objectId: String(lease.taskId) },
			{ action: 'dispute.open', objectId: expect.any(String) },
			{ action: 'review.submit', objectId: String(result.review.id) },
			{ action: 'review_task.lease', objectId: String(result.next!.taskId) }
		]);
		// Bob is offered the secondary round before any fresh item.
		expect((await claimNext(h.db, bob.id))!.taskId).toBe(secondary.id);
	});

	it('submit + next refuses a lease that expired and went to someone else, and writes nothing', async () => {
		const t0 = new Date('2030-01-01T10:00:00Z');
		const stale = (await claimNext(h.db, alice.id, t0))!;
		const later = new Date(t0.getTime() + 31 * 60_000);
		await claimNext(h.db, bob.id, later);
		const leasesBefore = await h.db
			.select({ n: count() })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'review_task.lease'));
		const err = await submitAndNext(
			h.db,
			alice.id,
			{ taskId: stale.taskId, key: stale.leaseToken, ...judgement },
			later
		).catch((e) => e);
		expect(err).toBeInstanceOf(DomainError);
		expect(err.code).toBe('not_leased');
		expect((await counts()).reviews).toBe(0);
		const leasesAfter = await h.db
			.select({ n: count() })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'review_task.lease'));
		expect(leasesAfter).toEqual(leasesBefore);
		expect(await h.db.select().from(reviewTask).where(eq(reviewTask.leasedBy, alice.id))).toEqual(
			[]
		);
	});

	it('submit + next refuses a form key already used for another task', async () => {
		const lease = (await claimNext(h.db, alice.id))!;
		const { next } = await submitAndNext(h.db, alice.id, {
			taskId: lease.taskId,
			key: lease.leaseToken,
			...judgement
		});
		const err = await submitAndNext(h.db, alice.id, {
			taskId: next!.taskId,
			key: lease.leaseToken,
			...judgement
		}).catch((e) => e);
		expect(err.code).toBe('conflict');
		expect((await counts()).reviews).toBe(1);
	});

	it('submit + next never offers a reviewer the secondary round of their own item', async () => {
		await h.db.update(qaItem).set({ inSecondarySample: true });
		let lease = await claimNext(h.db, alice.id);
		const rounds: string[] = [];
		while (lease) {
			rounds.push(lease.round);
			const { next } = await submitAndNext(h.db, alice.id, {
				taskId: lease.taskId,
				key: lease.leaseToken,
				...judgement
			});
			lease = next;
		}
		expect(rounds).toEqual(Array(7).fill('primary'));
		expect((await queueSecondaries()).every((t) => t.excludedUserId === alice.id)).toBe(true);
		for (let i = 0; i < 7; i++) expect((await claimNext(h.db, bob.id))!.round).toBe('secondary');
	});

	const queueSecondaries = () =>
		h.db.select().from(reviewTask).where(eq(reviewTask.round, 'secondary'));
});
