import { countUpTo } from '../../../format';
import { count, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditEvent, dataset, qaItem, reviewTask, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, seedUsers } from '../../fixtures/review';
import { DomainError } from '../../errors';
import { setSecondaryShare } from '../verification/settings';
import { claimNext, returnTask } from './queue';
import { amendReview, newFormKey, submitAndNext, submitReview } from './reviews';
import { renewLease, validTimeZone, workdayBounds, workdayCounts } from './workday';

describe('workdayBounds', () => {
	it('starts the day at local midnight and the week on Monday, in the given zone', () => {
		// Wednesday 2030-01-02, 23:30 UTC: already Thursday 00:30 in Berlin (UTC+1).
		const now = new Date('2030-01-02T23:30:00Z');
		expect(workdayBounds(now, 'UTC')).toEqual({
			timeZone: 'UTC',
			dayStart: new Date('2030-01-02T00:00:00Z'),
			weekStart: new Date('2029-12-31T00:00:00Z'),
			dayEnd: new Date('2030-01-03T00:00:00Z'),
			weekEnd: new Date('2030-01-07T00:00:00Z')
		});
		const berlin = workdayBounds(now, 'Europe/Berlin');
		expect(berlin.dayStart).toEqual(new Date('2030-01-02T23:00:00Z'));
		expect(berlin.weekStart).toEqual(new Date('2029-12-30T23:00:00Z'));
		// Sunday evening in New York (UTC-5) is still the week that began on Monday.
		const ny = workdayBounds(new Date('2030-01-07T03:00:00Z'), 'America/New_York');
		expect(ny.dayStart).toEqual(new Date('2030-01-06T05:00:00Z'));
		expect(ny.weekStart).toEqual(new Date('2029-12-31T05:00:00Z'));
	});

	it('finds midnight on the day daylight saving time starts', () => {
		// 2030-03-31: Berlin moves from UTC+1 to UTC+2 at 02:00; midnight was still UTC+1.
		const b = workdayBounds(new Date('2030-03-31T12:00:00Z'), 'Europe/Berlin');
		expect(b.dayStart).toEqual(new Date('2030-03-30T23:00:00Z'));
		// That day has 23 hours: the next one starts at 22:00 UTC.
		expect(b.dayEnd).toEqual(new Date('2030-03-31T22:00:00Z'));
	});

	it('falls back to UTC for a missing or unknown zone name', () => {
		expect(validTimeZone(undefined)).toBe('UTC');
		expect(validTimeZone('Mars/Olympus')).toBe('UTC');
		expect(validTimeZone("'; drop table review; --")).toBe('UTC');
		expect(validTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
	});
});

const judgement = { verdict: 'correct' as const, relevance: 4 };

describeEachDb('review workday counters', (h) => {
	let alice: User;
	let bob: User;
	beforeEach(async () => {
		await seedItems(h.db, 1);
		[alice, bob] = await seedUsers(h.db, 2);
	});
	const utcDay = (now: Date) => workdayBounds(now, 'UTC');

	it("counts the reviewer's own first submissions today and this week, not amendments or others'", async () => {
		const monday = new Date('2030-01-07T09:00:00Z');
		const wednesday = new Date('2030-01-09T09:00:00Z');
		for (const [who, at] of [
			[alice, monday],
			[alice, wednesday],
			[alice, wednesday],
			[bob, wednesday]
		] as const) {
			const lease = await claimNext(h.db, who.id, at);
			const { review } = await submitReview(
				h.db,
				who.id,
				{ ...judgement, taskId: lease!.taskId, key: lease!.leaseToken },
				at
			);
			await amendReview(h.db, who.id, review.id, { ...judgement, key: newFormKey() }, at);
		}
		const later = new Date('2030-01-09T18:00:00Z');
		const counts = await workdayCounts(h.db, alice.id, utcDay(later), later);
		expect(counts).toMatchObject({ today: 2, week: 3 });
		// The next Monday starts a new week.
		const nextWeek = new Date('2030-01-14T08:00:00Z');
		expect(await workdayCounts(h.db, alice.id, utcDay(nextWeek), nextWeek)).toMatchObject({
			today: 0,
			week: 0
		});
	});

	it('counts as left exactly what the reviewer could still be given', async () => {
		const now = new Date('2030-01-07T09:00:00Z');
		const left = async (who: User, at = now) =>
			(await workdayCounts(h.db, who.id, utcDay(at), at)).left;
		expect(await left(alice)).toBe(7);
		// Alice holds one (not counted for anyone), Bob holds one.
		const a = await claimNext(h.db, alice.id, now);
		await claimNext(h.db, bob.id, now);
		expect(await left(alice)).toBe(5);
		// Alice skips hers: not offered to her again, still to Bob.
		await returnTask(h.db, alice.id, { taskId: a!.taskId, token: a!.leaseToken, skip: true });
		expect(await left(alice)).toBe(5);
		expect(await left(bob)).toBe(6);
		// Bob's lease expires: it is back on offer.
		const later = new Date(now.getTime() + 31 * 60_000);
		expect(await left(alice, later)).toBe(6);
		// Claiming takes exactly what the count promised.
		let claimed = 0;
		for (let lease = await claimNext(h.db, alice.id, later); lease; claimed++) {
			await submitReview(
				h.db,
				alice.id,
				{ ...judgement, taskId: lease.taskId, key: lease.leaseToken },
				later
			);
			lease = await claimNext(h.db, alice.id, later);
		}
		expect(claimed).toBe(6);
		expect(await left(alice, later)).toBe(0);
	});

	it('does not count the secondary round of the reviewer’s own items, and counts it for others', async () => {
		const [ds] = await h.db.select().from(dataset);
		await setSecondaryShare(h.db, alice.id, { datasetId: ds.id, share: 1, seed: 'seed' });
		const now = new Date('2030-01-07T09:00:00Z');
		const a = await claimNext(h.db, alice.id, now);
		const { next } = await submitAndNext(
			h.db,
			alice.id,
			{ ...judgement, taskId: a!.taskId, key: a!.leaseToken },
			now
		);
		const counts = await workdayCounts(h.db, alice.id, utcDay(now), now);
		// Seven primaries, one done, one held: five left; the new secondary is not hers.
		expect(counts).toMatchObject({ left: 5, leftSecondary: 0, today: 1 });
		expect(next).not.toBeNull();
		expect(await workdayCounts(h.db, bob.id, utcDay(now), now)).toMatchObject({
			left: 6,
			leftSecondary: 1
		});
	});

	it('counts what is left up to the cap, then says so: the count stops one past it', async () => {
		const now = new Date('2030-01-07T09:00:00Z');
		// Seven waiting first reviews for Bob: exact under a cap of 7, "more than 3" under a cap of 3.
		expect(await workdayCounts(h.db, bob.id, utcDay(now), now, 7)).toMatchObject({
			left: 7,
			leftCap: 7
		});
		const capped = await workdayCounts(h.db, bob.id, utcDay(now), now, 3);
		expect(capped).toMatchObject({ left: 4, leftSecondary: 0, leftCap: 3 });
		expect(countUpTo(capped.left, capped.leftCap)).toBe('more than 3');
		expect(countUpTo(7, 7)).toBe('7');
	});
});

describeEachDb('review lease renewal', (h) => {
	let alice: User;
	let bob: User;
	beforeEach(async () => {
		await seedItems(h.db, 1);
		[alice, bob] = await seedUsers(h.db, 2);
		await h.db.update(dataset).set({ leaseMinutes: 10 });
	});

	it('renews an expired lease nobody took, keeping the token the form submits with', async () => {
		const t0 = new Date('2030-01-07T09:00:00Z');
		const a = await claimNext(h.db, alice.id, t0);
		const t1 = new Date(t0.getTime() + 12 * 60_000);
		const renewed = await renewLease(
			h.db,
			alice.id,
			{ taskId: a!.taskId, token: a!.leaseToken },
			t1
		);
		expect(renewed.leaseExpiresAt).toEqual(new Date(t1.getTime() + 10 * 60_000));
		// Not back on offer: Bob gets another item.
		expect((await claimNext(h.db, bob.id, t1))!.taskId).not.toBe(a!.taskId);
		const saved = await submitReview(
			h.db,
			alice.id,
			{ ...judgement, taskId: a!.taskId, key: a!.leaseToken },
			t1
		);
		expect(saved.review.taskId).toBe(a!.taskId);
		const [audit] = await h.db
			.select({ n: count() })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'review_task.lease'));
		expect(audit.n).toBe(3);
	});

	it('refuses once another reviewer has been given the item, changing nothing', async () => {
		const t0 = new Date('2030-01-07T09:00:00Z');
		const a = await claimNext(h.db, alice.id, t0);
		const t1 = new Date(t0.getTime() + 12 * 60_000);
		// Bob takes the expired lease (it is offered before fresh work).
		const b = await claimNext(h.db, bob.id, t1);
		expect(b!.taskId).toBe(a!.taskId);
		const err = await renewLease(
			h.db,
			alice.id,
			{ taskId: a!.taskId, token: a!.leaseToken },
			t1
		).catch((e) => e);
		expect(err).toBeInstanceOf(DomainError);
		expect((err as DomainError).code).toBe('not_leased');
		const [task] = await h.db.select().from(reviewTask).where(eq(reviewTask.id, a!.taskId));
		expect(task).toMatchObject({ leasedBy: bob.id, leaseToken: b!.leaseToken });
		expect(task.leaseExpiresAt).toEqual(b!.leaseExpiresAt);
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, a!.itemId));
		expect(item).toBeTruthy();
	});
});
