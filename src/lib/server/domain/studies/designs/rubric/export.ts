// The rubric design's long table: one row per score (answer × sub-aspect × rater), with everything
// needed to recompute any figure and to replay the presentation (seeds, positions, sides).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../../db/client';
import {
	assignment,
	candidate,
	model,
	qaItem,
	setQuestion,
	study as studyTable,
	studyPhysician,
	studyQuestion,
	user
} from '../../../../db/schema';
import { toCsv } from '../../../../csv';
import { subAspectsOf } from '../../../../../schemas/rubric';
import { rubric, rubricJudgement, rubricScore, rubricStudy, rubricVersion } from './schema';
import { countsInFigures } from '../../../exclusions';

/**
 * Columns of the rubric long table. `assignment_seed` reproduces the answers' display order
 * (`seededShuffle`), `order_seed` the rater's question order, `presentation_position` the
 * question's place in the rater's sequence, `display_position` the answer's letter (1 = A),
 * `side` left / right when the rater scored two answers side by side (`layout`), else empty.
 */
export const RUBRIC_EXPORT_COLUMNS = [
	'study',
	'study_id',
	'design',
	'rubric',
	'rubric_version',
	'question_id',
	'item_id',
	'item_version_id',
	'set_question_id',
	'external_id',
	'question_type',
	'physician',
	'assignment_seed',
	'presentation_position',
	'order_seed',
	'layout',
	'candidate_id',
	'model',
	'candidate_text',
	'shown_text',
	'display_position',
	'side',
	'aspect',
	'sub_aspect',
	'score',
	'rationale',
	'time_on_task_ms',
	'submitted_at'
] as const;
export type RubricExportRow = Record<
	(typeof RUBRIC_EXPORT_COLUMNS)[number],
	string | number | null
>;

/** Every stored score of a rubric study; raters as their stable pseudonym unless `names`. */
export async function exportRubricScores(
	db: Db,
	studyId: number,
	options: { names?: boolean } = {}
): Promise<RubricExportRow[]> {
	const [frozen] = await db
		.select({
			name: rubric.name,
			version: rubricVersion.version,
			definition: rubricVersion.definition
		})
		.from(rubricStudy)
		.innerJoin(rubric, eq(rubric.id, rubricStudy.rubricId))
		.innerJoin(rubricVersion, eq(rubricVersion.id, rubricStudy.rubricVersionId))
		.where(eq(rubricStudy.studyId, studyId));
	const aspectOf = new Map(
		frozen ? subAspectsOf(frozen.definition).map((s) => [s.code, s.aspect]) : []
	);
	const rows = await db
		.select({
			study: studyTable.name,
			questionId: studyQuestion.id,
			itemId: studyQuestion.itemId,
			itemVersionId: studyQuestion.itemVersionId,
			setQuestionId: studyQuestion.setQuestionId,
			externalId: setQuestion.externalId,
			type: sql<string>`coalesce(${qaItem.type}::text, 'free_text')`,
			pseudonym: user.pseudonym,
			displayName: user.displayName,
			seed: assignment.seed,
			presentationPosition: assignment.presentationPosition,
			orderSeed: studyPhysician.orderSeed,
			layout: rubricJudgement.layout,
			candidateId: candidate.id,
			isReference: candidate.isReference,
			model: model.name,
			text: candidate.text,
			shownText: sql<string>`coalesce(${candidate.shownText}, ${candidate.text})`,
			displayPosition: rubricScore.displayPosition,
			side: rubricScore.side,
			subAspect: rubricScore.subAspect,
			score: rubricScore.score,
			rationale: rubricScore.rationale,
			timeOnTaskMs: rubricJudgement.timeOnTaskMs,
			submittedAt: rubricJudgement.submittedAt
		})
		.from(rubricScore)
		.innerJoin(rubricJudgement, eq(rubricJudgement.id, rubricScore.judgementId))
		.innerJoin(assignment, eq(assignment.id, rubricJudgement.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(studyTable, eq(studyTable.id, studyQuestion.studyId))
		.leftJoin(qaItem, eq(qaItem.id, studyQuestion.itemId))
		.leftJoin(setQuestion, eq(setQuestion.id, studyQuestion.setQuestionId))
		.innerJoin(user, eq(user.id, rubricJudgement.raterId))
		.leftJoin(
			studyPhysician,
			and(
				eq(studyPhysician.studyId, studyQuestion.studyId),
				eq(studyPhysician.physicianId, rubricJudgement.raterId)
			)
		)
		.innerJoin(candidate, eq(candidate.id, rubricScore.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(
			and(
				eq(studyTable.id, studyId),
				countsInFigures(
					rubricJudgement.raterId,
					studyQuestion.studyId,
					rubricJudgement.submittedAt,
					studyQuestion.gold
				)
			)
		)
		.orderBy(
			asc(studyQuestion.id),
			asc(rubricJudgement.id),
			asc(rubricScore.displayPosition),
			asc(rubricScore.subAspect)
		);
	const order = new Map(
		frozen ? subAspectsOf(frozen.definition).map((s, i) => [s.code, i] as const) : []
	);
	rows.sort(
		(a, b) =>
			a.questionId - b.questionId ||
			a.submittedAt.getTime() - b.submittedAt.getTime() ||
			a.displayPosition - b.displayPosition ||
			(order.get(a.subAspect) ?? 0) - (order.get(b.subAspect) ?? 0)
	);
	return rows.map((r) => ({
		study: r.study,
		study_id: studyId,
		design: 'rubric',
		rubric: frozen?.name ?? null,
		rubric_version: frozen?.version ?? null,
		question_id: r.questionId,
		item_id: r.itemId,
		item_version_id: r.itemVersionId,
		set_question_id: r.setQuestionId,
		external_id: r.externalId,
		question_type: r.type,
		physician: options.names ? r.displayName : r.pseudonym,
		assignment_seed: r.seed,
		presentation_position: r.presentationPosition,
		order_seed: r.orderSeed,
		layout: r.layout,
		candidate_id: r.candidateId,
		model: r.isReference ? 'reference' : r.model,
		candidate_text: r.text,
		shown_text: r.shownText,
		display_position: r.displayPosition,
		side: r.side,
		aspect: aspectOf.get(r.subAspect) ?? null,
		sub_aspect: r.subAspect,
		score: r.score,
		rationale: r.rationale,
		time_on_task_ms: r.timeOnTaskMs,
		submitted_at: r.submittedAt.toISOString()
	}));
}

/** The rubric long table as CSV (RFC 4180, header line). */
export function rubricScoresCsv(rows: RubricExportRow[]): string {
	return toCsv([...RUBRIC_EXPORT_COLUMNS], rows);
}
