import { createHash } from 'node:crypto';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import {
	dataset,
	passage,
	qaItem,
	qaItemVersion,
	reviewCheck,
	reviewTask,
	taskSkip,
	type Passage,
	type QaItem,
	type QaItemVersion
} from '../../db/schema';
import type { ReviewRound } from '../../../constants';
import { randomId } from '../../ids';
import { recordAudit } from '../audit';
import { claimRefusal } from '../consent';
import { DomainError } from '../../errors';
import { taskAwaitsPassageSql } from './passage';

/**
 * A task leased to one reviewer; `leaseToken` doubles as the submission's idempotency key and
 * `publicId` is the id the reviewer's screen uses (drawn afresh for each lease).
 */
export interface Lease {
	taskId: number;
	itemId: number;
	round: ReviewRound;
	leaseToken: string;
	leasedAt: Date;
	leaseExpiresAt: Date;
	publicId: string;
}

/**
 * What the review screen holds: a live task's lease or a hidden gold check's, told apart only on
 * the server (`taskId` or `checkId`); the screen sees `publicId`, the round and the lease times.
 */
export interface WorkLease {
	taskId: number | null;
	checkId: number | null;
	itemId: number | null;
	round: ReviewRound;
	leaseToken: string;
	leasedAt: Date;
	leaseExpiresAt: Date;
	publicId: string;
}

const leaseColumns = {
	taskId: reviewTask.id,
	itemId: reviewTask.itemId,
	round: reviewTask.round,
	leaseToken: reviewTask.leaseToken,
	leasedAt: reviewTask.leasedAt,
	leaseExpiresAt: reviewTask.leaseExpiresAt,
	publicId: reviewTask.publicId
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
 * (withdrawn items get none), at its queue position, awaiting the item's passage when it has none
 * and the dataset waits for passages. Returns how many tasks it created.
 */
export async function createPrimaryTasks(tx: Tx, importId: number): Promise<number> {
	const result = await tx.execute(sql`
		insert into ${reviewTask} (item_id, round, sort_key, awaits_passage)
		select i.id, 'primary', ${taskSortKeySql}, ${taskAwaitsPassageSql} from ${qaItem} i join ${dataset} d on d.id = i.dataset_id
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

/** The reviewer's unexpired lease of a live task or a hidden gold check, if any. */
export async function currentWork(
	db: Db | Tx,
	userId: string,
	now = new Date()
): Promise<WorkLease | null> {
	const lease = await currentLease(db, userId, now);
	if (lease) return { ...lease, checkId: null };
	const [check] = await db
		.select({
			checkId: reviewCheck.id,
			round: reviewCheck.round,
			leaseToken: reviewCheck.leaseToken,
			leasedAt: reviewCheck.leasedAt,
			leaseExpiresAt: reviewCheck.leaseExpiresAt,
			publicId: reviewCheck.publicId
		})
		.from(reviewCheck)
		.where(
			and(
				eq(reviewCheck.reviewerId, userId),
				eq(reviewCheck.state, 'leased'),
				gt(reviewCheck.leaseExpiresAt, now)
			)
		)
		.limit(1);
	return check ? { ...check, taskId: null, itemId: null } : null;
}

/** A lease row as the review functions return it (snake-case columns). */
export interface LeaseRow {
	task_id: number | null;
	item_id: number | null;
	round: ReviewRound | null;
	lease_token: string | null;
	leased_at: Date | string | null;
	lease_expires_at: Date | string | null;
	public_id: string | null;
	check_id: number | null;
}

/**
 * Whether the reviewers' qualification round is required and the reviewer has not passed it
 * (`review_claim_next` refuses them too; this gives the reason).
 */
export async function mustQualify(db: Db | Tx, userId: string): Promise<boolean> {
	const [row] = rowsOf<{ must: boolean }>(
		await db.execute(sql`select exists (select 1 from reviewer_round where required)
			and not exists (select 1 from review_qualification_attempt
				where reviewer_id = ${userId} and passed) as must`)
	);
	return Boolean(row?.must);
}

/**
 * What keeps a reviewer from new work now, besides consent and the round (`review_claim_next`
 * gives them none then; this gives the reason), in one statement: an exclusion of every study
 * that leaves out what they would submit, and a hold on them in the review queue (placed and
 * lifted by quality/holds.ts).
 */
export async function claimBlock(
	db: Db | Tx,
	userId: string,
	now = new Date()
): Promise<{ excluded: boolean; hold: 'pause' | 'retrain' | null }> {
	const [row] = rowsOf<{ excluded: boolean; hold: 'pause' | 'retrain' | null }>(
		await db.execute(sql`select ${userId} in (select rater_id from exclusion
				where revoked_at is null and study_id is null)
			and not judgement_counts(${userId}, null, ${now.toISOString()}::timestamptz) as excluded,
			(select kind::text from rater_hold where rater_id = ${userId} and study_id is null
				and lifted_at is null) as hold`)
	);
	return { excluded: Boolean(row?.excluded), hold: row?.hold ?? null };
}

/** The live task's lease of a function's row, or null when the row holds none. */
export function leaseOf(row: LeaseRow | undefined): Lease | null {
	if (!row || row.task_id === null) return null;
	return {
		taskId: row.task_id,
		itemId: row.item_id!,
		round: row.round!,
		leaseToken: row.lease_token!,
		leasedAt: new Date(row.leased_at!),
		leaseExpiresAt: new Date(row.lease_expires_at!),
		publicId: row.public_id!
	};
}

/** The lease (live task or hidden gold check) of a function's row, or null when it holds none. */
export function workOf(row: LeaseRow | undefined): WorkLease | null {
	if (!row || (row.task_id === null && row.check_id === null)) return null;
	return {
		taskId: row.task_id,
		checkId: row.check_id,
		itemId: row.item_id,
		round: row.round!,
		leaseToken: row.lease_token!,
		leasedAt: new Date(row.leased_at!),
		leaseExpiresAt: new Date(row.lease_expires_at!),
		publicId: row.public_id!
	};
}

/**
 * Leases the next item to a reviewer in one statement (`review_claim_next`, `FOR UPDATE SKIP
 * LOCKED`): two reviewers never hold the same task.
 * Returns the reviewer's current lease if they hold one, an expired lease of someone else before
 * fresh work, secondary work before primary, fresh work in queue order, or null when nothing is
 * left. Fresh primary work comes from inside or outside the secondary sample so that the
 * reviewer's checked share stays at the dataset's share (read from their `reviewer_tally` row),
 * falling back to whatever is left. A
 * reviewer's own skips and the secondary round of items they reviewed themselves are never
 * offered to them. The lease is audited (`review_task.lease`). Refused while the reviewer has not
 * accepted the portal's newest consent text, not passed the reviewers' qualification round
 * when it is required, or while an exclusion of every study leaves their reviews out.
 */
export async function claimNext(
	db: Db | Tx,
	userId: string,
	now = new Date()
): Promise<Lease | null> {
	return leaseOf(await claimRow(db, userId, now, false));
}

/**
 * The review screen's claim: as claimNext, but one claim in every `check_every` of the reviewer's
 * claims may be a hidden gold check (`review_check`) while the round has checks on.
 */
export async function claimWork(
	db: Db | Tx,
	userId: string,
	now = new Date()
): Promise<WorkLease | null> {
	return workOf(await claimRow(db, userId, now, true));
}

async function claimRow(db: Db | Tx, userId: string, now: Date, checks: boolean) {
	if (await claimRefusal(db, userId))
		throw new DomainError(
			'forbidden',
			'Read and accept the portal’s information and consent text before you review.'
		);
	if (await mustQualify(db, userId))
		throw new DomainError(
			'forbidden',
			'Pass the reviewers’ qualification round before you review live QA pairs.'
		);
	const { excluded, hold } = await claimBlock(db, userId, now);
	if (excluded)
		throw new DomainError(
			'forbidden',
			'The organisers have set your reviews aside for now, so no new QA pairs are given to you. Ask them why.'
		);
	if (hold)
		throw new DomainError(
			'forbidden',
			hold === 'pause'
				? 'The organisers have paused your review work; no new QA pairs are given to you until they lift the pause.'
				: 'The organisers ask you to go through the checks you missed first (Retraining, on your review page).'
		);
	const rows = rowsOf<LeaseRow>(
		// review_claim_next: src/lib/server/db/functions/review.sql
		await db.execute(
			sql`select * from review_claim_next(${userId}, ${now.toISOString()}::timestamptz,
				${randomId()}, ${randomId()}, ${checks})`
		)
	);
	return rows[0];
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

/** What a task returned to the queue looks like: waiting, with no lease left on it. */
const RETURNED_TO_QUEUE = {
	state: 'pending',
	leasedBy: null,
	leaseToken: null,
	leasedAt: null,
	leaseExpiresAt: null
} as const satisfies Partial<typeof reviewTask.$inferInsert>;

/**
 * Gives every task an account holds back to the queue as pending work (its deactivation, or a
 * hold, in the caller's transaction), so another reviewer can take it at once, and closes a hidden
 * check it holds. Returns the tasks' ids.
 */
export async function returnLeasedTasks(tx: Tx, userId: string): Promise<number[]> {
	const tasks = await tx
		.update(reviewTask)
		.set(RETURNED_TO_QUEUE)
		.where(and(eq(reviewTask.leasedBy, userId), eq(reviewTask.state, 'leased')))
		.returning({ id: reviewTask.id });
	await tx
		.update(reviewCheck)
		.set({ state: 'released' })
		.where(and(eq(reviewCheck.reviewerId, userId), eq(reviewCheck.state, 'leased')));
	return tasks.map((t) => t.id);
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
		await tx.update(reviewTask).set(RETURNED_TO_QUEUE).where(eq(reviewTask.id, task.id));
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

/** The display columns of a leased item: its current version and source passage. */
export const shownColumns = {
	item: { id: qaItem.id, type: qaItem.type, paragraphId: qaItem.paragraphId },
	version: qaItemVersion,
	passage
};

/** What the review screen shows for a lease. */
export interface ShownItem {
	lease: Lease;
	item: { id: number; type: QaItem['type']; paragraphId: string | null };
	version: QaItemVersion;
	passage: Passage | null;
}

/** What the review screen shows for a lease the user holds: the item version and its passage. */
export async function leasedItem(
	db: Db | Tx,
	userId: string,
	taskId: number
): Promise<ShownItem | null> {
	const [row] = await db
		.select({
			task: leaseColumns,
			leasedBy: reviewTask.leasedBy,
			state: reviewTask.state,
			...shownColumns
		})
		.from(reviewTask)
		.innerJoin(qaItem, eq(qaItem.id, reviewTask.itemId))
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, qaItem.currentVersionId))
		.leftJoin(passage, eq(passage.paragraphId, qaItem.paragraphId))
		.where(eq(reviewTask.id, taskId));
	if (!row || row.state !== 'leased' || row.leasedBy !== userId) return null;
	return {
		lease: row.task as Lease,
		item: row.item,
		version: row.version,
		passage: row.passage ?? null
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
