// A ranking as labels: each answer's tag (`<model>/tag`) and rank (`<model>/rank`), answers named
// by their model (`reference` for the reference answer).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import { readLabels, SOURCE_NAME_SQL } from '../label-rows';

/** Labels of a ranking study's submitted rankings. */
export function rankingLabels(db: Db, studyId: number, where: SQL) {
	const source = sql.raw(SOURCE_NAME_SQL);
	return readLabels(
		db,
		sql`select a.id as assignment_id, q.id as question_id, a.physician_id as rater_id,
			a.submitted_at, r.time_on_task_ms, l.key, l.label
		from assignment a
		join study_question q on q.id = a.study_question_id
		join ranking r on r.assignment_id = a.id
		join ranking_entry e on e.ranking_id = r.id
		join candidate c on c.id = e.candidate_id
		cross join lateral (values (${source} || '/tag', e.tag::text),
			(${source} || '/rank', e.rank::text)) as l(key, label)
		where q.study_id = ${studyId} and a.state = 'submitted' and ${where}
		order by a.id, l.key`
	);
}
