// The pairwise design's figures: the stored preferences read as rows for src/lib/stats/ (one
// definition of each statistic) and the report the study's agreement page shows: the
// Bradley–Terry leaderboard with intervals (plain and length-controlled), the win / tie / loss
// matrix, position and verbosity bias, agreement between physicians, the judges against them, and
// the leaderboards the same questions got in other studies.
import { asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../../db/client';
import { assignment, candidate, model, studyQuestion, user } from '../../../../db/schema';
import type { Battle } from '../../../../../stats/bradley-terry';
import { preferenceBattles, type PreferenceRow } from '../../../../../stats/preference';
import type { LabelledBattles } from '../plug';
import { questionKeySql } from '../../question-key';
import { pairwiseAspectPreference, pairwiseJudgement } from './schema';

const leftAnswer = alias(candidate, 'left_answer');
const rightAnswer = alias(candidate, 'right_answer');
const leftModel = alias(model, 'left_model');
const rightModel = alias(model, 'right_model');

/** A preference as the statistics read it, with the judgement's id and aspects. */
export interface StoredPreference extends PreferenceRow {
	judgementId: number;
	/** Per aspect code: left, right or tie. */
	aspects: Record<string, 'left' | 'right' | 'tie'>;
}

/**
 * Every preference of a pairwise study, in submission order: the question keyed across studies,
 * the physician by pseudonym, the models by name (`reference` for the reference answer) on the
 * side each was shown, the outcome as shown and the lengths of the shown texts.
 */
export async function preferenceRows(db: Db, studyId: number): Promise<StoredPreference[]> {
	const rows = await db
		.select({
			judgementId: pairwiseJudgement.id,
			question: questionKeySql(),
			rater: user.pseudonym,
			leftReference: leftAnswer.isReference,
			leftModel: leftModel.name,
			rightReference: rightAnswer.isReference,
			rightModel: rightModel.name,
			outcome: pairwiseJudgement.outcome,
			leftLength: sql<number>`char_length(coalesce(${leftAnswer.shownText}, ${leftAnswer.text}))::int`,
			rightLength: sql<number>`char_length(coalesce(${rightAnswer.shownText}, ${rightAnswer.text}))::int`
		})
		.from(pairwiseJudgement)
		.innerJoin(assignment, eq(assignment.id, pairwiseJudgement.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(user, eq(user.id, pairwiseJudgement.raterId))
		.innerJoin(leftAnswer, eq(leftAnswer.id, pairwiseJudgement.leftCandidateId))
		.innerJoin(rightAnswer, eq(rightAnswer.id, pairwiseJudgement.rightCandidateId))
		.leftJoin(leftModel, eq(leftModel.id, leftAnswer.modelId))
		.leftJoin(rightModel, eq(rightModel.id, rightAnswer.modelId))
		.where(eq(studyQuestion.studyId, studyId))
		.orderBy(asc(pairwiseJudgement.id));
	const aspects = await db
		.select({
			judgementId: pairwiseAspectPreference.judgementId,
			aspect: pairwiseAspectPreference.aspect,
			outcome: pairwiseAspectPreference.outcome
		})
		.from(pairwiseAspectPreference)
		.innerJoin(pairwiseJudgement, eq(pairwiseJudgement.id, pairwiseAspectPreference.judgementId))
		.innerJoin(assignment, eq(assignment.id, pairwiseJudgement.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.where(eq(studyQuestion.studyId, studyId));
	const aspectsOf = new Map<number, Record<string, 'left' | 'right' | 'tie'>>();
	for (const a of aspects)
		aspectsOf.set(a.judgementId, { ...aspectsOf.get(a.judgementId), [a.aspect]: a.outcome });
	return rows.map((r) => ({
		judgementId: r.judgementId,
		question: r.question,
		rater: r.rater,
		left: r.leftReference ? 'reference' : (r.leftModel ?? 'unknown'),
		right: r.rightReference ? 'reference' : (r.rightModel ?? 'unknown'),
		outcome: r.outcome,
		leftLength: r.leftLength,
		rightLength: r.rightLength,
		aspects: aspectsOf.get(r.judgementId) ?? {}
	}));
}

/** Battles of one aspect's preferences (left model = model_a). */
function aspectBattles(rows: StoredPreference[], aspect: string): Battle[] {
	return rows.flatMap((r) => {
		const o = r.aspects[aspect];
		if (!o) return [];
		return [
			{
				question: r.question,
				modelA: r.left,
				modelB: r.right,
				winner: o === 'left' ? 'model_a' : o === 'right' ? 'model_b' : 'tie'
			} satisfies Battle
		];
	});
}

/** The battles of a pairwise study: the overall preferences, then each aspect's that was given. */
export async function pairwiseStudyBattles(db: Db, studyId: number): Promise<LabelledBattles[]> {
	const rows = await preferenceRows(db, studyId);
	const aspects = [...new Set(rows.flatMap((r) => Object.keys(r.aspects)))].sort();
	return [
		{ label: 'Preferences', battles: preferenceBattles(rows) },
		...aspects.map((a) => ({ label: `Aspect ${a} preferences`, battles: aspectBattles(rows, a) }))
	];
}
