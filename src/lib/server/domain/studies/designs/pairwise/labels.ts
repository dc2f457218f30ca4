// A pairwise judgement as labels: which answer is preferred overall (`preferred`) and on each
// aspect asked (`preferred/<aspect>`), named by its model (`reference` for the reference answer),
// or `tie` — so the label does not depend on which side the answer was shown.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import { readLabels } from '../label-rows';

const name = (candidate: SQL) =>
	sql`(select coalesce(m.name, 'reference') from candidate c left join model m on m.id = c.model_id where c.id = ${candidate})`;

/** Labels of a pairwise study's submitted judgements. */
export function pairwiseLabels(db: Db, studyId: number, where: SQL) {
	const pick = (outcome: SQL) =>
		sql`case ${outcome} when 'left' then ${name(sql`j.left_candidate_id`)} when 'right' then ${name(sql`j.right_candidate_id`)} else 'tie' end`;
	return readLabels(
		db,
		sql`select a.id as assignment_id, q.id as question_id, a.physician_id as rater_id,
			a.submitted_at, j.time_on_task_ms, l.key, l.label
		from assignment a
		join study_question q on q.id = a.study_question_id
		join pairwise_judgement j on j.assignment_id = a.id
		cross join lateral (
			select 'preferred' as key, ${pick(sql`j.outcome::text`)} as label
			union all
			select 'preferred/' || p.aspect, ${pick(sql`p.outcome`)}
			from pairwise_aspect_preference p where p.judgement_id = j.id
		) as l
		where q.study_id = ${studyId} and a.state = 'submitted' and ${where}
		order by a.id, l.key`
	);
}
