import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/client';

export interface QuestionProgress {
	questionId: number;
	itemId: number;
	question: string;
	submitted: number;
	leased: number;
	openSlots: number;
}
export interface PhysicianProgress {
	physician: string;
	submitted: number;
	leased: number;
	medianSeconds: number | null;
}

/** Per-question and per-physician progress of a study (pseudonyms, not names). */
export async function studyProgress(db: Db, studyId: number) {
	const questions = rowsOf<QuestionProgress>(
		await db.execute(sql`
			select q.id as "questionId", q.item_id as "itemId", i.question,
				q.completed::int as submitted,
				(select count(*)::int from assignment a where a.study_question_id = q.id and a.state = 'leased' and a.lease_expires_at > now()) as leased,
				q.open_slots::int as "openSlots"
			from study_question q join qa_item i on i.id = q.item_id
			where q.study_id = ${studyId}
			order by q.id`)
	);
	const physicians = rowsOf<PhysicianProgress>(
		await db.execute(sql`
			select u.pseudonym as physician,
				count(*) filter (where a.state = 'submitted')::int as submitted,
				count(*) filter (where a.state = 'leased' and a.lease_expires_at > now())::int as leased,
				(percentile_cont(0.5) within group (order by r.time_on_task_ms) / 1000)::float8 as "medianSeconds"
			from assignment a
			join study_question q on q.id = a.study_question_id
			join "user" u on u.id = a.physician_id
			left join ranking r on r.assignment_id = a.id
			where q.study_id = ${studyId}
			group by u.pseudonym
			order by submitted desc, u.pseudonym`)
	);
	const [k] = rowsOf<{ k: number }>(
		await db.execute(
			sql`select raters_per_question::int as k from ranking_study where id = ${studyId}`
		)
	);
	const target = (k?.k ?? 0) * questions.length;
	const submitted = questions.reduce((n, q) => n + q.submitted, 0);
	// How many questions have 0, 1, …, k submitted rankings.
	const histogram = Array.from({ length: (k?.k ?? 0) + 1 }, (_, n) => ({
		label: `${n} of ${k?.k ?? 0} rankings`,
		value: questions.filter((q) => q.submitted === n).length
	}));
	return { questions, physicians, submitted, target, histogram };
}
