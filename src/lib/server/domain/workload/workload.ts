import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/client';
import { shareOf, workloadWindows, type WorkloadWindows } from './windows';

export { sortRows, workloadWindows, type WorkloadWindows } from './windows';

/** One reviewer's work in the windows of `workloadWindows`. */
export interface ReviewerWorkload {
	userId: string;
	name: string;
	pseudonym: string;
	/** The account is deactivated. */
	disabled: boolean;
	/** First-revision reviews submitted today (UTC day); amendments are not counted. */
	today: number;
	/** First-revision reviews submitted this ISO week. */
	week: number;
	/** Median time on task of this week's reviews that recorded one (ms), null when none did. */
	medianMs: number | null;
	/** This week's reviews without a recorded time on task (left out of the median). */
	untimed: number;
	/** Skips recorded this ISO week. */
	skips: number;
	/** skips ÷ (skips + week), null when both are 0. */
	skippedShare: number | null;
	/** Items this reviewer gave a primary review (all time). */
	primaryItems: number;
	/** Of those, items with a secondary review submitted by another reviewer. */
	doubleChecked: number;
	/** doubleChecked ÷ primaryItems, null when they gave no primary review. */
	checkedShare: number | null;
}

/** One physician's work in the windows of `workloadWindows`. */
export interface PhysicianWorkload {
	userId: string;
	name: string;
	pseudonym: string;
	disabled: boolean;
	/** Rankings submitted today (UTC day). */
	today: number;
	/** Rankings submitted this ISO week. */
	week: number;
	/** Median of lease (assignment made) → submission over this week's rankings (ms). */
	medianMs: number | null;
	/** This week's rankings whose lease time is missing or after the submission (left out). */
	untimed: number;
	/** Leases that ran out (expired) or were given back (released) this ISO week. */
	lapsed: number;
	/** lapsed ÷ (lapsed + week), null when both are 0. */
	lapsedShare: number | null;
}

type Count = number | string;
const num = (v: Count | null) => (v === null ? null : Number(v));

/**
 * Per reviewer: reviews today and this week, median time on task, skipped share and how many of
 * their primary-reviewed items were double-checked by someone else. One statement; each lateral
 * part reads one reviewer's rows through an index (`review (reviewer_id, submitted_at)`,
 * `task_skip (user_id, created_at)`, `review (item_id)`).
 */
export async function reviewerWorkload(db: Db, w: WorkloadWindows): Promise<ReviewerWorkload[]> {
	const day = w.dayStart.toISOString();
	const weekStart = w.weekStart.toISOString();
	const weekEnd = w.weekEnd.toISOString();
	const rows = rowsOf<{
		id: string;
		name: string;
		pseudonym: string;
		disabled: boolean;
		today: Count;
		week: Count;
		timed: Count;
		median_ms: Count | null;
		skips: Count;
		primary_items: Count;
		double_checked: Count;
	}>(
		await db.execute(sql`
			select u.id, u.display_name as name, u.pseudonym, u.disabled_at is not null as disabled,
				w.today, w.week, w.timed, w.median_ms, s.skips, c.primary_items, c.double_checked
			from "user" u
			cross join lateral (
				select count(*) filter (where r.submitted_at >= ${day}::timestamptz)::int as today,
					count(*)::int as week,
					count(r.time_on_task_ms)::int as timed,
					percentile_cont(0.5) within group (order by r.time_on_task_ms) as median_ms
				from review r
				where r.reviewer_id = u.id and r.revision = 1
					and r.submitted_at >= ${weekStart}::timestamptz and r.submitted_at < ${weekEnd}::timestamptz
			) w
			cross join lateral (
				select count(*)::int as skips from task_skip s
				where s.user_id = u.id
					and s.created_at >= ${weekStart}::timestamptz and s.created_at < ${weekEnd}::timestamptz
			) s
			cross join lateral (
				select count(distinct r.item_id)::int as primary_items,
					count(distinct r.item_id) filter (where exists (
						select 1 from review r2
						where r2.item_id = r.item_id and r2.round = 'secondary' and r2.reviewer_id <> u.id
					))::int as double_checked
				from review r
				where r.reviewer_id = u.id and r.round = 'primary'
			) c
			where 'reviewer' = any(u.roles) or exists (select 1 from review r where r.reviewer_id = u.id)
			order by u.pseudonym`)
	);
	return rows.map((r) => {
		const week = Number(r.week);
		const skips = Number(r.skips);
		return {
			userId: r.id,
			name: r.name,
			pseudonym: r.pseudonym,
			disabled: r.disabled,
			today: Number(r.today),
			week,
			medianMs: num(r.median_ms),
			untimed: week - Number(r.timed),
			skips,
			skippedShare: shareOf(skips, skips + week),
			primaryItems: Number(r.primary_items),
			doubleChecked: Number(r.double_checked),
			checkedShare: shareOf(Number(r.double_checked), Number(r.primary_items))
		};
	});
}

/**
 * Per physician: rankings today and this week, median lease → submission, and the share of
 * leases that lapsed. One statement; each lateral part reads one physician's assignments through
 * `assignment (physician_id, state)` and their rankings through `ranking (assignment_id)`.
 */
export async function physicianWorkload(db: Db, w: WorkloadWindows): Promise<PhysicianWorkload[]> {
	const day = w.dayStart.toISOString();
	const weekStart = w.weekStart.toISOString();
	const weekEnd = w.weekEnd.toISOString();
	const rows = rowsOf<{
		id: string;
		name: string;
		pseudonym: string;
		disabled: boolean;
		today: Count;
		week: Count;
		timed: Count;
		median_ms: Count | null;
		lapsed: Count;
	}>(
		await db.execute(sql`
			select u.id, u.display_name as name, u.pseudonym, u.disabled_at is not null as disabled,
				w.today, w.week, w.timed, w.median_ms, x.lapsed
			from "user" u
			cross join lateral (
				select count(*) filter (where r.submitted_at >= ${day}::timestamptz)::int as today,
					count(*)::int as week,
					count(*) filter (where r.submitted_at >= a.created_at)::int as timed,
					percentile_cont(0.5) within group (
						order by extract(epoch from (r.submitted_at - a.created_at)) * 1000
					) filter (where r.submitted_at >= a.created_at) as median_ms
				from assignment a join ranking r on r.assignment_id = a.id
				where a.physician_id = u.id
					and r.submitted_at >= ${weekStart}::timestamptz and r.submitted_at < ${weekEnd}::timestamptz
			) w
			cross join lateral (
				select count(*)::int as lapsed from assignment a
				where a.physician_id = u.id and a.state in ('expired', 'released')
					and a.lease_expires_at >= ${weekStart}::timestamptz
					and a.lease_expires_at < ${weekEnd}::timestamptz
			) x
			where 'physician' = any(u.roles) or exists (select 1 from assignment a where a.physician_id = u.id)
			order by u.pseudonym`)
	);
	return rows.map((r) => {
		const week = Number(r.week);
		const lapsed = Number(r.lapsed);
		return {
			userId: r.id,
			name: r.name,
			pseudonym: r.pseudonym,
			disabled: r.disabled,
			today: Number(r.today),
			week,
			medianMs: num(r.median_ms),
			untimed: week - Number(r.timed),
			lapsed,
			lapsedShare: shareOf(lapsed, lapsed + week)
		};
	});
}

/** The workload view: both tables, in the windows that contain `now`. */
export async function workload(db: Db, now: Date) {
	const windows = workloadWindows(now);
	const [reviewers, physicians] = await Promise.all([
		reviewerWorkload(db, windows),
		physicianWorkload(db, windows)
	]);
	return { windows, reviewers, physicians };
}
