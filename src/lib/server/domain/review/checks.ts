// The review screen's work: a live task or a hidden gold check, one shape for both. A check is a
// gold pair of the reviewers' round served in place of a live claim (`review_claim_next`, at the
// round's `check_every`); the screen gets the same fields, the same kind of id (`publicId`, drawn
// afresh for each lease), the round and lease length of the live task it stood in for, and the
// same answers to a submission, renewal, skip or release. Only the server tells them apart.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import type { ShownVersion } from '../../../review/shown-version';
import { DomainError } from '../../errors';
import { randomId } from '../../ids';
import { recordAudit } from '../audit';
import { claimWork, leasedItem, returnTask, workOf, type LeaseRow, type WorkLease } from './queue';
import { submitAndNextWork, timeOnTask, type JudgementInput } from './reviews';
import type { ShownItem } from './queue';
import { renewLease } from './workday';

export type { ShownVersion };

/** What the review screen shows of its work, whichever kind it is. */
export interface ShownWork {
	lease: WorkLease;
	item: { paragraphId: string | null };
	version: ShownVersion;
	passage: { paragraphId: string; isbn: string | null; page: number | null; text: string } | null;
}

function versionOf(v: ShownVersion): ShownVersion {
	return {
		type: v.type,
		question: v.question,
		answer: v.answer ?? null,
		answerList: v.answerList ?? null,
		options: v.options ?? null,
		correctAnswer: v.correctAnswer ?? null,
		reasoning: v.reasoning ?? null,
		falseAnswer: v.falseAnswer ?? null,
		incorrectExplanation: v.incorrectExplanation ?? null,
		incorrectStep: v.incorrectStep ?? null,
		incorrectStepExplanation: v.incorrectStepExplanation ?? null
	};
}

/** A live task's display as ShownWork. */
export function workFromItem(shown: ShownItem): ShownWork {
	return { lease: { ...shown.lease, checkId: null }, ...itemDisplay(shown) };
}

/**
 * A check's display: the gold pair's fields, and its source passage as a live item's — the
 * imported passage of its paragraph when there is one (the gold file's own passage text first
 * when it gave one), with the ISBN and page of the passage or else of the record's source.
 */
async function checkOnScreen(db: Db | Tx, lease: WorkLease): Promise<ShownWork | null> {
	const shown = await checkDisplay(db, lease.checkId!);
	return shown && { lease, ...shown };
}

/** A live item's display in the fields the review screen shows (ShownWork without the lease). */
export function itemDisplay(shown: {
	item: { paragraphId: string | null };
	version: unknown;
	passage: { paragraphId: string; isbn: string | null; page: number | null; text: string } | null;
}): Omit<ShownWork, 'lease'> {
	const p = shown.passage;
	return {
		item: { paragraphId: shown.item.paragraphId },
		version: versionOf(shown.version as ShownVersion),
		passage: p && { paragraphId: p.paragraphId, isbn: p.isbn, page: p.page, text: p.text }
	};
}

/** A check's display without its lease (see checkOnScreen); also for the reviewer's history. */
export async function checkDisplay(
	db: Db | Tx,
	checkId: number
): Promise<Omit<ShownWork, 'lease'> | null> {
	const [row] = rowsOf<{
		shown: ShownVersion;
		source: { paragraph_id?: string; isbn?: string; page?: number } | null;
		gold_passage: string | null;
		isbn: string | null;
		page: number | null;
		text: string | null;
	}>(
		await db.execute(sql`select g.shown, g.record -> 'source' as source, g.passage as gold_passage,
				p.isbn, p.page, p.text
			from review_check c join review_gold g on g.id = c.gold_id
			left join passage p on p.paragraph_id = g.record -> 'source' ->> 'paragraph_id'
			where c.id = ${checkId}`)
	);
	if (!row) return null;
	const paragraphId = row.source?.paragraph_id ?? null;
	const text = row.gold_passage ?? row.text;
	return {
		item: { paragraphId },
		version: versionOf(row.shown),
		passage:
			text && paragraphId
				? {
						paragraphId,
						isbn: row.text !== null ? row.isbn : (row.source?.isbn ?? null),
						page:
							row.text !== null
								? row.page
								: typeof row.source?.page === 'number'
									? row.source.page
									: null,
						text
					}
				: null
	};
}

/** The display of a lease the reviewer holds (either kind), or null. */
async function shownOf(db: Db | Tx, userId: string, lease: WorkLease | null) {
	if (!lease) return null;
	if (lease.checkId !== null) return checkOnScreen(db, lease);
	const shown = await leasedItem(db, userId, lease.taskId!);
	return shown && workFromItem(shown);
}

type Found = { taskId: number; checkId: null } | { taskId: null; checkId: number };

/** The task or check behind a public id, if it is (or was) this reviewer's. */
async function findWork(db: Db | Tx, userId: string, publicId: string): Promise<Found | null> {
	const [row] = rowsOf<{ task_id: number | null; check_id: number | null }>(
		await db.execute(sql`
			(select id as task_id, null::integer as check_id from review_task
				where public_id = ${publicId} and leased_by = ${userId})
			union all
			(select null::integer, id from review_check
				where public_id = ${publicId} and reviewer_id = ${userId})
			limit 1`)
	);
	if (!row) return null;
	return row.check_id !== null
		? { taskId: null, checkId: Number(row.check_id) }
		: { taskId: Number(row.task_id), checkId: null };
}

const NOT_LEASED =
	'This item is no longer leased to you (the lease expired and the item went back to the queue, or this page is out of date). Nothing was saved.';

/** What the review screen shows for the work behind a public id the reviewer holds, or null. */
export async function leasedWork(
	db: Db | Tx,
	userId: string,
	publicId: string
): Promise<ShownWork | null> {
	const found = await findWork(db, userId, publicId);
	if (!found) return null;
	if (found.taskId !== null) {
		const shown = await leasedItem(db, userId, found.taskId);
		return shown && workFromItem(shown);
	}
	const [row] = rowsOf<LeaseRow>(
		await db.execute(sql`select null::integer as task_id, null::integer as item_id, round,
				lease_token, leased_at, lease_expires_at, public_id, id as check_id
			from review_check where id = ${found.checkId} and state = 'leased'`)
	);
	return shownOf(db, userId, workOf(row));
}

/** The review screen's first claim (see claimWork), with its display. */
export async function startWork(db: Db | Tx, userId: string, now = new Date()) {
	const lease = await claimWork(db, userId, now);
	return { lease, shown: await shownOf(db, userId, lease) };
}

/**
 * Submits the screen's judgement of the work behind `publicId` and leases the next work, in one
 * transaction's worth of database calls: a live task through `review_submit_and_next`, a check
 * through `review_check_submit_and_next`. Refusals are the same for both.
 */
export async function submitWork(
	db: Db | Tx,
	userId: string,
	input: JudgementInput & { publicId: string },
	now = new Date()
): Promise<{ duplicate: boolean; next: WorkLease | null; shown: ShownWork | null }> {
	const found = await findWork(db, userId, input.publicId);
	if (!found) throw new DomainError('not_leased', NOT_LEASED);
	if (found.taskId !== null) {
		const result = await submitAndNextWork(db, userId, { ...input, taskId: found.taskId }, now);
		const shown = result.shown
			? workFromItem(result.shown)
			: await shownOf(db, userId, result.next);
		return { duplicate: result.duplicate, next: result.next, shown };
	}
	const [row] = rowsOf<LeaseRow & { outcome: string }>(
		// review_check_submit_and_next: src/lib/server/db/functions/review.sql
		await db.execute(sql`select * from review_check_submit_and_next(${userId}, ${found.checkId},
			${input.key}, ${input.verdict}::verdict, ${input.relevance}::int,
			${input.feedbackCategory ?? null}::feedback_category, ${input.feedback ?? null},
			${input.disputeCategory ?? null}::dispute_category, ${input.disputeReason ?? null},
			${timeOnTask(input.startedAt, now)}::int, ${now.toISOString()}::timestamptz,
			${randomId()}, ${randomId()})`)
	);
	if (row.outcome === 'not_leased') throw new DomainError('not_leased', NOT_LEASED);
	const next = workOf(row);
	return { duplicate: row.outcome === 'duplicate', next, shown: await shownOf(db, userId, next) };
}

/** Renews the lease of the work behind `publicId` (see renewLease), either kind. */
export async function renewWork(
	db: Db | Tx,
	userId: string,
	input: { publicId: string; token: string },
	now = new Date()
): Promise<{ leaseExpiresAt: Date }> {
	const found = await findWork(db, userId, input.publicId);
	if (found?.taskId != null)
		return renewLease(db, userId, { taskId: found.taskId, token: input.token }, now);
	const rows = found
		? rowsOf<{ lease_expires_at: Date | string }>(
				await db.execute(sql`update review_check set leased_at = ${now.toISOString()}::timestamptz,
						lease_expires_at = ${now.toISOString()}::timestamptz + make_interval(mins => lease_minutes)
					where id = ${found.checkId} and reviewer_id = ${userId} and state = 'leased'
						and lease_token = ${input.token}
					returning lease_expires_at`)
			)
		: [];
	if (rows.length === 0)
		throw new DomainError(
			'not_leased',
			'This item is no longer leased to you: another reviewer has been given it since your lease expired, or it was submitted. Nothing was changed.'
		);
	return { leaseExpiresAt: new Date(rows[0].lease_expires_at) };
}

/** Skips or releases the work behind `publicId` (see returnTask); a check is simply closed. */
export async function returnWork(
	db: Db,
	userId: string,
	input: { publicId: string; token: string; skip: boolean; reason?: string | null }
): Promise<void> {
	const found = await findWork(db, userId, input.publicId);
	if (found?.taskId != null) return returnTask(db, userId, { ...input, taskId: found.taskId });
	await db.transaction(async (tx) => {
		const rows = found
			? rowsOf<{ id: number }>(
					await tx.execute(sql`update review_check set state = ${input.skip ? 'skipped' : 'released'}
						where id = ${found.checkId} and reviewer_id = ${userId} and state = 'leased'
							and lease_token = ${input.token}
						returning id`)
				)
			: [];
		if (rows.length === 0) throw new DomainError('not_leased', NOT_LEASED);
		await recordAudit(tx, {
			actorId: userId,
			action: input.skip ? 'review_check.skip' : 'review_check.release',
			objectType: 'review_check',
			objectId: rows[0].id,
			after: { reason: input.reason?.trim() || null }
		});
	});
}
