import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
	assignment,
	candidate,
	model,
	qaItem,
	ranking,
	rankingEntry,
	study as studyTable,
	studyPhysician,
	studyQuestion,
	user
} from '../../db/schema';
import { toCsv } from '../../csv';
import type { DetailChoice, ErrorType, QaType } from '../../../constants';
import { attackRows } from './blinding-audit';
import { studyAudit } from './blinding';
import { presentationChoices } from './presentation';
import { DESIGNS } from './designs/registry';
import { getStudy } from './studies';
import { countsInFigures, excludedCounts } from '../exclusions';

/**
 * Columns of the long table: one row per (ranking, candidate). `presentation_position` is the
 * question's place in the physician's sequence (1 = first shown); `order_seed` reproduces the
 * physician's question order (`questionOrder` in shuffle.ts; empty before orders were seeded).
 * `candidate_text` is the stored raw text, `shown_text` what the physician saw (its canonical
 * presentation). `error_types` lists what the physician found wrong with an okay or bad answer
 * (JSON: an array; CSV: the values joined by `;`, empty for none).
 */
export const EXPORT_COLUMNS = [
	'study',
	'study_id',
	'question_id',
	'item_id',
	'item_version_id',
	'question_type',
	'physician',
	'presentation_position',
	'order_seed',
	'candidate_id',
	'model',
	'candidate_text',
	'shown_text',
	'display_position',
	'rank',
	'tag',
	'error_types',
	'comment',
	'time_on_task_ms',
	'submitted_at'
] as const;
export type ExportRow = Record<
	Exclude<(typeof EXPORT_COLUMNS)[number], 'error_types'>,
	string | number | null
> & { error_types: ErrorType[] };

/**
 * Every ranking entry of a study that counts (no excluded rater's, no gold question's) as a long
 * table, so any statistic can be recomputed.
 * Physicians appear as their stable pseudonym unless `names` is set.
 */
export async function exportRankings(
	db: Db,
	studyId: number,
	options: { names?: boolean } = {}
): Promise<ExportRow[]> {
	const rows = await db
		.select({
			study: studyTable.name,
			questionId: studyQuestion.id,
			itemId: studyQuestion.itemId,
			itemVersionId: studyQuestion.itemVersionId,
			type: qaItem.type,
			pseudonym: user.pseudonym,
			displayName: user.displayName,
			presentationPosition: assignment.presentationPosition,
			orderSeed: studyPhysician.orderSeed,
			candidateId: candidate.id,
			isReference: candidate.isReference,
			model: model.name,
			text: candidate.text,
			shownText: sql<string>`coalesce(${candidate.shownText}, ${candidate.text})`,
			displayPosition: rankingEntry.displayPosition,
			rank: rankingEntry.rank,
			tag: rankingEntry.tag,
			errorTypes: rankingEntry.errorTypes,
			comment: rankingEntry.comment,
			timeOnTaskMs: ranking.timeOnTaskMs,
			submittedAt: ranking.submittedAt
		})
		.from(rankingEntry)
		.innerJoin(ranking, eq(ranking.id, rankingEntry.rankingId))
		.innerJoin(assignment, eq(assignment.id, ranking.assignmentId))
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(studyTable, eq(studyTable.id, studyQuestion.studyId))
		.innerJoin(qaItem, eq(qaItem.id, studyQuestion.itemId))
		.innerJoin(user, eq(user.id, ranking.physicianId))
		.leftJoin(
			studyPhysician,
			and(
				eq(studyPhysician.studyId, studyQuestion.studyId),
				eq(studyPhysician.physicianId, ranking.physicianId)
			)
		)
		.innerJoin(candidate, eq(candidate.id, rankingEntry.candidateId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(
			and(
				eq(studyTable.id, studyId),
				countsInFigures(
					ranking.physicianId,
					studyQuestion.studyId,
					ranking.submittedAt,
					studyQuestion.gold
				)
			)
		)
		.orderBy(asc(studyQuestion.id), asc(ranking.id), asc(rankingEntry.displayPosition));
	return rows.map((r) => ({
		study: r.study,
		study_id: studyId,
		question_id: r.questionId,
		item_id: r.itemId,
		item_version_id: r.itemVersionId,
		question_type: r.type,
		physician: options.names ? r.displayName : r.pseudonym,
		presentation_position: r.presentationPosition,
		order_seed: r.orderSeed,
		candidate_id: r.candidateId,
		model: r.isReference ? 'reference' : r.model,
		candidate_text: r.text,
		shown_text: r.shownText,
		display_position: r.displayPosition,
		rank: r.rank,
		tag: r.tag,
		error_types: r.errorTypes,
		comment: r.comment,
		time_on_task_ms: r.timeOnTaskMs,
		submitted_at: r.submittedAt.toISOString()
	}));
}

/** The long table as CSV (RFC 4180, header line). */
export function rankingsCsv(rows: ExportRow[]): string {
	return toCsv(
		[...EXPORT_COLUMNS],
		rows.map((r) => ({ ...r, error_types: r.error_types.join(';') }))
	);
}

/**
 * The blinding audit of a study as exported: what each question type showed, and how often each
 * attack picked each source (the reference or a model) against chance, on the shown and on the
 * raw texts, with 95 % Wilson intervals. Null for a study that has not opened (nothing frozen).
 */
export async function exportBlindingAudit(db: Db, studyId: number) {
	const [study] = await db
		.select({
			name: studyTable.name,
			state: studyTable.state,
			presentation: studyTable.presentation
		})
		.from(studyTable)
		.where(eq(studyTable.id, studyId));
	if (!study || study.state === 'draft') return null;
	const audit = await studyAudit(db, studyId);
	const stored = study.presentation as Partial<Record<QaType, DetailChoice>>;
	return {
		study: study.name,
		study_id: studyId,
		// A study opened before the choice existed stored none: its texts used the presentation of the time.
		presentation: Object.keys(stored).length ? presentationChoices(stored) : null,
		method: {
			longest: 'the candidate with the most characters; ties split evenly',
			classifier:
				'conditional logistic regression on surface features of the shown texts, trained per question type (and over all types), leave-one-question-out up to 40 questions, otherwise 10 folds by question; at most 200 questions per scope, evenly spread (n says how many); ties split evenly',
			interval: 'Wilson score, 95 %',
			above_chance: "the interval's lower bound is above chance (mean of 1/k; 2/k for the top two)"
		},
		form: { shown: audit.shown, raw: audit.raw },
		attacks: [...attackRows('shown', audit.attacks.shown), ...attackRows('raw', audit.attacks.raw)]
	};
}

/**
 * A study's configuration as exported beside its long table: design, questions' source, models,
 * k, lease, reference, presentation, states and times, and what the design adds (a rubric study:
 * the frozen rubric version and its definition). The seeds are per rater and per assignment, in
 * the long table (`order_seed`, `assignment_seed`); how many judgements exclusions leave out of
 * every file. Null for an unknown study.
 */
export async function studyConfiguration(db: Db, studyId: number) {
	const study = await getStudy(db, studyId);
	if (!study) return null;
	return {
		study: study.name,
		study_id: study.id,
		design: study.design,
		state: study.state,
		questions_from: study.questionSet
			? { question_set: study.questionSet.name, question_set_id: study.questionSet.id }
			: { qa_bank: study.selection },
		questions: study.questions,
		models: study.models.map((m) => m.name),
		include_reference: study.includeReference,
		raters_per_question: study.ratersPerQuestion,
		allow_ties: study.design === 'ranking' ? study.allowTies : undefined,
		lease_minutes: study.leaseMinutes,
		presentation: study.presentation,
		instructions: study.instructions,
		created_at: study.createdAt.toISOString(),
		opened_at: study.openedAt?.toISOString() ?? null,
		closed_at: study.closedAt?.toISOString() ?? null,
		seeds: {
			order_seed:
				"per rater (long table): the rater's question order, md5(order_seed || ':' || question id) ascending",
			assignment_seed:
				"per assignment (long table, rubric design; ranking: the assignment's seed): the answers' display order, seededShuffle"
		},
		// Every file of the export leaves these out (and gold questions' judgements): how many.
		excluded_judgements: await excludedCounts(db, study.id),
		...((await DESIGNS[study.design].configuration?.(db, study.id)) ?? {})
	};
}
