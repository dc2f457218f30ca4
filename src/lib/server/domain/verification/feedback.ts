import { and, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { feedbackNote, qaItem, user } from '../../db/schema';
import { FEEDBACK_CATEGORIES } from '../../../constants';
import { recordAudit } from '../audit/audit';
import { DomainError } from '../../errors';

export const feedbackFilterSchema = z.object({
	category: z.enum(FEEDBACK_CATEGORIES).optional().catch(undefined),
	state: z.enum(['open', 'resolved']).optional().catch(undefined),
	type: z.string().max(40).optional().catch(undefined)
});

/** Feedback notes, newest first; authors appear under their pseudonyms. */
export function listFeedback(db: Db, filter: z.infer<typeof feedbackFilterSchema>) {
	const where: SQL[] = [];
	if (filter.category) where.push(eq(feedbackNote.category, filter.category));
	if (filter.state === 'open') where.push(isNull(feedbackNote.resolvedAt));
	if (filter.state === 'resolved') where.push(isNotNull(feedbackNote.resolvedAt));
	return db
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
		.where(where.length ? and(...where) : undefined)
		.orderBy(desc(feedbackNote.createdAt), desc(feedbackNote.id))
		.limit(500);
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
