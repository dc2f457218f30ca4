// A rubric judgement as labels: each answer's score on each sub-aspect (`<model>/<sub-aspect>`),
// answers named by their model (`reference` for the reference answer).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import { readLabels, SOURCE_NAME_SQL } from '../label-rows';

/** Labels of a rubric study's submitted judgements. */
export function rubricLabels(db: Db, studyId: number, where: SQL) {
	const source = sql.raw(SOURCE_NAME_SQL);
	return readLabels(
		db,
		sql`select a.id as assignment_id, q.id as question_id, a.physician_id as rater_id,
			a.submitted_at, j.time_on_task_ms, ${source} || '/' || s.sub_aspect as key,
			s.score::text as label
		from assignment a
		join study_question q on q.id = a.study_question_id
		join rubric_judgement j on j.assignment_id = a.id
		join rubric_score s on s.judgement_id = j.id
		join candidate c on c.id = s.candidate_id
		where q.study_id = ${studyId} and a.state = 'submitted' and ${where}
		order by a.id, key`
	);
}
