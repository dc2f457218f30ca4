// A reviewer's history: every judgement they gave in the review queue — live reviews and hidden
// gold checks alike, one shape for both — named by the public id their screen showed (never an
// item's or a review's number), each with its revisions and amendable from the history page. A
// check the reviewer amends keeps its revisions on the check (`review_check.revisions`); its latest
// revision is the one scored. Only the server tells the two kinds apart.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import type { CheckRevision } from '../../db/schema';
import type {
	DisputeCategory,
	DisputeStatus,
	FeedbackCategory,
	QaType,
	ReviewRound,
	Verdict
} from '../../../constants';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { itemForDisplay } from '../items';
import { checkDisplay, itemDisplay, type ShownWork } from './checks';
import { amendReview, reviewWithRevisions, timeOnTask, type JudgementInput } from './reviews';

/** One line of the reviewer's history: the latest revision of a judgement. */
export interface HistoryRow {
	/** The id the review screen showed (null only for reviews written outside the queue). */
	publicId: string | null;
	round: ReviewRound;
	revision: number;
	verdict: Verdict;
	relevance: number;
	timeOnTaskMs: number | null;
	submittedAt: Date;
	type: QaType;
	question: string;
}

/**
 * The reviewer's judgements, latest revision of each, newest first. No item state or outcome: an
 * item's state would tell its primary reviewer whether it is double-checked, and its outcome how
 * the others judged it.
 */
export async function reviewHistory(db: Db, userId: string, limit = 200): Promise<HistoryRow[]> {
	const rows = rowsOf<{
		public_id: string | null;
		round: ReviewRound;
		revision: number;
		verdict: Verdict;
		relevance: number;
		time_on_task_ms: number | null;
		submitted_at: Date | string;
		type: QaType;
		question: string;
	}>(
		await db.execute(sql`
			select * from (
				(select distinct on (r.task_id) t.public_id, r.round, r.revision, r.verdict, r.relevance,
					r.time_on_task_ms, r.submitted_at, i.type::text as type, i.question
				from review r join review_task t on t.id = r.task_id join qa_item i on i.id = r.item_id
				where r.reviewer_id = ${userId}
				order by r.task_id, r.revision desc)
				union all
				(select c.public_id, c.round, greatest(jsonb_array_length(c.revisions), 1), c.verdict,
					c.relevance, coalesce((c.revisions -> -1 ->> 'timeOnTaskMs')::int, c.time_on_task_ms),
					coalesce((c.revisions -> -1 ->> 'submittedAt')::timestamptz, c.submitted_at),
					g.shown ->> 'type', g.shown ->> 'question'
				from review_check c join review_gold g on g.id = c.gold_id
				where c.reviewer_id = ${userId} and c.state = 'done')
			) h
			order by submitted_at desc, public_id
			limit ${limit}`)
	);
	return rows.map((r) => ({
		publicId: r.public_id,
		round: r.round,
		revision: Number(r.revision),
		verdict: r.verdict,
		relevance: Number(r.relevance),
		timeOnTaskMs: r.time_on_task_ms === null ? null : Number(r.time_on_task_ms),
		submittedAt: new Date(r.submitted_at),
		type: r.type,
		question: r.question
	}));
}

/** One revision as the history page lists it. */
export interface HistoryRevision {
	revision: number;
	verdict: Verdict;
	relevance: number;
	submittedAt: Date;
}

/** A judgement in the reviewer's history, with what they need to amend it. */
export interface HistoryEntry extends Omit<ShownWork, 'lease'> {
	publicId: string;
	round: ReviewRound;
	/** Newest first. */
	revisions: HistoryRevision[];
	notes: { category: FeedbackCategory; body: string; resolved: boolean }[];
	disputes: { category: DisputeCategory; reason: string; status: DisputeStatus }[];
	/** Why it can no longer be amended, or null. */
	lockedBecause: string | null;
}

type Found = { reviewId: number; checkId: null } | { reviewId: null; checkId: number };

/** The reviewer's latest review, or done check, behind a public id. */
async function findJudgement(db: Db, userId: string, publicId: string): Promise<Found | null> {
	const [row] = rowsOf<{ review_id: number | null; check_id: number | null }>(
		await db.execute(sql`
			(select r.id as review_id, null::integer as check_id
				from review r join review_task t on t.id = r.task_id
				where t.public_id = ${publicId} and r.reviewer_id = ${userId}
				order by r.revision desc limit 1)
			union all
			(select null::integer, id from review_check
				where public_id = ${publicId} and reviewer_id = ${userId} and state = 'done')
			limit 1`)
	);
	if (!row) return null;
	return row.check_id !== null
		? { reviewId: null, checkId: Number(row.check_id) }
		: { reviewId: Number(row.review_id), checkId: null };
}

interface CheckRow {
	id: number;
	round: ReviewRound;
	verdict: Verdict;
	relevance: number;
	feedback_category: FeedbackCategory | null;
	feedback: string | null;
	dispute_category: DisputeCategory | null;
	dispute_reason: string | null;
	time_on_task_ms: number | null;
	submitted_at: Date | string;
	revisions: CheckRevision[] | string;
	locked: string | null;
}

const LOCKED_SET_ASIDE =
	'The organisers set this review aside and the item went back to the queue; it can no longer change.';
const LOCKED_FROZEN = 'The item is part of a frozen snapshot; its reviews can no longer change.';

/**
 * A check's row with the revisions it has (its first judgement as revision 1 when never amended)
 * and why it is locked: as a live review is, when an exclusion sets the reviewer's judgement
 * aside, or once a snapshot was frozen after it (live items answered by then are in it).
 */
async function checkRow(db: Db | Tx, checkId: number) {
	const [row] = rowsOf<CheckRow>(
		await db.execute(sql`select c.id, c.round, c.verdict, c.relevance, c.feedback_category,
				c.feedback, c.dispute_category, c.dispute_reason, c.time_on_task_ms, c.submitted_at,
				c.revisions,
				case when not judgement_counts(c.reviewer_id, null, c.submitted_at) then 'set_aside'
					when exists (select 1 from snapshot s where s.created_at > c.submitted_at) then 'frozen'
				end as locked
			from review_check c where c.id = ${checkId}`)
	);
	const stored: CheckRevision[] =
		typeof row.revisions === 'string' ? JSON.parse(row.revisions) : row.revisions;
	const revisions: CheckRevision[] = stored.length
		? stored
		: [
				{
					revision: 1,
					verdict: row.verdict,
					relevance: Number(row.relevance),
					submittedAt: new Date(row.submitted_at).toISOString(),
					timeOnTaskMs: row.time_on_task_ms === null ? null : Number(row.time_on_task_ms),
					key: null,
					feedbackCategory: row.feedback_category,
					feedback: row.feedback,
					disputeCategory: row.dispute_category,
					disputeReason: row.dispute_reason
				}
			];
	const lockedBecause =
		row.locked === 'set_aside' ? LOCKED_SET_ASIDE : row.locked === 'frozen' ? LOCKED_FROZEN : null;
	return { row, revisions, lockedBecause };
}

/** A judgement of the reviewer's history by its public id, or null when it is not theirs. */
export async function historyEntry(
	db: Db,
	userId: string,
	publicId: string
): Promise<HistoryEntry | null> {
	const found = await findJudgement(db, userId, publicId);
	if (!found) return null;
	if (found.reviewId !== null) {
		const r = await reviewWithRevisions(db, userId, found.reviewId);
		const shown = r && (await itemForDisplay(db, r.latest.itemId));
		if (!r || !shown) return null;
		return {
			publicId,
			round: r.latest.round,
			...itemDisplay(shown),
			revisions: r.revisions.map((v) => ({
				revision: v.revision,
				verdict: v.verdict,
				relevance: v.relevance,
				submittedAt: v.submittedAt
			})),
			notes: r.notes.map((n) => ({
				category: n.category,
				body: n.body,
				resolved: n.resolvedAt !== null
			})),
			disputes: r.disputes.map((d) => ({
				category: d.category,
				reason: d.reason,
				status: d.status
			})),
			lockedBecause: r.lockedBecause
		};
	}
	const shown = await checkDisplay(db, found.checkId);
	if (!shown) return null;
	const { row, revisions, lockedBecause } = await checkRow(db, found.checkId);
	return {
		publicId,
		round: row.round,
		...shown,
		revisions: revisions
			.map((v) => ({
				revision: v.revision,
				verdict: v.verdict as Verdict,
				relevance: v.relevance,
				submittedAt: new Date(v.submittedAt)
			}))
			.reverse(),
		notes: revisions.flatMap((v) =>
			v.feedback && v.feedbackCategory
				? [{ category: v.feedbackCategory, body: v.feedback, resolved: false }]
				: []
		),
		disputes: revisions.flatMap((v) =>
			v.disputeReason && v.disputeCategory
				? [{ category: v.disputeCategory, reason: v.disputeReason, status: 'open' as const }]
				: []
		),
		lockedBecause
	};
}

/**
 * Amends a judgement of the reviewer's history (see amendReview): a live review gets a new
 * revision; a check gets one in its `revisions`, rescored, with the same refusals and answers.
 */
export async function amendWork(
	db: Db,
	userId: string,
	publicId: string,
	input: JudgementInput,
	now = new Date()
): Promise<{ duplicate: boolean; revision: number }> {
	const found = await findJudgement(db, userId, publicId);
	if (!found) throw new DomainError('not_found', 'You have no review with this number.');
	if (found.reviewId !== null) {
		const { review, duplicate } = await amendReview(db, userId, found.reviewId, input, now);
		return { duplicate, revision: review.revision };
	}
	return db.transaction(async (tx) => {
		await tx.execute(sql`select id from review_check where id = ${found.checkId} for update`);
		const { revisions, lockedBecause } = await checkRow(tx, found.checkId);
		const earlier = revisions.find((v) => v.key === input.key);
		if (earlier) return { duplicate: true, revision: earlier.revision };
		if (lockedBecause) throw new DomainError('locked', `${lockedBecause} Nothing was saved.`);
		const next: CheckRevision = {
			revision: revisions.length + 1,
			verdict: input.verdict,
			relevance: input.relevance,
			submittedAt: now.toISOString(),
			timeOnTaskMs: timeOnTask(input.startedAt, now),
			key: input.key,
			feedbackCategory: input.feedback ? (input.feedbackCategory ?? null) : null,
			feedback: input.feedback ?? null,
			disputeCategory: input.disputeReason ? (input.disputeCategory ?? null) : null,
			disputeReason: input.disputeReason ?? null
		};
		const before = revisions[revisions.length - 1];
		await tx.execute(sql`update review_check c set verdict = ${input.verdict}::verdict,
				relevance = ${input.relevance},
				matched = (select (g.verdict = ${input.verdict}::verdict)::int
					+ (g.relevance = ${input.relevance})::int from review_gold g where g.id = c.gold_id),
				revisions = ${JSON.stringify([...revisions, next])}::jsonb
			where c.id = ${found.checkId}`);
		await recordAudit(tx, {
			actorId: userId,
			action: 'review_check.amend',
			objectType: 'review_check',
			objectId: found.checkId,
			before: { verdict: before.verdict, relevance: before.relevance },
			after: { verdict: next.verdict, relevance: next.relevance, revision: next.revision }
		});
		return { duplicate: false, revision: next.revision };
	});
}
