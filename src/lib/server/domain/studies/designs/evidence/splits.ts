// How an evidence study's answers are split into sentences, for the organiser: before the study
// opens, each chosen run's answer to each question with its editable split (the run import's, or
// the split the opening will make when none is stored); once open, the split frozen at opening.
import { sql } from 'drizzle-orm';
import { splitAnswer } from '../../../../../text/sentences';
import { rowsOf, type Db } from '../../../../db/client';

export interface SplitSentence {
	position: number;
	text: string;
	citations: string[];
	/** Citations whose document was never imported. */
	missing: string[];
}
export interface SplitAnswer {
	run: string;
	/** The imported answer's id (merges and splits name it); null once the study is open. */
	setResponseId: number | null;
	/** The split is stored (editable before opening) or computed here (made at opening). */
	stored: boolean;
	sentences: SplitSentence[];
}
export interface SplitQuestion {
	questionId: string;
	question: string;
	answers: SplitAnswer[];
}

/** Questions per page of the split view. */
export const SPLIT_PAGE = 10;

/**
 * One page of an evidence study's questions (in the set's order) with every chosen run's answer
 * split into sentences; `total` counts the questions.
 */
export async function studyAnswerSplits(
	db: Db,
	study: { id: number; state: string; questionSetId: number | null },
	page = 1
): Promise<{ total: number; questions: SplitQuestion[] }> {
	if (!study.questionSetId) return { total: 0, questions: [] };
	const offset = (Math.max(1, page) - 1) * SPLIT_PAGE;
	const draft = study.state === 'draft';
	const rows = rowsOf<{
		total: number;
		questionId: string;
		question: string;
		run: string;
		setResponseId: number | null;
		text: string;
		split: { position: number; text: string; citations: string[] }[] | null;
	}>(
		await db.execute(
			draft
				? sql`
		with q as (
			select id, external_id, question, count(*) over ()::int as total from set_question
			where question_set_id = ${study.questionSetId}
			order by id offset ${offset} limit ${SPLIT_PAGE}
		)
		select q.total, q.external_id as "questionId", q.question, m.name as run,
			r.id as "setResponseId", r.text,
			(select json_agg(json_build_object('position', s.position, 'text', s.text,
				'citations', s.citations) order by s.position)
				from evidence_answer_sentence s where s.set_response_id = r.id) as split
		from q
		join set_response r on r.set_question_id = q.id
		join study_model sm on sm.study_id = ${study.id} and sm.model_id = r.model_id
		join model m on m.id = r.model_id
		order by q.id, m.name`
				: sql`
		with q as (
			select set_question_id as id, count(*) over ()::int as total from (
				select distinct set_question_id from study_question where study_id = ${study.id}) d
			order by set_question_id offset ${offset} limit ${SPLIT_PAGE}
		)
		select q.total, sq.external_id as "questionId", sq.question,
			coalesce(m.name, 'reference') as run, null::int as "setResponseId", c.text,
			(select json_agg(json_build_object('position', s.position, 'text', s.text,
				'citations', s.citations) order by s.position)
				from evidence_sentence s where s.candidate_id = c.id) as split
		from q
		join set_question sq on sq.id = q.id
		join study_question u on u.study_id = ${study.id} and u.set_question_id = q.id
		join candidate c on c.study_question_id = u.id
		left join model m on m.id = c.model_id
		order by q.id, run`
		)
	);
	const cited = [
		...new Set(rows.flatMap((r) => (r.split ?? splitAnswer(r.text)).flatMap((s) => s.citations)))
	];
	const known = new Set(
		cited.length
			? rowsOf<{ pmid: string }>(
					await db.execute(
						sql`select pmid from document where pmid = any(${`{${cited.join(',')}}`}::text[])`
					)
				).map((d) => d.pmid)
			: []
	);
	const questions = new Map<string, SplitQuestion>();
	for (const r of rows) {
		const q = questions.get(r.questionId) ?? {
			questionId: r.questionId,
			question: r.question,
			answers: []
		};
		questions.set(r.questionId, q);
		const sentences = r.split ?? splitAnswer(r.text).map((s, i) => ({ ...s, position: i + 1 }));
		q.answers.push({
			run: r.run,
			setResponseId: draft ? r.setResponseId : null,
			stored: r.split !== null,
			sentences: sentences.map((s) => ({
				...s,
				missing: s.citations.filter((p) => !known.has(p))
			}))
		});
	}
	return { total: rows[0]?.total ?? 0, questions: [...questions.values()] };
}
