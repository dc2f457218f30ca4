// A ranking study's judgements as pairwise battles: each physician's k-way ranking of a question
// gives its k(k−1)/2 pairs, equal ranks a tie (src/lib/stats/preference.ts `rankingBattles`).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import { assignment, candidate, model, studyQuestion } from '../../../../db/schema';
import { rankingBattles } from '../../../../../stats/preference';
import type { LabelledBattles } from '../plug';
import { questionKeySql } from '../../question-key';
import { countsInFigures } from '../../../exclusions';
import { ranking, rankingEntry } from './schema';

/** The battles of a ranking study's submitted rankings that count (`Rankings`). */
export async function rankingStudyBattles(db: Db, studyId: number): Promise<LabelledBattles[]> {
	const rows = await db
		.select({
			question: questionKeySql(),
			rater: ranking.physicianId,
			isReference: candidate.isReference,
			model: model.name,
			rank: rankingEntry.rank
		})
		.from(rankingEntry)
		.innerJoin(ranking, eq(ranking.id, rankingEntry.rankingId))
		.innerJoin(assignment, eq(assignment.id, ranking.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(candidate, eq(candidate.id, rankingEntry.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(
			and(
				eq(studyQuestion.studyId, studyId),
				countsInFigures(
					ranking.physicianId,
					studyQuestion.studyId,
					ranking.submittedAt,
					studyQuestion.gold
				)
			)
		);
	const battles = rankingBattles(
		rows.map((r) => ({
			question: r.question,
			rater: r.rater,
			model: r.isReference ? 'reference' : (r.model ?? 'unknown'),
			rank: r.rank
		}))
	);
	return [{ label: 'Rankings', battles }];
}
