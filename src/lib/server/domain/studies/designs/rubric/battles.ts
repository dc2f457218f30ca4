// A rubric study's scores as pairwise battles, one leaderboard per aspect: on each question, the
// model with the higher mean score on the aspect (over its sub-aspects and raters) wins, equal
// means tie (src/lib/stats/preference.ts `rubricBattles`).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import { assignment, candidate, model, studyQuestion } from '../../../../db/schema';
import { rubricBattles } from '../../../../../stats/preference';
import { subAspectsOf } from '../../../../../schemas/rubric';
import type { LabelledBattles } from '../plug';
import { questionKeySql } from '../../question-key';
import { rubricJudgement, rubricScore } from './schema';
import { frozenRubric } from './submit';
import { countsInFigures } from '../../../exclusions';

/** The battles of a rubric study's counting score sheets, per aspect of its frozen rubric (`Aspect CODE: name`). */
export async function rubricStudyBattles(db: Db, studyId: number): Promise<LabelledBattles[]> {
	const frozen = await frozenRubric(db, studyId);
	if (!frozen) return [];
	const aspectOf = new Map(subAspectsOf(frozen.definition).map((s) => [s.code, s.aspect]));
	const rows = await db
		.select({
			question: questionKeySql(),
			rater: rubricJudgement.raterId,
			isReference: candidate.isReference,
			model: model.name,
			subAspect: rubricScore.subAspect,
			score: rubricScore.score
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
		);
	const scores = rows.map((r) => ({
		question: r.question,
		rater: r.rater,
		model: r.isReference ? 'reference' : (r.model ?? 'unknown'),
		aspect: aspectOf.get(r.subAspect) ?? r.subAspect,
		score: r.score
	}));
	return frozen.definition.aspects.map((a) => ({
		label: `Aspect ${a.code}: ${a.name}`,
		battles: rubricBattles(scores, a.code)
	}));
}
