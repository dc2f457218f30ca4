import { and, asc, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { feedbackNote, qaItem, user } from '../../db/schema';
import { FEEDBACK_CATEGORIES } from '../../../constants';
import { listQuerySchema } from '../../../schemas/list-query';
import { recordAudit } from '../audit';
import { DomainError } from '../../errors';

export const FEEDBACK_SORTS = ['createdAt', 'category', 'resolvedAt'] as const;

/** A page of the feedback list: paging, sorting (newest first by default) and filters. */
export const feedbackQuerySchema = listQuerySchema(FEEDBACK_SORTS, {
	sort: 'createdAt',
	dir: 'desc'
}).extend({
	category: z.enum(FEEDBACK_CATEGORIES).optional().catch(undefined),
	state: z.enum(['open', 'resolved']).optional().catch(undefined)
});
export type FeedbackQuery = z.infer<typeof feedbackQuerySchema>;

const feedbackSortColumns = {
	createdAt: feedbackNote.createdAt,
	category: feedbackNote.category,
	resolvedAt: feedbackNote.resolvedAt
};

/** One page of feedback notes with the filtered total; authors appear under their pseudonyms. */
export async function listFeedback(
	db: Db,
	query: Partial<FeedbackQuery> | Record<string, string> = {}
) {
	const q = feedbackQuerySchema.parse(query);
	const where: SQL[] = [];
	if (q.category) where.push(eq(feedbackNote.category, q.category));
	if (q.state === 'open') where.push(isNull(feedbackNote.resolvedAt));
	if (q.state === 'resolved') where.push(isNotNull(feedbackNote.resolvedAt));
	const condition = where.length ? and(...where) : undefined;
	const order = q.dir === 'asc' ? asc : desc;
	const [rows, [{ total }]] = await Promise.all([
		db
			.select({
				id: feedbackNote.id,
				itemId: feedbackNote.itemId,
				question: qaItem.question,
				type: qaItem.type,
				category: feedbackNote.category,
				body: feedbackNote.body,
				author: user.pseudonym,
				resolvedAt: feedbackNote.resolvedAt,
				resolution: feedbackNote.resolution,
				createdAt: feedbackNote.createdAt
			})
			.from(feedbackNote)
			.innerJoin(qaItem, eq(qaItem.id, feedbackNote.itemId))
			.innerJoin(user, eq(user.id, feedbackNote.authorId))
			.where(condition)
			.orderBy(order(feedbackSortColumns[q.sort]), order(feedbackNote.id))
			.limit(q.size)
			.offset((q.page - 1) * q.size),
		db.select({ total: count() }).from(feedbackNote).where(condition)
	]);
	return { rows, total, query: q };
}

export const resolveFeedbackSchema = z.object({
	id: z.coerce.number().int().positive(),
	resolution: z.string().trim().min(1, 'Say how the note was resolved.').max(2000)
});

/** Marks a feedback note resolved (the item may then enter snapshots). */
export async function resolveFeedback(
	db: Db,
	actorId: string,
	input: z.infer<typeof resolveFeedbackSchema>
) {
	return db.transaction(async (tx) => {
		const [note] = await tx
			.update(feedbackNote)
			.set({ resolvedAt: new Date(), resolvedBy: actorId, resolution: input.resolution })
			.where(and(eq(feedbackNote.id, input.id), isNull(feedbackNote.resolvedAt)))
			.returning();
		if (!note)
			throw new DomainError('conflict', 'This note does not exist or is resolved already.');
		await recordAudit(tx, {
			actorId,
			action: 'feedback.resolve',
			objectType: 'feedback_note',
			objectId: note.id,
			after: { resolution: input.resolution }
		});
		return note;
	});
}
