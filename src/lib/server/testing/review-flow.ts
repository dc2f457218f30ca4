import type { Db } from '../db/client';
import { claimNext } from '../domain/review-queue';
import { submitReview, type JudgementInput } from '../domain/reviews';

/** Leases the next item to a user and submits a judgement of it; returns the lease. */
export async function reviewNext(
	db: Db,
	userId: string,
	judgement: Omit<JudgementInput, 'key'> = { verdict: 'correct', relevance: 5 }
) {
	const lease = await claimNext(db, userId);
	if (!lease) throw new Error('the queue is empty');
	const { review } = await submitReview(db, userId, {
		...judgement,
		taskId: lease.taskId,
		key: lease.leaseToken
	});
	return { lease, review };
}
