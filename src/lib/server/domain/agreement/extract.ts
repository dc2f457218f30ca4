import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import type { QaType, Tag, Verdict } from '../../../constants';
import { exclusionsFingerprintSql } from '../exclusions';

/** One review in long format: the latest revision of one round of one item. */
export interface ReviewJudgement {
	item: number;
	type: QaType;
	round: 'primary' | 'secondary';
	reviewer: string;
	verdict: Verdict;
	relevance: number;
}

/**
 * Latest revision of each round of each item of a dataset (of the round's newest task: a task
 * reopened after an exclusion replaces the excluded review), in one query; a review its reviewer's
 * exclusion (of every study, covering the revision's submission) takes out is left out.
 */
export async function reviewJudgements(db: Db, datasetId: number): Promise<ReviewJudgement[]> {
	const result = await db.execute(sql`
		select item, type, round, reviewer, verdict, relevance from (
			select distinct on (r.item_id, r.round)
				r.item_id as item, i.type, r.round, u.pseudonym as reviewer, r.verdict, r.relevance,
				(r.reviewer_id not in (select rater_id from exclusion where revoked_at is null)
					or judgement_counts(r.reviewer_id, null, r.submitted_at)) as counts
			from review r
			join qa_item i on i.id = r.item_id
			join "user" u on u.id = r.reviewer_id
			where i.dataset_id = ${datasetId}
			order by r.item_id, r.round, r.task_id desc, r.revision desc) latest
		where counts
		order by item, round`);
	return rowsOf<ReviewJudgement>(result).map((r) => ({
		...r,
		item: Number(r.item),
		relevance: Number(r.relevance)
	}));
}

/** How the dataset's double-reviewed items ended: agreed, adjudicated, or waiting for adjudication. */
export async function verificationOutcomes(db: Db, datasetId: number) {
	const result = await db.execute(sql`
		select
			count(*) filter (where provenance = 'agreed')::int as agreed,
			count(*) filter (where provenance = 'adjudicated')::int as adjudicated,
			count(*) filter (where status = 'awaiting_adjudication')::int as pending
		from qa_item where dataset_id = ${datasetId}`);
	const [row] = rowsOf<{ agreed: number; adjudicated: number; pending: number }>(result);
	return {
		agreed: Number(row?.agreed ?? 0),
		adjudicated: Number(row?.adjudicated ?? 0),
		pending: Number(row?.pending ?? 0)
	};
}

/** A cheap description of a dataset's judgements: any new or amended review or adjudication changes it. */
export async function verificationFingerprint(db: Db, datasetId: number): Promise<string> {
	const result = await db.execute(sql`
		select
			(select count(*) || ':' || coalesce(max(r.id), 0) from review r
				join qa_item i on i.id = r.item_id where i.dataset_id = ${datasetId}) as reviews,
			(select count(*) || ':' || coalesce(max(a.id), 0) from adjudication a
				join qa_item i on i.id = a.item_id where i.dataset_id = ${datasetId}) as adjudications,
			${exclusionsFingerprintSql} as exclusions`);
	const [row] = rowsOf<{ reviews: string; adjudications: string; exclusions: string }>(result);
	return `reviews ${row.reviews}; adjudications ${row.adjudications}; exclusions ${row.exclusions}`;
}

/** One physician's rank and tag of one candidate, with what the candidate is and where it was shown. */
export interface RankingJudgement {
	question: number;
	item: number;
	rater: string;
	candidate: number;
	/** Model name, or null for the reference answer. */
	model: string | null;
	responseId: number | null;
	rank: number;
	tag: Tag;
	/** 1 for the first answer shown (A), 2 for B, … */
	position: number;
}

/**
 * Every ranked candidate of a study in long format, in one query: judgements that count only
 * (no excluded rater's, no gold question's).
 */
export async function rankingJudgements(db: Db, studyId: number): Promise<RankingJudgement[]> {
	const result = await db.execute(sql`
		select q.id as question, q.item_id as item, u.pseudonym as rater, c.id as candidate,
			m.name as model, c.response_id as "responseId", e.rank, e.tag,
			e.display_position as position
		from ranking_entry e
		join ranking k on k.id = e.ranking_id
		join "user" u on u.id = k.physician_id
		join candidate c on c.id = e.candidate_id
		join study_question q on q.id = c.study_question_id
		left join model m on m.id = c.model_id
		where q.study_id = ${studyId} and not q.gold
			and (k.physician_id not in (select rater_id from exclusion where revoked_at is null)
				or judgement_counts(k.physician_id, q.study_id, k.submitted_at))
		order by q.id, u.pseudonym, e.display_position`);
	// Numbers whatever the driver gives (a string for a bigint), converted in place: 120,000 rows
	// of a large study are not copied again.
	const rows = rowsOf<RankingJudgement>(result);
	for (const r of rows) {
		r.question = Number(r.question);
		r.item = Number(r.item);
		r.candidate = Number(r.candidate);
		r.responseId = r.responseId === null ? null : Number(r.responseId);
		r.rank = Number(r.rank);
		r.position = Number(r.position);
	}
	return rows;
}

/** A scoring run that scored some of a study's candidates. */
export interface StudyRun {
	id: number;
	mode: string;
	embedder: string;
	scorerVersion: string;
	finishedAt: Date | null;
	scored: number;
}

/** Finished scoring runs that scored any of the study's candidates, newest first. */
export async function studyRuns(db: Db, studyId: number): Promise<StudyRun[]> {
	const result = await db.execute(sql`
		select r.id, r.mode, r.embedder, r.scorer_version as "scorerVersion",
			r.finished_at as "finishedAt", count(*)::int as scored
		from scoring_run r
		join score s on s.run_id = r.id
		join candidate c on c.response_id = s.response_id
		join study_question q on q.id = c.study_question_id
		where q.study_id = ${studyId} and r.state = 'done'
		group by r.id
		order by r.id desc`);
	return rowsOf<StudyRun>(result).map((r) => ({
		...r,
		id: Number(r.id),
		scored: Number(r.scored),
		finishedAt: r.finishedAt ? new Date(r.finishedAt) : null
	}));
}

/** The metrics read from a score: the headline value and the scorer's continuous metrics. */
export const METRIC_KEYS = [
	'value',
	'semantic',
	'bleu',
	'rouge',
	'meteor',
	'f1',
	'precision',
	'recall'
] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];

/** One run's scores of a study's candidates: metric → value, per response. */
export async function candidateScores(
	db: Db,
	studyId: number,
	runId: number
): Promise<Map<number, Partial<Record<MetricKey, number>>>> {
	const result = await db.execute(sql`
		select s.response_id as "responseId", s.value, s.metrics
		from score s
		where s.run_id = ${runId} and s.response_id in (
			select c.response_id from candidate c
			join study_question q on q.id = c.study_question_id
			where q.study_id = ${studyId} and c.response_id is not null)`);
	const scores = new Map<number, Partial<Record<MetricKey, number>>>();
	for (const row of rowsOf<{ responseId: number; value: number; metrics: unknown }>(result)) {
		const metrics = (
			typeof row.metrics === 'string' ? JSON.parse(row.metrics) : (row.metrics ?? {})
		) as Record<string, unknown>;
		const values: Partial<Record<MetricKey, number>> = { value: Number(row.value) };
		for (const key of METRIC_KEYS) {
			if (key !== 'value' && typeof metrics[key] === 'number') values[key] = metrics[key];
		}
		scores.set(Number(row.responseId), values);
	}
	return scores;
}

/** A cheap description of a study's judgements and of the chosen run's scores. */
export async function studyFingerprint(
	db: Db,
	studyId: number,
	runId: number | null
): Promise<string> {
	const result = await db.execute(sql`
		select
			(select count(*) || ':' || coalesce(max(k.id), 0) from ranking k
				join assignment a on a.id = k.assignment_id
				join study_question q on q.id = a.study_question_id
				where q.study_id = ${studyId}) as rankings,
			(select count(*) || ':' || coalesce(max(id), 0) from score
				where run_id = ${runId ?? 0}) as scores,
			${exclusionsFingerprintSql} as exclusions,
			(select count(*) filter (where gold) from study_question
				where study_id = ${studyId}) as gold`);
	const [row] = rowsOf<{ rankings: string; scores: string; exclusions: string; gold: string }>(
		result
	);
	return `rankings ${row.rankings}; run ${runId ?? 'none'} scores ${row.scores}; exclusions ${row.exclusions}; gold ${row.gold}`;
}

/**
 * A cheap description of what a rubric study's report reads: its score sheets (count and last
 * submission), its judges' scores and preferences (count and sum, as a re-import may replace them
 * row for row; the judge ids: a judge dropped and imported again), and the scoring-run scores of its answers (count and largest id).
 */
export async function rubricFingerprint(db: Db, studyId: number): Promise<string> {
	const result = await db.execute(sql`
		select
			(select count(*) || ':' || coalesce(max(j.id), 0) from rubric_judgement j
				join assignment a on a.id = j.assignment_id
				join study_question q on q.id = a.study_question_id
				where q.study_id = ${studyId}) as sheets,
			(select count(*) || ':' || coalesce(sum(s.score), 0) || ':' || coalesce(max(g.id), 0)
				from judge_score s
				join judge g on g.id = s.judge_id where g.study_id = ${studyId}) as judge_scores,
			(select count(*) || ':' || coalesce(sum(case p.preferred when 'A' then 1 when 'B' then 2
				else 4 end), 0) || ':' || coalesce(max(g.id), 0) from judge_preference p
				join judge g on g.id = p.judge_id where g.study_id = ${studyId}) as preferences,
			(select count(*) || ':' || coalesce(max(s.id), 0) from score s
				join candidate c on c.response_id = s.response_id
				join study_question q on q.id = c.study_question_id
				where q.study_id = ${studyId}) as run_scores,
			${exclusionsFingerprintSql} as exclusions,
			(select count(*) filter (where gold) from study_question
				where study_id = ${studyId}) as gold`);
	const [row] = rowsOf<Record<string, string>>(result);
	return `sheets ${row.sheets}; judge scores ${row.judge_scores}; preferences ${row.preferences}; run scores ${row.run_scores}; exclusions ${row.exclusions}; gold ${row.gold}`;
}

/** What a pairwise report depends on: the study's preferences and its judges' preferences. */
export async function pairwiseFingerprint(db: Db, studyId: number): Promise<string> {
	const result = await db.execute(sql`
		select
			(select count(*) || ':' || coalesce(max(j.id), 0) from pairwise_judgement j
				join assignment a on a.id = j.assignment_id
				join study_question q on q.id = a.study_question_id
				where q.study_id = ${studyId}) as judgements,
			(select count(*) || ':' || coalesce(sum(case p.preferred when 'A' then 1 when 'B' then 2
				else 4 end), 0) || ':' || coalesce(max(g.id), 0) from judge_preference p
				join judge g on g.id = p.judge_id where g.study_id = ${studyId}) as preferences,
			${exclusionsFingerprintSql} as exclusions,
			(select count(*) filter (where gold) from study_question
				where study_id = ${studyId}) as gold`);
	const [row] = rowsOf<Record<string, string>>(result);
	return `judgements ${row.judgements}; judge preferences ${row.preferences}; exclusions ${row.exclusions}; gold ${row.gold}`;
}

/** What an evidence study's report depends on: its finished assessments (never changed once finished). */
export async function evidenceFingerprint(db: Db, studyId: number): Promise<string> {
	const result = await db.execute(sql`
		select
			(select count(*) || ':' || coalesce(max(e.assignment_id), 0) || ':' ||
				coalesce(extract(epoch from max(e.submitted_at))::text, '')
			from evidence_assessment e
			join assignment a on a.id = e.assignment_id
			join study_question q on q.id = a.study_question_id
			where q.study_id = ${studyId} and e.submitted_at is not null) as assessments,
			${exclusionsFingerprintSql} as exclusions,
			(select count(*) filter (where gold) from study_question
				where study_id = ${studyId}) as gold`);
	const [row] = rowsOf<Record<string, string>>(result);
	return `assessments ${row.assessments}; exclusions ${row.exclusions}; gold ${row.gold}`;
}

/**
 * What the compared leaderboards depend on: every study's judgements of every design (a judgement
 * is never changed, only added, so counts and newest ids tell every change) and the studies.
 */
export async function leaderboardFingerprint(db: Db): Promise<string> {
	const result = await db.execute(sql`
		select
			(select count(*) || ':' || coalesce(max(id), 0) from ranking) as rankings,
			(select count(*) || ':' || coalesce(max(id), 0) from rubric_judgement) as sheets,
			(select count(*) || ':' || coalesce(max(id), 0) from pairwise_judgement) as preferences,
			(select count(*) || ':' || coalesce(max(id), 0) || ':' ||
				count(*) filter (where purpose = 'qualification') from study) as studies,
			${exclusionsFingerprintSql} as exclusions,
			(select count(*) filter (where gold) from study_question) as gold`);
	const [row] = rowsOf<Record<string, string>>(result);
	return `rankings ${row.rankings}; sheets ${row.sheets}; preferences ${row.preferences}; studies ${row.studies}; exclusions ${row.exclusions}; gold ${row.gold}`;
}
