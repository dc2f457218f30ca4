// The rubric design's figures: the stored scores read as rows for src/lib/stats/rubric.ts and
// judges.ts (one definition of each statistic), and the report the study and agreement pages, the
// bundle and `cliniq stats` show: agreement per sub-aspect and aspect, model means, score
// distributions, position bias, and the automatic judges against the physicians.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import {
	assignment,
	candidate,
	judge,
	judgePreference,
	judgeScore,
	model,
	score,
	scoringRun,
	studyQuestion
} from '../../../../db/schema';
import {
	modelMeans,
	positionBias,
	rubricAgreement,
	scoreDistributions,
	type BootstrapOptions,
	type RubricShape,
	type ScoreRow
} from '../../../../../stats/rubric';
import {
	judgeAgreement,
	judgePoints,
	judgePreferenceAgreement,
	rankJudges,
	type JudgePreferenceRow,
	type JudgeScoreRow
} from '../../../../../stats/judges';
import { subAspectsOf, type RubricDefinition } from '../../../../../schemas/rubric';
import { frozenRubric } from './submit';
import { rubricJudgement, rubricScore } from './schema';
import { countsInFigures, excludedCounts } from '../../../exclusions';

/** The shape the statistics need: aspects with their sub-aspect codes, and the common scale. */
export function rubricShape(definition: RubricDefinition): RubricShape {
	const subs = subAspectsOf(definition);
	return {
		aspects: definition.aspects.map((a) => ({
			code: a.code,
			subAspects: a.subAspects.map((s) => s.code)
		})),
		scale: {
			min: Math.min(...subs.map((s) => s.scale.min)),
			max: Math.max(...subs.map((s) => s.scale.max))
		}
	};
}

/**
 * Every physician score of a rubric study that counts (exclusions and gold questions left out) as
 * a statistics row: the unit is the answer (candidate),
 * clustered by study question; `slot` is the judgement's place among its question's judgements in
 * submission order (for the ICC's rater slots).
 */
export async function rubricScoreRows(db: Db, studyId: number): Promise<ScoreRow[]> {
	const rows = await db
		.select({
			question: studyQuestion.id,
			candidate: rubricScore.candidateId,
			isReference: candidate.isReference,
			model: model.name,
			rater: rubricJudgement.raterId,
			subAspect: rubricScore.subAspect,
			score: rubricScore.score,
			side: rubricScore.side,
			slot: sql<number>`(dense_rank() over (partition by ${studyQuestion.id} order by ${rubricJudgement.id}))::int`
		})
		.from(rubricScore)
		.innerJoin(rubricJudgement, eq(rubricJudgement.id, rubricScore.judgementId))
		.innerJoin(assignment, eq(assignment.id, rubricJudgement.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(candidate, eq(candidate.id, rubricScore.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(
			and(
				eq(studyQuestion.studyId, studyId),
				countsInFigures(
					rubricJudgement.raterId,
					studyQuestion.studyId,
					rubricJudgement.submittedAt,
					studyQuestion.gold
				)
			)
		)
		.orderBy(asc(studyQuestion.id), asc(rubricJudgement.id));
	return rows.map((r) => ({
		question: String(r.question),
		candidate: String(r.candidate),
		model: r.isReference ? 'reference' : (r.model ?? 'unknown'),
		rater: r.rater,
		subAspect: r.subAspect,
		score: r.score,
		side: r.side,
		slot: Number(r.slot)
	}));
}

/** What automatic judges said about a study's answers, as the statistics read it. */
export interface JudgeInput {
	scores: JudgeScoreRow[];
	preferences: JudgePreferenceRow[];
}

/** Resamples of the report's bootstrap intervals, and their seed (fixed: a report repeats). */
export const REPORT_BOOTSTRAP: BootstrapOptions = { resamples: 1000, seed: 'rubric-report' };

/**
 * The rubric report of a study: null when it is not a rubric study or has not opened. A judge's
 * `overall` scores (a metric scoring whole answers) are compared with the physicians' overall mean.
 */
export async function rubricReport(
	db: Db,
	studyId: number,
	judges: JudgeInput = { scores: [], preferences: [] },
	options: BootstrapOptions = REPORT_BOOTSTRAP
) {
	const frozen = await frozenRubric(db, studyId);
	if (!frozen) return null;
	const shape = rubricShape(frozen.definition);
	const rows = await rubricScoreRows(db, studyId);
	const known = new Set(subAspectsOf(frozen.definition).map((s) => s.code));
	const judgeScores = judges.scores.filter(
		(s) => known.has(s.subAspect) || s.subAspect === 'overall'
	);
	const scored = rows.length > 0;
	const agreement = scored ? rubricAgreement(rows, shape, options) : [];
	const judged =
		scored && judgeScores.length ? judgeAgreement(rows, judgeScores, shape, options) : [];
	return {
		rubric: { version: frozen.version, definition: frozen.definition },
		shape,
		scores: rows.length,
		sheets: new Set(rows.map((r) => `${r.question}:${r.rater}`)).size,
		/** Score sheets the standing exclusions leave out of every figure. */
		excluded: await excludedCounts(db, studyId),
		agreement,
		models: scored ? modelMeans(rows, shape, options) : [],
		distributions: scored ? scoreDistributions(rows, shape) : [],
		positionBias: scored ? positionBias(rows, options) : [],
		judges: judged,
		judgeRanking: rankJudges(judged),
		/** Each judge's answers on 'overall' (judge score, physician mean): the scatter plots. */
		judgePoints: judged.length ? judgePoints(rows, judgeScores, shape) : [],
		preferences:
			scored && judges.preferences.length
				? judgePreferenceAgreement(rows, judges.preferences, shape, options)
				: [],
		bootstrap: options
	};
}
export type RubricReport = NonNullable<Awaited<ReturnType<typeof rubricReport>>>;

/**
 * The ClinIQLink automatic scores of a study's answers as judges, one per scoring run that scored
 * them (its headline value per response, criterion `overall`): compared with the physicians by the
 * same measures as any imported judge. Only answers from the QA bank have such scores.
 */
export async function scoringRunJudges(db: Db, studyId: number): Promise<JudgeScoreRow[]> {
	const rows = await db
		.select({
			run: score.runId,
			mode: scoringRun.mode,
			question: candidate.studyQuestionId,
			candidate: candidate.id,
			value: score.value
		})
		.from(candidate)
		.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
		.innerJoin(score, eq(score.responseId, candidate.responseId))
		.innerJoin(scoringRun, eq(scoringRun.id, score.runId))
		.where(eq(studyQuestion.studyId, studyId));
	return rows.map((r) => ({
		judge: `ClinIQLink scores, run #${r.run} (${r.mode})`,
		question: String(r.question),
		candidate: String(r.candidate),
		subAspect: 'overall',
		score: r.value
	}));
}

/** The imported judges' scores and preferences of a study's answers, as the statistics read them. */
export async function studyJudgeInput(db: Db, studyId: number): Promise<JudgeInput> {
	const scores = await db
		.select({
			judge: judge.name,
			question: candidate.studyQuestionId,
			candidate: judgeScore.candidateId,
			criterion: judgeScore.criterion,
			score: judgeScore.score
		})
		.from(judgeScore)
		.innerJoin(judge, eq(judge.id, judgeScore.judgeId))
		.innerJoin(candidate, eq(candidate.id, judgeScore.candidateId))
		.where(eq(judge.studyId, studyId));
	const preferences = await db
		.select({
			judge: judge.name,
			question: candidate.studyQuestionId,
			candidateA: judgePreference.candidateAId,
			candidateB: judgePreference.candidateBId,
			criterion: judgePreference.criterion,
			preferred: judgePreference.preferred
		})
		.from(judgePreference)
		.innerJoin(judge, eq(judge.id, judgePreference.judgeId))
		.innerJoin(candidate, eq(candidate.id, judgePreference.candidateAId))
		.where(eq(judge.studyId, studyId));
	return {
		scores: [
			...scores.map((s) => ({
				judge: s.judge,
				question: String(s.question),
				candidate: String(s.candidate),
				subAspect: s.criterion,
				score: s.score
			})),
			...(await scoringRunJudges(db, studyId))
		],
		preferences: preferences.map((p) => ({
			judge: p.judge,
			question: String(p.question),
			candidateA: String(p.candidateA),
			candidateB: String(p.candidateB),
			preferred: p.preferred,
			subAspect: p.criterion === 'overall' ? null : p.criterion
		}))
	};
}
