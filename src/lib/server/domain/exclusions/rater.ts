// What the organiser's exclusions page shows of a person: who they are, and the studies they
// judged in (the scope an exclusion can take) with how many judgements each.
import { eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { user } from '../../db/schema';

/** A person as the exclusions page names them, or null. */
export async function raterOf(db: Db, raterId: string) {
	const [row] = await db
		.select({
			id: user.id,
			displayName: user.displayName,
			pseudonym: user.pseudonym,
			roles: user.roles
		})
		.from(user)
		.where(eq(user.id, raterId));
	return row ?? null;
}

/** The studies a rater submitted judgements in (non-gold questions), newest first. */
export async function raterStudies(
	db: Db,
	raterId: string
): Promise<{ id: number; name: string; judgements: number }[]> {
	const result = await db.execute(sql`
		select s.id, s.name, count(*)::int as judgements
		from assignment a
		join study_question q on q.id = a.study_question_id
		join study s on s.id = q.study_id
		where a.physician_id = ${raterId} and a.state = 'submitted' and not q.gold
		group by s.id, s.name
		order by s.id desc`);
	return rowsOf<{ id: number; name: string; judgements: number }>(result).map((r) => ({
		id: Number(r.id),
		name: r.name,
		judgements: Number(r.judgements)
	}));
}

/**
 * A day range as an exclusion stores it: from the first day's 00:00 UTC to the 00:00 UTC after
 * the last day (half-open), each end open when its day is not given. Days are `YYYY-MM-DD`.
 */
export function dayRange(
	firstDay: string | undefined,
	lastDay: string | undefined
): { from: Date | null; until: Date | null } {
	const day = (d: string) => new Date(`${d}T00:00:00.000Z`);
	const from = firstDay ? day(firstDay) : null;
	const until = lastDay ? new Date(day(lastDay).getTime() + 24 * 60 * 60 * 1000) : null;
	return { from, until };
}
