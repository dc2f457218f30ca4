// An evidence assessment as labels: whether the answer answers the question (`answers`), each
// sentence's relevance (`s<n>/relevance`) and what each cited document says of it
// (`s<n>/<pmid>`). A sentence split into several assertions gives their distinct labels joined by
// `+` in label order, so the label of a sentence does not depend on how its spans were drawn
// beyond what they say.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import { readLabels } from '../label-rows';

/** Labels of an evidence study's finished assessments. */
export function evidenceLabels(db: Db, studyId: number, where: SQL) {
	return readLabels(
		db,
		sql`select a.id as assignment_id, q.id as question_id, a.physician_id as rater_id,
			a.submitted_at, ea.time_on_task_ms, l.key, l.label
		from assignment a
		join study_question q on q.id = a.study_question_id
		join evidence_assessment ea on ea.assignment_id = a.id
		cross join lateral (
			select 'answers' as key, case ea.answers_question when true then 'yes' when false then 'no' end as label
			where ea.answers_question is not null
			union all
			select 's' || s.position || '/relevance', string_agg(distinct s.relevance::text, '+' order by s.relevance::text)
			from evidence_assertion s where s.assignment_id = a.id and s.relevance is not null
			group by s.position
			union all
			select 's' || s.position || '/' || r.pmid, string_agg(distinct r.relation::text, '+' order by r.relation::text)
			from evidence_assertion s join evidence_relation r on r.assertion_id = s.id
			where s.assignment_id = a.id
			group by s.position, r.pmid
		) as l
		where q.study_id = ${studyId} and a.state = 'submitted' and ${where}
		order by a.id, l.key`
	);
}
