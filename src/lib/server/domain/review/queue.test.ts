import { count, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, dataset, reviewTask, taskSkip, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, seedUsers } from '../../fixtures/review';
import { DomainError } from '../../errors';
import { claimNext, currentLease, leasedItem, queueStats, returnTask } from './queue';

describeEachDb('review queue', (h) => {
	let alice: User;
	let bob: User;
	beforeEach(async () => {
		await seedItems(h.db, 1);
		[alice, bob] = await seedUsers(h.db, 2);
	});

	it('gets one primary task per item from the import itself, and none more on a re-import', async () => {
		const tasks = () => h.db.select().from(reviewTask);
		expect(await tasks()).toHaveLength(7);
		expect((await tasks()).every((t) => t.round === 'primary' && t.state === 'pending')).toBe(true);
		await seedItems(h.db, 1);
		expect(await tasks()).toHaveLength(7);
		expect(await queueStats(h.db, alice.id)).toEqual({ primary: 7, secondary: 0 });
	});

	it('leases different items to different reviewers and keeps the lease on reload', async () => {
		const a = await claimNext(h.db, alice.id);
		const b = await claimNext(h.db, bob.id);
		expect(a && b).toBeTruthy();
		expect(a!.taskId).not.toBe(b!.taskId);
		const again = await claimNext(h.db, alice.id);
		expect(again).toEqual(a);
		expect((await currentLease(h.db, alice.id))?.taskId).toBe(a!.taskId);
		const shown = await leasedItem(h.db, alice.id, a!.taskId);
		expect(shown?.version.question).toBeTruthy();
		expect(await leasedItem(h.db, bob.id, a!.taskId)).toBeNull();
		const [audit] = await h.db
			.select({ n: count() })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'review_task.lease'));
		expect(audit.n).toBe(2);
	});

	it('lets an expired lease go back to the queue, using the dataset lease length', async () => {
		await h.db.update(dataset).set({ leaseMinutes: 10 });
		const t0 = new Date('2030-01-01T10:00:00Z');
		const a = await claimNext(h.db, alice.id, t0);
		expect(a!.leaseExpiresAt.getTime() - t0.getTime()).toBe(10 * 60_000);
		const nine = new Date(t0.getTime() + 9 * 60_000);
		expect(await currentLease(h.db, alice.id, nine)).not.toBeNull();
		const later = new Date(t0.getTime() + 11 * 60_000);
		expect(await currentLease(h.db, alice.id, later)).toBeNull();
		const b = await claimNext(h.db, bob.id, later);
		expect(b!.taskId).toBe(a!.taskId);
		expect(b!.leaseToken).not.toBe(a!.leaseToken);
	});

	it('skips with a reason (never offered again to that reviewer) and releases', async () => {
		const a = await claimNext(h.db, alice.id);
		await returnTask(h.db, alice.id, {
			taskId: a!.taskId,
			token: a!.leaseToken,
			skip: true,
			reason: 'outside my training'
		});
		const [skip] = await h.db.select().from(taskSkip);
		expect(skip).toMatchObject({
			taskId: a!.taskId,
			userId: alice.id,
			reason: 'outside my training'
		});
		const next = await claimNext(h.db, alice.id);
		expect(next!.taskId).not.toBe(a!.taskId);
		await returnTask(h.db, alice.id, {
			taskId: next!.taskId,
			token: next!.leaseToken,
			skip: false
		});
		expect((await claimNext(h.db, alice.id))!.taskId).toBe(next!.taskId);
		// Bob still gets the item Alice skipped.
		expect((await claimNext(h.db, bob.id))!.taskId).toBe(a!.taskId);
	});

	it('refuses to skip a task the user does not lease', async () => {
		const a = await claimNext(h.db, alice.id);
		const err = await returnTask(h.db, bob.id, {
			taskId: a!.taskId,
			token: a!.leaseToken,
			skip: true
		}).catch((e) => e);
		expect(err).toBeInstanceOf(DomainError);
		expect((err as DomainError).code).toBe('not_leased');
		const [task] = await h.db.select().from(reviewTask).where(eq(reviewTask.id, a!.taskId));
		expect(task.leasedBy).toBe(alice.id);
	});

	it('returns null when the queue is empty', async () => {
		const seen = new Set<number>();
		for (let i = 0; i < 7; i++) {
			const lease = await claimNext(h.db, alice.id);
			seen.add(lease!.taskId);
			await returnTask(h.db, alice.id, {
				taskId: lease!.taskId,
				token: lease!.leaseToken,
				skip: true
			});
		}
		expect(seen.size).toBe(7);
		expect(await claimNext(h.db, alice.id)).toBeNull();
	});
});
