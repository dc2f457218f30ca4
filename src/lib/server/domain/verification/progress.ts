import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/client';
import { dispute, qaItem, reviewTask } from '../../db/schema';

/** Median of a numeric list (null when empty). */
export function median(values: number[]): number | null {
	if (!values.length) return null;
	const s = [...values].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The organiser's progress view: items per status and type, queue depth per round, reviews and
 * median time on task per reviewer (first revisions only), disagreements and disputes waiting.
 */
export async function verificationProgress(db: Db) {
	const [byStatusType, queue, perReviewerRows, [disagreements], disputes] = await Promise.all([
		db
			.select({ status: qaItem.status, type: qaItem.type, n: count() })
			.from(qaItem)
			.groupBy(qaItem.status, qaItem.type),
		db
			.select({ round: reviewTask.round, state: reviewTask.state, n: count() })
			.from(reviewTask)
			.groupBy(reviewTask.round, reviewTask.state),
		db.execute(sql`
			select u.pseudonym, u.display_name as name, count(*)::int as reviews,
				percentile_cont(0.5) within group (order by r.time_on_task_ms) as median_ms
			from review r join "user" u on u.id = r.reviewer_id
			where r.revision = 1
			group by u.id, u.pseudonym, u.display_name
			order by reviews desc, u.pseudonym`),
		db.select({ n: count() }).from(qaItem).where(eq(qaItem.status, 'disagreement')),
		db.select({ status: dispute.status, n: count() }).from(dispute).groupBy(dispute.status)
	]);
	const perReviewer = rowsOf<{
		pseudonym: string;
		name: string;
		reviews: number;
		median_ms: number | string | null;
	}>(perReviewerRows).map((r) => ({
		pseudonym: r.pseudonym,
		name: r.name,
		reviews: Number(r.reviews),
		medianMs: r.median_ms === null ? null : Number(r.median_ms)
	}));
	const disputeCount = (s: string) => disputes.find((d) => d.status === s)?.n ?? 0;
	return {
		byStatusType,
		queue,
		perReviewer,
		disagreementsWaiting: disagreements.n,
		disputesWaiting: disputeCount('open') + disputeCount('under_review')
	};
}
