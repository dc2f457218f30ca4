import { createHash } from 'node:crypto';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import {
	dataset,
	passage,
	qaItem,
	qaItemVersion,
	review,
	reviewTask,
	taskSkip
} from '../../db/schema';
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
 * A task's queue position as SQL over an item alias `i` joined to its dataset `d`: in import order
 * the item id, in seeded order the first 32 bits of md5('<dataset seed>:<item id>') as a signed
 * integer, so an analysis can rebuild the order reviewers were offered from the seed alone.
 */
export const taskSortKeySql = sql`(case when d.queue_order = 'import' then i.id
	else ('x' || substr(md5(coalesce(d.sample_seed, '') || ':' || i.id::text), 1, 8))::bit(32)::int end)`;

/** The seeded queue position of an item, as `taskSortKeySql` computes it. */
export function seededSortKey(seed: string, itemId: number): number {
	return parseInt(createHash('md5').update(`${seed}:${itemId}`).digest('hex').slice(0, 8), 16) | 0;
}

/**
 * Creates the primary review task of every item an import created or updated that has none yet
 * (withdrawn items get none), at its queue position. Returns how many tasks it created.
 */
export async function createPrimaryTasks(tx: Tx, importId: number): Promise<number> {
	const result = await tx.execute(sql`
		insert into ${reviewTask} (item_id, round, sort_key)
		select i.id, 'primary', ${taskSortKeySql} from ${qaItem} i join ${dataset} d on d.id = i.dataset_id
		where i.last_import_id = ${importId} and i.status <> 'withdrawn'
		on conflict do nothing
		returning id`);
	return rowsOf(result).length;
}

/** Recomputes the queue position of every task of a dataset (after its seed or order changed). */
export async function refreshSortKeys(tx: Tx, datasetId: number): Promise<void> {
	await tx.execute(sql`
		update ${reviewTask} t set sort_key = ${taskSortKeySql}
		from ${qaItem} i join ${dataset} d on d.id = i.dataset_id
		where i.id = t.item_id and i.dataset_id = ${datasetId}`);
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
// secondary round of items they reviewed themselves are never offered to them. Fresh work goes
// in queue order (sort key, then id: the claimable index). `sampledIn` narrows the choice to items
// in the secondary sample of the datasets listed and outside it in the other datasets.
function candidate(
	tx: Tx,
	userId: string,
	round: ReviewRound,
	expired: boolean,
	now: Date,
	sampledIn?: number[]
) {
	const state = expired
		? sql`t.state = 'leased' and t.lease_expires_at <= ${now.toISOString()}::timestamptz`
		: sql`t.state = 'pending'`;
	const order = expired ? sql`t.lease_expires_at` : sql`t.sort_key, t.id`;
	const stratum = sampledIn
		? sql`and exists (select 1 from ${qaItem} i where i.id = t.item_id
				and i.in_secondary_sample = (i.dataset_id = any(${`{${sampledIn.join(',')}}`}::int[])))`
		: sql``;
	return tx.execute(sql`
		select t.id from ${reviewTask} t
		where ${state} and t.round = ${round} ${stratum}
			and (t.excluded_user_id is null or t.excluded_user_id <> ${userId})
			and not exists (select 1 from ${taskSkip} s where s.task_id = t.id and s.user_id = ${userId})
		order by ${order}
		limit 1
		for update of t skip locked`);
}

/**
 * The datasets in which the reviewer's next primary item should come from the secondary sample:
 * those where a sampled item brings the checked share of their primary reviews closer to the
 * dataset's share (sampled + ½ < share × (reviewed + 1)), so every reviewer is checked alike.
 */
async function datasetsPreferringSampled(tx: Tx, userId: string): Promise<number[]> {
	const rows = rowsOf<{ id: number }>(
		await tx.execute(sql`
			select d.id from ${dataset} d
			left join (
				select i.dataset_id, count(*)::int as n,
					count(*) filter (where i.in_secondary_sample)::int as s
				from ${review} r join ${qaItem} i on i.id = r.item_id
				where r.reviewer_id = ${userId} and r.round = 'primary' and r.revision = 1
				group by i.dataset_id
			) mine on mine.dataset_id = d.id
			where coalesce(mine.s, 0) + 0.5 < d.secondary_share * (coalesce(mine.n, 0) + 1)`)
	);
	return rows.map((r) => r.id);
}

/**
 * Leases the next item to a reviewer inside one transaction (`FOR UPDATE SKIP LOCKED`): two
 * reviewers never hold the same task. Returns the reviewer's current lease if they hold one,
 * an expired lease of someone else before fresh work, or null when nothing is left. Fresh
 * primary work comes from inside or outside the secondary sample so that the reviewer's checked
 * share stays at the dataset's share, falling back to whatever is left.
 */
export async function claimNext(
	db: Db | Tx,
	userId: string,
	now = new Date()
): Promise<Lease | null> {
	return db.transaction(async (tx) => {
		const held = await currentLease(tx, userId, now);
		if (held) return held;
		const first = async (round: ReviewRound, expired: boolean, sampledIn?: number[]) => {
			const [row] = rowsOf<{ id: number }>(
				await candidate(tx, userId, round, expired, now, sampledIn)
			);
			return row?.id;
		};
		let taskId: number | undefined;
		for (const [round, expired] of [
			['secondary', true],
			['primary', true],
			['secondary', false]
		] as const) {
			taskId ??= await first(round, expired);
		}
		taskId ??= await first('primary', false, await datasetsPreferringSampled(tx, userId));
		taskId ??= await first('primary', false);
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
