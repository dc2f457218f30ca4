// The pairwise design's exports: one row per judgement (both answers, the side each was shown on,
// the outcome as shown and in the pair's canonical order), and the judgements as FastChat battles,
// the file `cliniq stats bt` and FastChat's notebooks read.
import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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
import { toSafeCsv } from '../../../../csv';
import type { PreferenceOutcome } from '../../../../../constants';
import type { BattleWinner } from '../../../../../stats/bradley-terry';
import { questionKeySql } from '../../question-key';
import { pairwiseJudgement } from './schema';
import { aspectPreferencesOf } from './statistics';
import { countsInFigures } from '../../../exclusions';

const leftAnswer = alias(candidate, 'left_answer');
const rightAnswer = alias(candidate, 'right_answer');
const leftModel = alias(model, 'left_model');
const rightModel = alias(model, 'right_model');

/**
 * Columns of the pairwise long table, one row per judgement. `model_a` / `model_b` are the pair
 * in canonical order (by name; `reference` for the reference answer), whatever the sides;
 * `left_model` / `right_model` as shown, `side_a` the side model A was shown on. `outcome` is what
 * the physician chose as shown (left, right, tie_good, tie_bad), `winner` the same in canonical
 * order with FastChat's labels (model_a, model_b, tie = both good, tie (bothbad)).
 * `assignment_seed` seeded the sides, `presentation_position` is the pair's place in the
 * physician's sequence and `order_seed` reproduces that sequence. `aspects_shown` (JSON: aspect
 * code → left / right / tie) and `aspects` (code → model_a / model_b / tie) are the optional
 * per-aspect preferences; lengths are characters of the text shown.
 */
export const PAIRWISE_EXPORT_COLUMNS = [
	'study',
	'study_id',
	'design',
	'question',
	'question_id',
	'item_id',
	'item_version_id',
	'set_question_id',
	'external_id',
	'question_type',
	'unit',
	'physician',
	'assignment_seed',
	'presentation_position',
	'order_seed',
	'model_a',
	'model_b',
	'side_a',
	'left_model',
	'right_model',
	'left_candidate_id',
	'right_candidate_id',
	'outcome',
	'winner',
	'strength',
	'aspects_shown',
	'aspects',
	'reason',
	'length_a',
	'length_b',
	'left_length',
	'right_length',
	'time_on_task_ms',
	'assigned_at',
	'submitted_at'
] as const;
type Column = (typeof PAIRWISE_EXPORT_COLUMNS)[number];
type AspectShown = 'left' | 'right' | 'tie';
type AspectWinner = 'model_a' | 'model_b' | 'tie';
export type PairwiseExportRow = Record<
	Exclude<Column, 'aspects_shown' | 'aspects' | 'outcome' | 'winner' | 'side_a'>,
	string | number | null
> & {
	outcome: PreferenceOutcome;
	winner: BattleWinner;
	side_a: 'left' | 'right';
	aspects_shown: Record<string, AspectShown>;
	aspects: Record<string, AspectWinner>;
};

/**
 * FastChat's battle columns (model_a, model_b, winner, judge, question_id) with the answers'
 * lengths (characters shown) for the length-controlled fit, and `question`, the same key as
 * `question_id` under the name `cliniq stats bt` reads. One battle per judgement, in canonical
 * order; the bootstrap resamples questions, so a question's pairs share their key.
 */
export const BATTLE_COLUMNS = [
	'question',
	'question_id',
	'model_a',
	'model_b',
	'winner',
	'judge',
	'length_a',
	'length_b'
] as const;

/** The side-free outcome of a choice: the left model won, the right one, or a tie of either kind. */
function canonicalWinner(outcome: PreferenceOutcome, leftIsA: boolean): BattleWinner {
	if (outcome === 'tie_good') return 'tie';
	if (outcome === 'tie_bad') return 'tie (bothbad)';
	return (outcome === 'left') === leftIsA ? 'model_a' : 'model_b';
}

/**
 * Every judgement of a pairwise study, in submission order: physicians as their stable pseudonym
 * unless `names` is set.
 */
export async function exportPairwiseJudgements(
	db: Db,
	studyId: number,
	options: { names?: boolean } = {}
): Promise<PairwiseExportRow[]> {
	const rows = await db
		.select({
			judgementId: pairwiseJudgement.id,
			study: studyTable.name,
			question: questionKeySql(),
			questionId: studyQuestion.id,
			itemId: studyQuestion.itemId,
			itemVersionId: studyQuestion.itemVersionId,
			setQuestionId: studyQuestion.setQuestionId,
			externalId: setQuestion.externalId,
			type: sql<string>`coalesce(${qaItem.type}::text, 'free_text')`,
			unit: studyQuestion.unit,
			pseudonym: user.pseudonym,
			displayName: user.displayName,
			seed: assignment.seed,
			presentationPosition: assignment.presentationPosition,
			orderSeed: studyPhysician.orderSeed,
			leftCandidateId: pairwiseJudgement.leftCandidateId,
			rightCandidateId: pairwiseJudgement.rightCandidateId,
			leftReference: leftAnswer.isReference,
			leftModel: leftModel.name,
			rightReference: rightAnswer.isReference,
			rightModel: rightModel.name,
			outcome: pairwiseJudgement.outcome,
			strength: pairwiseJudgement.strength,
			reason: pairwiseJudgement.reason,
			leftLength: sql<number>`char_length(coalesce(${leftAnswer.shownText}, ${leftAnswer.text}))::int`,
			rightLength: sql<number>`char_length(coalesce(${rightAnswer.shownText}, ${rightAnswer.text}))::int`,
			timeOnTaskMs: pairwiseJudgement.timeOnTaskMs,
			assignedAt: assignment.createdAt,
			submittedAt: pairwiseJudgement.submittedAt
		})
		.from(pairwiseJudgement)
		.innerJoin(assignment, eq(assignment.id, pairwiseJudgement.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(studyTable, eq(studyTable.id, studyQuestion.studyId))
		.leftJoin(qaItem, eq(qaItem.id, studyQuestion.itemId))
		.leftJoin(setQuestion, eq(setQuestion.id, studyQuestion.setQuestionId))
		.innerJoin(user, eq(user.id, pairwiseJudgement.raterId))
		.leftJoin(
			studyPhysician,
			and(
				eq(studyPhysician.studyId, studyQuestion.studyId),
				eq(studyPhysician.physicianId, pairwiseJudgement.raterId)
			)
		)
		.innerJoin(leftAnswer, eq(leftAnswer.id, pairwiseJudgement.leftCandidateId))
		.innerJoin(rightAnswer, eq(rightAnswer.id, pairwiseJudgement.rightCandidateId))
		.leftJoin(leftModel, eq(leftModel.id, leftAnswer.modelId))
		.leftJoin(rightModel, eq(rightModel.id, rightAnswer.modelId))
		.where(
			and(
				eq(studyTable.id, studyId),
				countsInFigures(
					pairwiseJudgement.raterId,
					studyQuestion.studyId,
					pairwiseJudgement.submittedAt,
					studyQuestion.gold
				)
			)
		)
		.orderBy(asc(pairwiseJudgement.id));
	const aspectsOf = await aspectPreferencesOf(db, studyId);
	return rows.map((r) => {
		const left = r.leftReference ? 'reference' : (r.leftModel ?? 'unknown');
		const right = r.rightReference ? 'reference' : (r.rightModel ?? 'unknown');
		const leftIsA = left <= right;
		const shown = aspectsOf.get(r.judgementId) ?? {};
		const aspects: Record<string, AspectWinner> = {};
		for (const [code, o] of Object.entries(shown))
			aspects[code] = o === 'tie' ? 'tie' : (o === 'left') === leftIsA ? 'model_a' : 'model_b';
		return {
			study: r.study,
			study_id: studyId,
			design: 'pairwise',
			question: r.question,
			question_id: r.questionId,
			item_id: r.itemId,
			item_version_id: r.itemVersionId,
			set_question_id: r.setQuestionId,
			external_id: r.externalId,
			question_type: r.type,
			unit: r.unit,
			physician: options.names ? r.displayName : r.pseudonym,
			assignment_seed: r.seed,
			presentation_position: r.presentationPosition,
			order_seed: r.orderSeed,
			model_a: leftIsA ? left : right,
			model_b: leftIsA ? right : left,
			side_a: leftIsA ? 'left' : 'right',
			left_model: left,
			right_model: right,
			left_candidate_id: r.leftCandidateId,
			right_candidate_id: r.rightCandidateId,
			outcome: r.outcome,
			winner: canonicalWinner(r.outcome, leftIsA),
			strength: r.strength,
			aspects_shown: shown,
			aspects,
			reason: r.reason,
			length_a: leftIsA ? r.leftLength : r.rightLength,
			length_b: leftIsA ? r.rightLength : r.leftLength,
			left_length: r.leftLength,
			right_length: r.rightLength,
			time_on_task_ms: r.timeOnTaskMs,
			assigned_at: r.assignedAt.toISOString(),
			submitted_at: r.submittedAt.toISOString()
		};
	});
}

/** The pairwise long table as CSV (RFC 4180, header line, formulas neutralised). */
export function pairwiseJudgementsCsv(rows: PairwiseExportRow[]): string {
	return toSafeCsv(PAIRWISE_EXPORT_COLUMNS, rows);
}

/** The judgements as FastChat battles (BATTLE_COLUMNS), the input of `cliniq stats bt`. */
export function battlesCsv(rows: PairwiseExportRow[]): string {
	return toSafeCsv(
		BATTLE_COLUMNS,
		rows.map((r) => ({
			question: r.question,
			question_id: r.question,
			model_a: r.model_a,
			model_b: r.model_b,
			winner: r.winner,
			judge: r.physician,
			length_a: r.length_a,
			length_b: r.length_b
		}))
	);
}
