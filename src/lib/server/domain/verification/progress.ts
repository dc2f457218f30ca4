import { count, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/client';
import { dispute } from '../../db/schema';
import type { ReviewRound } from '../../../constants';
import { tasksAwaitingPassage } from '../review';
import { countItemsByStateAndOutcome, stateAndOutcomeTotals } from '../items';

/** Median of a numeric list (null when empty). */
export function median(values: number[]): number | null {
	if (!values.length) return null;
	const s = [...values].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Tasks waiting (pending and claimable) and in hand (leased) per round: each read from its partial index
 * (`review_task_claimable`, `review_task_leased`), so done tasks, the bulk of a finished
 * dataset, are never read.
 */
async function queueDepth(db: Db) {
	const rows = rowsOf<{ round: ReviewRound; state: 'pending' | 'leased'; n: number | string }>(
		await db.execute(sql`
			select round, 'pending' as state, count(*) as n from "review_task" where state = 'pending' and not awaits_passage group by round
			union all
			select round, 'leased' as state, count(*) as n from "review_task" where state = 'leased' group by round`)
	);
	return rows.map((r) => ({ round: r.round, state: r.state, n: Number(r.n) }));
}

/**
 * The organiser's progress view: items per workflow state and per outcome (by type), queue depth
 * per round (tasks pending and leased; tasks waiting for their item's passage), reviews and median time on task per reviewer (first revisions only), items awaiting
 * adjudication and disputes waiting.
 */
export async function verificationProgress(db: Db) {
	const [counted, queue, awaitingPassage, perReviewerRows, disputes] = await Promise.all([
		countItemsByStateAndOutcome(db),
		queueDepth(db),
		tasksAwaitingPassage(db),
		// Grouped by reviewer before the join, so the first revisions are read from the partial
		// index review_first_revision_time alone (reviewer, time on task), in order.
		db.execute(sql`
			select u.pseudonym, u.display_name as name, s.reviews, s.median_ms
			from (select r.reviewer_id, count(*)::int as reviews,
					percentile_cont(0.5) within group (order by r.time_on_task_ms) as median_ms
				from review r where r.revision = 1 group by r.reviewer_id) s
			join "user" u on u.id = s.reviewer_id
			order by s.reviews desc, u.pseudonym`),
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
	const totals = stateAndOutcomeTotals(counted);
	return {
		counted,
		...totals,
		queue,
		awaitingPassage,
		perReviewer,
		disagreementsWaiting: totals.byState.find((s) => s.status === 'awaiting_adjudication')?.n ?? 0,
		disputesWaiting: disputeCount('open') + disputeCount('under_review')
	};
}
