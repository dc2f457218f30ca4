import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { passage, qaItem, qaItemVersion, reviewTask, taskSkip } from '../../db/schema';
import type { ReviewRound } from '../../../constants';
import { randomId } from '../../ids';
import { recordAudit } from '../audit/audit';
import { DomainError } from '../../errors';

/** A task leased to one reviewer; `leaseToken` doubles as the submission's idempotency key. */
export interface Lease {
	taskId: number;
	itemId: number;
	round: ReviewRound;
	leaseToken: string;
	leasedAt: Date;
	leaseExpiresAt: Date;
}

const leaseColumns = {
	taskId: reviewTask.id,
	itemId: reviewTask.itemId,
	round: reviewTask.round,
	leaseToken: reviewTask.leaseToken,
	leasedAt: reviewTask.leasedAt,
	leaseExpiresAt: reviewTask.leaseExpiresAt
};

/**
 * Creates the primary review task of every item (of one dataset, or all) that has none yet.
 * One statement, safe to run concurrently; returns how many tasks it created.
 */
export async function ensureReviewTasks(db: Db | Tx, datasetId?: number): Promise<number> {
	const result = await db.execute(sql`
		insert into ${reviewTask} (item_id, round)
		select i.id, 'primary' from ${qaItem} i
		where i.status <> 'withdrawn' ${datasetId === undefined ? sql`` : sql`and i.dataset_id = ${datasetId}`}
			and not exists (select 1 from ${reviewTask} t where t.item_id = i.id and t.round = 'primary')
		on conflict do nothing
		returning id`);
	return rowsOf(result).length;
}

/** The reviewer's unexpired lease, if any (a reload shows the same item). */
export async function currentLease(db: Db | Tx, userId: string, now = new Date()) {
	const [lease] = await db
		.select(leaseColumns)
		.from(reviewTask)
		.where(
			and(
				eq(reviewTask.state, 'leased'),
				eq(reviewTask.leasedBy, userId),
				gt(reviewTask.leaseExpiresAt, now)
			)
		)
		.limit(1);
	return (lease as Lease | undefined) ?? null;
}

// The next claimable task id of one kind, locked; SKIP LOCKED lets concurrent claimers pass by.
// Secondary tasks come first so items started are finished; a reviewer's own skips and the
// secondary round of items they reviewed themselves are never offered to them.
function candidate(tx: Tx, userId: string, round: ReviewRound, expired: boolean, now: Date) {
	const state = expired
		? sql`t.state = 'leased' and t.lease_expires_at <= ${now.toISOString()}::timestamptz`
		: sql`t.state = 'pending'`;
	const order = expired ? sql`t.lease_expires_at` : sql`t.id`;
	return tx.execute(sql`
		select t.id from ${reviewTask} t
		where ${state} and t.round = ${round}
			and (t.excluded_user_id is null or t.excluded_user_id <> ${userId})
			and not exists (select 1 from ${taskSkip} s where s.task_id = t.id and s.user_id = ${userId})
		order by ${order}
		limit 1
		for update of t skip locked`);
}

/**
 * Leases the next item to a reviewer inside one transaction (`FOR UPDATE SKIP LOCKED`): two
 * reviewers never hold the same task. Returns the reviewer's current lease if they hold one,
 * an expired lease of someone else before fresh work, or null when nothing is left.
 */
export async function claimNext(
	db: Db | Tx,
	userId: string,
	now = new Date()
): Promise<Lease | null> {
	return db.transaction(async (tx) => {
		const held = await currentLease(tx, userId, now);
		if (held) return held;
		let taskId: number | undefined;
		for (const [round, expired] of [
			['secondary', true],
			['primary', true],
			['secondary', false],
			['primary', false]
		] as const) {
			const [row] = rowsOf<{ id: number }>(await candidate(tx, userId, round, expired, now));
			if (row) {
				taskId = row.id;
				break;
			}
		}
		if (taskId === undefined) return null;
		const [lease] = await tx
			.update(reviewTask)
			.set({
				state: 'leased',
				leasedBy: userId,
				leaseToken: randomId(),
				leasedAt: now,
				leaseExpiresAt: sql`${now.toISOString()}::timestamptz + make_interval(mins => (
					select d.lease_minutes from ${qaItem} i join dataset d on d.id = i.dataset_id
					where i.id = ${reviewTask.itemId}))`
			})
			.where(eq(reviewTask.id, taskId))
			.returning(leaseColumns);
		await recordAudit(tx, {
			actorId: userId,
			action: 'review_task.lease',
			objectType: 'review_task',
			objectId: taskId,
			after: { round: lease.round, itemId: lease.itemId, expiresAt: lease.leaseExpiresAt }
		});
		return lease as Lease;
	});
}

/** Locks a task and checks that `userId` holds its lease with this token. */
export async function lockLeasedTask(tx: Tx, userId: string, taskId: number, token: string) {
	const [task] = await tx.select().from(reviewTask).where(eq(reviewTask.id, taskId)).for('update');
	if (!task) throw new DomainError('not_found', `There is no review task ${taskId}.`);
	if (task.state === 'done' && task.doneBy === userId)
		throw new DomainError(
			'already_submitted',
			'You have already submitted this review; nothing was changed. Amend it from your history.'
		);
	if (task.state !== 'leased' || task.leasedBy !== userId || task.leaseToken !== token)
		throw new DomainError(
			'not_leased',
			'This item is no longer leased to you (the lease expired and the item went back to the queue, or this page is out of date). Nothing was saved.'
		);
	return task;
}

/**
 * Gives a leased task back to the queue. With `skip`, the reviewer will not be offered it again
 * and the skip (with its optional reason) is kept; a plain release lets anyone take it.
 */
export async function returnTask(
	db: Db,
	userId: string,
	input: { taskId: number; token: string; skip: boolean; reason?: string | null }
): Promise<void> {
	await db.transaction(async (tx) => {
		const task = await lockLeasedTask(tx, userId, input.taskId, input.token);
		await tx
			.update(reviewTask)
			.set({
				state: 'pending',
				leasedBy: null,
				leaseToken: null,
				leasedAt: null,
				leaseExpiresAt: null
			})
			.where(eq(reviewTask.id, task.id));
		const reason = input.reason?.trim() || null;
		if (input.skip) await tx.insert(taskSkip).values({ taskId: task.id, userId, reason });
		await recordAudit(tx, {
			actorId: userId,
			action: input.skip ? 'review_task.skip' : 'review_task.release',
			objectType: 'review_task',
			objectId: task.id,
			after: { reason }
		});
	});
}

/** What the review screen shows for a lease the user holds: the item version and its passage. */
export async function leasedItem(db: Db, userId: string, taskId: number) {
	const [row] = await db
		.select({
			task: leaseColumns,
			leasedBy: reviewTask.leasedBy,
			state: reviewTask.state,
			item: { id: qaItem.id, type: qaItem.type, paragraphId: qaItem.paragraphId },
			version: qaItemVersion
		})
		.from(reviewTask)
		.innerJoin(qaItem, eq(qaItem.id, reviewTask.itemId))
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, qaItem.currentVersionId))
		.where(eq(reviewTask.id, taskId));
	if (!row || row.state !== 'leased' || row.leasedBy !== userId) return null;
	const [source] = row.item.paragraphId
		? await db.select().from(passage).where(eq(passage.paragraphId, row.item.paragraphId))
		: [];
	return {
		lease: row.task as Lease,
		item: row.item,
		version: row.version,
		passage: source ?? null
	};
}

/** Queue depth as one reviewer sees it: tasks they could claim now, per round. */
export async function queueStats(db: Db, userId: string) {
	const rows = await db
		.select({ round: reviewTask.round, n: count() })
		.from(reviewTask)
		.where(
			and(
				eq(reviewTask.state, 'pending'),
				sql`(${reviewTask.excludedUserId} is null or ${reviewTask.excludedUserId} <> ${userId})`,
				sql`not exists (select 1 from ${taskSkip} s where s.task_id = ${reviewTask.id} and s.user_id = ${userId})`
			)
		)
		.groupBy(reviewTask.round);
	const of = (round: ReviewRound) => rows.find((r) => r.round === round)?.n ?? 0;
	return { primary: of('primary'), secondary: of('secondary') };
}
