import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { session, user } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';

/**
 * Locks the active organiser accounts (in id order, so two organisers changing each other at once
 * queue up instead of both passing the check) and refuses when `userId` is the only one left.
 */
export async function guardLastOrganiser(tx: Tx, userId: string, what: string): Promise<void> {
	const organisers = await tx
		.select({ id: user.id })
		.from(user)
		.where(and(isNull(user.disabledAt), sql`'organiser' = any(${user.roles})`))
		.orderBy(user.id)
		.for('update');
	if (organisers.length === 1 && organisers[0].id === userId)
		throw new DomainError(
			'forbidden',
			`This is the last active organiser account, so it cannot ${what}. Give another account the organiser role first.`
		);
}

/** What a deactivation undid, for the organiser's confirmation and the audit event. */
export interface Deactivation {
	sessionsEnded: number;
	reviewTasksReturned: number[];
	assignmentsReleased: number[];
}

/**
 * How the work an account holds goes back to its queues, each step inside the deactivation's
 * transaction and returning the ids it gave back. The features that lease work own these steps
 * (review's `returnLeasedTasks`, ranking's `releasePhysicianLeases`); people sits below both and
 * imports neither, so the caller of `deactivateUser` hands them in.
 */
export interface LeasedWork {
	reviewTasks: (tx: Tx, userId: string) => Promise<number[]>;
	rankingLeases: (tx: Tx, userId: string, now: Date) => Promise<number[]>;
}

/**
 * Deactivates an account in one transaction: it can no longer sign in, its sessions are deleted
 * (signed out at its next request), the review tasks it holds go back to the queue as pending
 * work and its ranking leases are released (the question's slot reopens), so another reviewer or
 * physician can take that very work at once. The last active organiser cannot be deactivated.
 */
export async function deactivateUser(
	db: Db,
	userId: string,
	actorId: string,
	work: LeasedWork,
	now = new Date()
): Promise<Deactivation> {
	return db.transaction(async (tx) => {
		await guardLastOrganiser(tx, userId, 'be deactivated');
		const [target] = await tx
			.select({ id: user.id, disabledAt: user.disabledAt })
			.from(user)
			.where(eq(user.id, userId))
			.for('update');
		if (!target) throw new DomainError('not_found', 'No such account.');
		if (target.disabledAt)
			throw new DomainError('conflict', 'This account is already deactivated.');
		await tx.update(user).set({ disabledAt: now }).where(eq(user.id, userId));
		const sessions = await tx
			.delete(session)
			.where(eq(session.userId, userId))
			.returning({ id: session.id });
		const tasks = await work.reviewTasks(tx, userId);
		const released = await work.rankingLeases(tx, userId, now);
		const result: Deactivation = {
			sessionsEnded: sessions.length,
			reviewTasksReturned: tasks.sort((a, b) => a - b),
			assignmentsReleased: released.sort((a, b) => a - b)
		};
		await recordAudit(tx, {
			actorId,
			action: 'user.deactivate',
			objectType: 'user',
			objectId: userId,
			before: { active: true },
			after: { active: false, ...result }
		});
		return result;
	});
}

/** Lets a deactivated account sign in again (its returned work stays with whoever took it). */
export async function reactivateUser(db: Db, userId: string, actorId: string): Promise<void> {
	await db.transaction(async (tx) => {
		const [target] = await tx
			.update(user)
			.set({ disabledAt: null })
			.where(and(eq(user.id, userId), sql`${user.disabledAt} is not null`))
			.returning({ id: user.id });
		if (!target) {
			const [exists] = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId));
			throw exists
				? new DomainError('conflict', 'This account is already active.')
				: new DomainError('not_found', 'No such account.');
		}
		await recordAudit(tx, {
			actorId,
			action: 'user.reactivate',
			objectType: 'user',
			objectId: userId,
			before: { active: false },
			after: { active: true }
		});
	});
}

/** Ends every session of an account except, optionally, one (used by a password change). */
export async function endSessions(tx: Db | Tx, userId: string, keep?: string): Promise<number> {
	const ended = await tx
		.delete(session)
		.where(and(eq(session.userId, userId), keep ? ne(session.id, keep) : undefined))
		.returning({ id: session.id });
	return ended.length;
}
