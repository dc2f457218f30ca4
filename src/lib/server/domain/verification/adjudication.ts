import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { adjudication, qaItem, review, reviewTask, user } from '../../db/schema';
import { VERDICTS } from '../../../constants';
import { recordAudit } from '../audit';
import { DomainError } from '../../errors';
import { heldSql, itemForDisplay, resolveItemOutcome } from '../items';

/**
 * The latest revision of each round's review of an item, on the round's current task (a task
 * retired after an exclusion of its reviewer is not read, as item_resolve_outcome reads them).
 */
async function latestReviews(db: Db | Tx, itemId: number) {
	const rows = await db
		.select({ review })
		.from(review)
		.innerJoin(reviewTask, eq(reviewTask.id, review.taskId))
		.where(and(eq(review.itemId, itemId), isNull(reviewTask.retiredAt)))
		.orderBy(desc(review.revision), desc(review.id))
		.then((found) => found.map((r) => r.review));
	return {
		primary: rows.find((r) => r.round === 'primary') ?? null,
		secondary: rows.find((r) => r.round === 'secondary') ?? null
	};
}

/** Items waiting for an adjudicator (their two reviews disagree), oldest first. */
export function adjudicationQueue(db: Db) {
	return db
		.select({
			id: qaItem.id,
			type: qaItem.type,
			question: qaItem.question,
			since: qaItem.updatedAt,
			held: heldSql().mapWith(Boolean)
		})
		.from(qaItem)
		.where(eq(qaItem.status, 'awaiting_adjudication'))
		.orderBy(asc(qaItem.updatedAt), asc(qaItem.id));
}

/**
 * Both reviews of an item side by side. Reviewers appear under their pseudonyms; their names
 * only when `reveal` is set (the adjudicator asked for them).
 */
export async function adjudicationCase(db: Db, itemId: number, reveal = false) {
	const shown = await itemForDisplay(db, itemId);
	if (!shown) return null;
	const { primary, secondary } = await latestReviews(db, itemId);
	const ids = [primary?.reviewerId, secondary?.reviewerId].filter((v): v is string => !!v);
	const people = ids.length
		? await db
				.select({ id: user.id, name: user.displayName, pseudonym: user.pseudonym })
				.from(user)
				.where(inArray(user.id, ids))
		: [];
	const who = (id: string | undefined) => {
		const p = people.find((x) => x.id === id);
		return p ? (reveal ? p.name : p.pseudonym) : '—';
	};
	const view = (r: typeof primary) =>
		r && {
			id: r.id,
			round: r.round,
			revision: r.revision,
			verdict: r.verdict,
			relevance: r.relevance,
			feedback: r.feedback,
			reviewer: who(r.reviewerId),
			submittedAt: r.submittedAt
		};
	const [history, [{ held }]] = await Promise.all([
		db
			.select()
			.from(adjudication)
			.where(eq(adjudication.itemId, itemId))
			.orderBy(asc(adjudication.id)),
		db
			.select({ held: heldSql().mapWith(Boolean) })
			.from(qaItem)
			.where(eq(qaItem.id, itemId))
	]);
	return { ...shown, held, primary: view(primary), secondary: view(secondary), history };
}

export const adjudicationSchema = z.object({
	itemId: z.coerce.number().int().positive(),
	verdict: z.enum(VERDICTS, 'Choose the final verdict.'),
	relevance: z.coerce
		.number('Choose the final GP relevance from 1 to 5.')
		.int('GP relevance must be a whole number from 1 to 5.')
		.min(1, 'GP relevance must be from 1 to 5.')
		.max(5, 'GP relevance must be from 1 to 5.'),
	reason: z.string().trim().min(3, 'Give a reason for the decision.').max(4000)
});

/** Records the final verdict and relevance of an item in disagreement, in one transaction. */
export async function adjudicate(
	db: Db,
	actorId: string,
	input: z.infer<typeof adjudicationSchema>
) {
	return db.transaction(async (tx) => {
		const [item] = await tx.select().from(qaItem).where(eq(qaItem.id, input.itemId)).for('update');
		if (!item) throw new DomainError('not_found', `There is no item ${input.itemId}.`);
		if (item.status !== 'awaiting_adjudication')
			throw new DomainError(
				'conflict',
				'This item is not waiting for adjudication (it was resolved already or its reviews agree). Nothing was saved.'
			);
		const { primary, secondary } = await latestReviews(tx, item.id);
		const [saved] = await tx
			.insert(adjudication)
			.values({
				itemId: item.id,
				itemVersionId: item.currentVersionId!,
				adjudicatorId: actorId,
				verdict: input.verdict,
				relevance: input.relevance,
				reason: input.reason,
				reviewIds: [primary?.id, secondary?.id].filter((v): v is number => v !== undefined)
			})
			.returning();
		const outcome = await resolveItemOutcome(tx, item.id);
		await recordAudit(tx, {
			actorId,
			action: 'item.adjudicate',
			objectType: 'qa_item',
			objectId: item.id,
			before: { status: item.status },
			after: { ...outcome, adjudicationId: saved.id, reason: input.reason }
		});
		return saved;
	});
}
