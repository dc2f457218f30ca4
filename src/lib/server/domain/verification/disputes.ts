import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { dispute, disputeComment, qaItem, user } from '../../db/schema';
import {
	DISPUTE_CATEGORIES,
	DISPUTE_STATUSES,
	DISPUTE_STATUS_LABELS,
	type DisputeStatus
} from '../../../constants';
import { listQuerySchema } from '../../../schemas/list-query';
import { recordAudit } from '../audit';
import { correctItem, heldSql, itemForDisplay, withdrawItem } from '../items';
import { DomainError } from '../../errors';

/** The lifecycle: open → under_review → upheld | rejected. */
const NEXT: Record<DisputeStatus, DisputeStatus[]> = {
	open: ['under_review'],
	under_review: ['upheld', 'rejected'],
	upheld: [],
	rejected: []
};

export const DISPUTE_SORTS = ['createdAt', 'id', 'status', 'category', 'updatedAt'] as const;

/** A page of the dispute list: paging, sorting (newest first by default) and filters. */
export const disputeQuerySchema = listQuerySchema(DISPUTE_SORTS, {
	sort: 'createdAt',
	dir: 'desc'
}).extend({
	status: z.enum(DISPUTE_STATUSES).optional().catch(undefined),
	category: z.enum(DISPUTE_CATEGORIES).optional().catch(undefined)
});
export type DisputeQuery = z.infer<typeof disputeQuerySchema>;

const raiser = alias(user, 'raiser');
const owner = alias(user, 'owner');

const disputeSortColumns = {
	createdAt: dispute.createdAt,
	id: dispute.id,
	status: dispute.status,
	category: dispute.category,
	updatedAt: dispute.updatedAt
};

/** One page of disputes, filtered by status and category, with the filtered total. */
export async function listDisputes(
	db: Db,
	query: Partial<DisputeQuery> | Record<string, string> = {}
) {
	const q = disputeQuerySchema.parse(query);
	const where: SQL[] = [];
	if (q.status) where.push(eq(dispute.status, q.status));
	if (q.category) where.push(eq(dispute.category, q.category));
	const condition = where.length ? and(...where) : undefined;
	const order = q.dir === 'asc' ? asc : desc;
	const [rows, [{ total }]] = await Promise.all([
		db
			.select({
				id: dispute.id,
				itemId: dispute.itemId,
				question: qaItem.question,
				type: qaItem.type,
				itemStatus: qaItem.status,
				itemVerdict: qaItem.finalVerdict,
				itemHeld: heldSql().mapWith(Boolean),
				category: dispute.category,
				status: dispute.status,
				reason: dispute.reason,
				raisedByName: raiser.displayName,
				raisedByPseudonym: raiser.pseudonym,
				ownerName: owner.displayName,
				ownerPseudonym: owner.pseudonym,
				createdAt: dispute.createdAt,
				updatedAt: dispute.updatedAt
			})
			.from(dispute)
			.innerJoin(qaItem, eq(qaItem.id, dispute.itemId))
			.innerJoin(raiser, eq(raiser.id, dispute.raisedBy))
			.leftJoin(owner, eq(owner.id, dispute.ownerId))
			.where(condition)
			.orderBy(order(disputeSortColumns[q.sort]), order(dispute.id))
			.limit(q.size)
			.offset((q.page - 1) * q.size),
		db.select({ total: count() }).from(dispute).where(condition)
	]);
	return { rows, total, query: q };
}

/** A dispute with its thread, the item as it is now, and the transitions open to it. */
export async function getDispute(db: Db, id: number) {
	const [row] = await db
		.select({
			dispute,
			raisedBy: { displayName: raiser.displayName, pseudonym: raiser.pseudonym },
			owner: { displayName: owner.displayName, pseudonym: owner.pseudonym }
		})
		.from(dispute)
		.innerJoin(raiser, eq(raiser.id, dispute.raisedBy))
		.leftJoin(owner, eq(owner.id, dispute.ownerId))
		.where(eq(dispute.id, id));
	if (!row) return null;
	const thread = await db
		.select({
			id: disputeComment.id,
			body: disputeComment.body,
			statusChange: disputeComment.statusChange,
			author: user.displayName,
			createdAt: disputeComment.createdAt
		})
		.from(disputeComment)
		.innerJoin(user, eq(user.id, disputeComment.authorId))
		.where(eq(disputeComment.disputeId, id))
		.orderBy(asc(disputeComment.createdAt), asc(disputeComment.id));
	const shown = await itemForDisplay(db, row.dispute.itemId);
	return { ...row, thread, ...shown!, next: NEXT[row.dispute.status] };
}

export const commentSchema = z.object({
	body: z.string().trim().min(1, 'Write a comment.').max(4000)
});

/** Adds a comment to a dispute's thread. */
export async function commentOnDispute(db: Db, actorId: string, id: number, body: string) {
	return db.transaction(async (tx) => {
		const [d] = await tx.select().from(dispute).where(eq(dispute.id, id));
		if (!d) throw new DomainError('not_found', `There is no dispute ${id}.`);
		await tx.insert(disputeComment).values({ disputeId: id, authorId: actorId, body });
		await tx.update(dispute).set({ updatedAt: new Date() }).where(eq(dispute.id, id));
	});
}

export const transitionSchema = z
	.object({
		to: z.enum(DISPUTE_STATUSES, 'Choose the new status.'),
		comment: z.string().trim().max(4000).optional(),
		/** For `upheld`: what happens to the item. */
		remedy: z.enum(['correct', 'withdraw']).optional()
	})
	.superRefine((v, ctx) => {
		if ((v.to === 'upheld' || v.to === 'rejected') && !v.comment)
			ctx.addIssue({ code: 'custom', path: ['comment'], message: 'Explain the decision.' });
		if (v.to === 'upheld' && !v.remedy)
			ctx.addIssue({
				code: 'custom',
				path: ['remedy'],
				message: 'An upheld dispute corrects or withdraws the item.'
			});
	});

/**
 * Moves a dispute along its lifecycle in one transaction: taking it under review makes the actor
 * its owner; upholding corrects (a new item version) or withdraws the item; every change adds a
 * comment to the thread and an audit event.
 */
export async function transitionDispute(
	db: Db,
	actorId: string,
	id: number,
	input: z.infer<typeof transitionSchema> & {
		/** For a correction: the corrected record and the version it corrects. */
		record?: unknown;
		baseVersion?: number;
	}
) {
	return db.transaction(async (tx) => {
		const [d] = await tx.select().from(dispute).where(eq(dispute.id, id)).for('update');
		if (!d) throw new DomainError('not_found', `There is no dispute ${id}.`);
		if (!NEXT[d.status].includes(input.to))
			throw new DomainError(
				'conflict',
				`A dispute that is ${DISPUTE_STATUS_LABELS[d.status].toLowerCase()} cannot become ${DISPUTE_STATUS_LABELS[input.to].toLowerCase()}. Nothing was changed.`
			);
		const now = new Date();
		const final = input.to === 'upheld' || input.to === 'rejected';
		if (input.to === 'upheld' && input.remedy === 'correct') {
			if (input.record === undefined)
				throw new DomainError('invalid', 'Give the corrected item.', { field: 'record' });
			await correctItem(tx, actorId, {
				itemId: d.itemId,
				record: input.record,
				reason: `dispute ${id}: ${input.comment}`,
				baseVersion: input.baseVersion
			});
		} else if (input.to === 'upheld' && input.remedy === 'withdraw') {
			await withdrawItem(tx, actorId, d.itemId, `dispute ${id}: ${input.comment}`);
		}
		const [after] = await tx
			.update(dispute)
			.set({
				status: input.to,
				ownerId: d.ownerId ?? actorId,
				updatedAt: now,
				resolvedAt: final ? now : null,
				resolution: final ? `${input.remedy ? `${input.remedy}: ` : ''}${input.comment}` : null
			})
			.where(eq(dispute.id, id))
			.returning();
		await tx.insert(disputeComment).values({
			disputeId: id,
			authorId: actorId,
			body: input.comment || `Status changed to ${DISPUTE_STATUS_LABELS[input.to].toLowerCase()}.`,
			statusChange: input.to
		});
		await recordAudit(tx, {
			actorId,
			action: `dispute.${input.to}`,
			objectType: 'dispute',
			objectId: id,
			before: { status: d.status, ownerId: d.ownerId },
			after: { status: after.status, ownerId: after.ownerId, resolution: after.resolution }
		});
		return after;
	});
}
