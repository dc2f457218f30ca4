import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { reviewTask } from '../../db/schema';
import { REVIEW_LEFT_CAP } from '../../../constants';
import { DomainError } from '../../errors';
import type { Lease } from './queue';

/** A reviewer's calendar day and ISO week (from Monday) in a time zone, as instants. */
export interface WorkdayBounds {
	timeZone: string;
	dayStart: Date;
	weekStart: Date;
	/** Where the next day and week begin (a screen open across midnight starts counting anew). */
	dayEnd: Date;
	weekEnd: Date;
}

/** The time zone a cookie names when the runtime knows it, else UTC. */
export function validTimeZone(name: string | undefined): string {
	if (!name || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return 'UTC';
	try {
		return wallClockFormat(name).resolvedOptions().timeZone;
	} catch {
		return 'UTC';
	}
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

// Building an Intl.DateTimeFormat costs far more than using one: one per time zone, kept.
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();
function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
	let format = wallClockFormats.get(timeZone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
			weekday: 'short'
		});
		// Time zones come from a validated cookie: a few hundred names at most.
		if (wallClockFormats.size < 1000) wallClockFormats.set(timeZone, format);
	}
	return format;
}

/** The wall-clock date, time and weekday of an instant in a time zone. */
function wallClock(at: Date, timeZone: string) {
	const parts = Object.fromEntries(
		wallClockFormat(timeZone)
			.formatToParts(at)
			.map((p) => [p.type, p.value])
	);
	return {
		year: Number(parts.year),
		month: Number(parts.month),
		day: Number(parts.day),
		asUtc: Date.UTC(
			Number(parts.year),
			Number(parts.month) - 1,
			Number(parts.day),
			Number(parts.hour),
			Number(parts.minute),
			Number(parts.second)
		),
		weekday: WEEKDAYS.indexOf(parts.weekday)
	};
}

/** The instant of local midnight starting a date (year, month, day) in a time zone. */
function localMidnight(year: number, month: number, day: number, timeZone: string): Date {
	const naive = Date.UTC(year, month - 1, day);
	// The zone's offset at the guess, then again at the corrected instant (a DST change that day).
	let guess = naive;
	for (let i = 0; i < 2; i++) {
		const offset = wallClock(new Date(guess), timeZone).asUtc - guess;
		guess = naive - offset;
	}
	return new Date(guess);
}

/** Where the reviewer's "today" and "this week" (ISO, from Monday 00:00) begin, in `timeZone`. */
export function workdayBounds(now: Date, timeZone: string): WorkdayBounds {
	const wall = wallClock(now, timeZone);
	const midnight = (daysFromToday: number) => {
		const d = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + daysFromToday));
		return localMidnight(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), timeZone);
	};
	return {
		timeZone,
		dayStart: midnight(0),
		weekStart: midnight(-wall.weekday),
		dayEnd: midnight(1),
		weekEnd: midnight(7 - wall.weekday)
	};
}

/** The counters of the review screen. */
export interface WorkdayCounts {
	/**
	 * The reviewer's first submissions (amendments not counted) since the day began, hidden gold
	 * checks included: the screen counts every item it showed alike.
	 */
	today: number;
	/** The same since the week began. */
	week: number;
	/**
	 * Items the reviewer could be given next, now: pending tasks and expired leases, less the
	 * secondary rounds of their own items, tasks reopened after an exclusion of items they worked on
	 * and what they skipped (the rules of review_claim_next).
	 * The item they hold is not counted; items other reviewers hold now are not either.
	 */
	left: number;
	/** Of `left`, independent second reviews. */
	leftSecondary: number;
	/** Both are counted up to this many: a count above it means "more than `leftCap`". */
	leftCap: number;
}

/**
 * The review screen's counters in one statement: the reviewer's submissions today and this week
 * (index on review (reviewer_id, submitted_at)) and what is left in the queue for them (the
 * partial indexes of pending tasks and of leases).
 */
export async function workdayCounts(
	db: Db | Tx,
	userId: string,
	bounds: WorkdayBounds,
	now = new Date(),
	cap = REVIEW_LEFT_CAP
): Promise<WorkdayCounts> {
	const at = now.toISOString();
	// Tasks the claim could give this reviewer, up to one past the cap: the waiting ones (partial
	// index review_task_claimable, led by the round) and the leases that ran out (partial index
	// review_task_leased), each read by its own index rather than one scan with an OR.
	const offered = sql`(t.excluded_user_id is null or t.excluded_user_id <> ${userId})
		and (not t.reopened or review_task_open_to(t.id, t.item_id, ${userId}))
		and not exists (select 1 from task_skip s where s.task_id = t.id and s.user_id = ${userId})`;
	const open = (also: SQL) => sql`
		(select 1 from review_task t
			where t.state = 'pending' and not t.awaits_passage and ${also} and ${offered} limit ${cap + 1})
		union all
		(select 1 from review_task t
			where t.state = 'leased' and t.lease_expires_at <= ${at}::timestamptz and not t.awaits_passage and ${also} and ${offered}
			limit ${cap + 1})
		limit ${cap + 1}`;
	const [row] = rowsOf<{
		today: number;
		week: number;
		left: number;
		left_secondary: number;
		check_every: number | null;
		claims: number | null;
		pairs: number | null;
	}>(
		await db.execute(sql`
			with mine as (
				select r.submitted_at from review r
				where r.reviewer_id = ${userId} and r.revision = 1
					and r.submitted_at >= ${bounds.weekStart.toISOString()}::timestamptz
				union all
				select c.submitted_at from review_check c
				where c.reviewer_id = ${userId} and c.state = 'done'
					and c.submitted_at >= ${bounds.weekStart.toISOString()}::timestamptz
			)
			select
				(select count(*) from mine
					where submitted_at >= ${bounds.dayStart.toISOString()}::timestamptz)::int as today,
				(select count(*) from mine)::int as week,
				(select count(*) from (${open(sql`true`)}) o)::int as left,
				(select count(*) from (${open(sql`t.round = 'secondary'`)}) o)::int as left_secondary,
				r.check_every,
				(select claims from reviewer_claims where user_id = ${userId}) as claims,
				case when r.check_every is not null then (select count(*)::int from review_gold g
					where g.retired_at is null
						and not exists (select 1 from review_check c
							where c.gold_id = g.id and c.reviewer_id = ${userId})
						and not exists (select 1 from review_gold_answer a
							where a.gold_id = g.id and a.reviewer_id = ${userId})) end as pairs
			from (select 1) one left join reviewer_round r on r.id = 1`)
	);
	const live = Number(row.left);
	const checks =
		row.check_every === null
			? 0
			: upcomingChecks(userId, Number(row.claims ?? 0), Math.min(live, cap + 1), {
					every: Number(row.check_every),
					pairs: Number(row.pairs ?? 0)
				});
	return {
		today: row.today,
		week: row.week,
		left: live + checks,
		leftSecondary: row.left_secondary,
		leftCap: cap
	};
}

/**
 * How many hidden gold checks the reviewer's next claims will bring while `live` items are left
 * for them: claim j (0-based, `claims` made so far) is a check when it falls on its block's drawn
 * place (`review_claim_next`: md5('<user>:check:<block>'), first 32 bits, modulo `every`) and a
 * pair is left. Counted into the items left, so the count falls by one for every item shown,
 * whichever kind it is.
 */
export function upcomingChecks(
	userId: string,
	claims: number,
	live: number,
	options: { every: number; pairs: number }
): number {
	const { every, pairs } = options;
	let checks = 0;
	let consumed = 0;
	let block = -1;
	let place = -1;
	for (let j = claims; consumed < live; j++) {
		if (Math.floor(j / every) !== block) {
			block = Math.floor(j / every);
			const digest = createHash('md5').update(`${userId}:check:${block}`).digest('hex');
			place = parseInt(digest.slice(0, 8), 16) % every;
		}
		if (j % every === place && checks < pairs) checks++;
		else consumed++;
	}
	return checks;
}

/**
 * Gives the reviewer a fresh lease of the dataset's length on a task they were leased, if no
 * one else has taken it since (also after it expired): the same token, so the form on screen
 * still submits. Audited as `review_task.lease` with `renewed`. Refused with `not_leased`
 * otherwise; nothing changes then.
 */
export async function renewLease(
	db: Db | Tx,
	userId: string,
	input: { taskId: number; token: string },
	now = new Date()
): Promise<Pick<Lease, 'taskId' | 'leaseExpiresAt'>> {
	const rows = rowsOf<{ id: number; lease_expires_at: Date | string }>(
		await db.execute(sql`
			with renewed as (
				update ${reviewTask} t set leased_at = ${now.toISOString()}::timestamptz,
					lease_expires_at = ${now.toISOString()}::timestamptz + make_interval(mins => (
						select d.lease_minutes from qa_item i join dataset d on d.id = i.dataset_id
						where i.id = t.item_id))
				where t.id = ${input.taskId} and t.state = 'leased' and t.leased_by = ${userId}
					and t.lease_token = ${input.token}
				returning t.id, t.round, t.item_id, t.lease_expires_at
			), audited as (
				insert into audit_event (actor_id, action, object_type, object_id, after)
				select ${userId}, 'review_task.lease', 'review_task', r.id::text,
					jsonb_build_object('round', r.round, 'itemId', r.item_id, 'renewed', true, 'expiresAt',
						to_char(r.lease_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
				from renewed r
			)
			select id, lease_expires_at from renewed`)
	);
	if (rows.length === 0)
		throw new DomainError(
			'not_leased',
			'This item is no longer leased to you: another reviewer has been given it since your lease expired, or it was submitted. Nothing was changed.'
		);
	return { taskId: rows[0].id, leaseExpiresAt: new Date(rows[0].lease_expires_at) };
}

/** The counters of the review screen and the time zone they were counted in. */
export async function reviewerWorkday(
	db: Db | Tx,
	userId: string,
	timeZoneName: string | undefined,
	now = new Date()
): Promise<WorkdayCounts & { timeZone: string; dayEnd: number; weekEnd: number }> {
	const bounds = workdayBounds(now, validTimeZone(timeZoneName));
	return {
		...(await workdayCounts(db, userId, bounds, now)),
		timeZone: bounds.timeZone,
		dayEnd: bounds.dayEnd.getTime(),
		weekEnd: bounds.weekEnd.getTime()
	};
}
