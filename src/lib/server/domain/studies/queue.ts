import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AssignmentView } from '$lib/ranking/view';
import { selectValue } from '../../db/call';
import { rememberShown } from './shown';
import type { Db, Tx } from '../../db/client';
import { assignment, study, studyQuestion } from '../../db/schema';
import { randomId } from '../../ids';
import { responseLetter, seededPermutations } from './shuffle';
import { claimRefusal, type ConsentRefusal } from '../consent';

export type { AssignmentView };

export type ClaimResult =
	| {
			status: 'assigned';
			publicId: string;
			resumed: boolean;
			/** The assignment's view, when the claim was asked for it. */
			view?: AssignmentView;
	  }
	| { status: 'none'; reason: ClaimRefusal };

/**
 * Why a claim gave nothing: the study is not open; nothing is left for the rater; the study
 * requires a qualification round they have not passed; (qualification rounds) they passed, used
 * every attempt, or finished an attempt not yet scored; the organisers paused them or sent them
 * back to training in this study (`quality/holds.ts`); or a consent refusal (withdrawn, or a
 * consent text to accept first).
 */
export type ClaimRefusal =
	| 'not_open'
	| 'exhausted'
	| 'not_qualified'
	| 'qualified'
	| 'attempts_used'
	| 'attempt_finished'
	| 'paused'
	| 'retraining'
	| ConsentRefusal;

/** The most answers a question can show: one letter each, A to Z. */
export const MAX_ANSWERS = 26;

/** Postgres array literal of ids and numbers (no quoting needed: they hold no commas or quotes). */
const arrayLiteral = (values: readonly (string | number)[]) => `{${values.join(',')}}`;

/**
 * The last arguments of `study_claim` (and of `ranking_submit`, which passes them on to its
 * claim of the next question): the new ids a claim may need, made here so the database function stays free of randomness
 * and the shuffle stays `seededShuffle`: the physician's order seed (used at their first claim
 * only), the assignment's public id and shuffle seed, an opaque id per answer, and the seeded
 * shuffle of n answers for every n up to MAX_ANSWERS (a Fisher–Yates order depends only on the
 * seed and n, so the function applies the one for the question's n to its answers by id).
 */
export function claimArguments(): SQL {
	const seed = randomId(16);
	const perms = seededPermutations(seed, MAX_ANSWERS);
	// One draw for all the answers' ids, cut into 12-character ids.
	const answerIds = randomId(12 * MAX_ANSWERS).match(/.{12}/g)!;
	return sql`${randomId(16)}::text, ${randomId()}::text, ${seed}::text, ${arrayLiteral(answerIds)}::text[], ${arrayLiteral(perms)}::integer[]`;
}

/** The claim as the database function returns it. */
export type RawClaim =
	| { status: 'assigned'; publicId: string; resumed: boolean; view: RawView | null }
	| { status: 'none'; reason: ClaimRefusal };

/** The view as `study_assignment_view` returns it (JSON: dates as strings, nullable lists). */
export interface RawView {
	assignment: Omit<AssignmentView['assignment'], 'leaseExpiresAt' | 'shownAt'> & {
		leaseExpiresAt: string | null;
		shownAt: string;
	};
	study: AssignmentView['study'];
	question: Omit<AssignmentView['question'], 'options' | 'reasoning' | 'context' | 'documents'> & {
		options: string[] | null;
		reasoning: string[] | null;
		context?: string | null;
		documents?: AssignmentView['question']['documents'] | null;
	};
	progress: AssignmentView['progress'];
	candidates: { id: string; position: number; text: string }[];
}

/** The physician's view of an assignment from its database form: letters by position. */
export function blindedView(raw: RawView): AssignmentView {
	const { type } = raw.question;
	const inverse = type === 'short_inverse' || type === 'multi_hop_inverse';
	return {
		assignment: {
			publicId: raw.assignment.publicId,
			state: raw.assignment.state,
			leaseExpiresAt: raw.assignment.leaseExpiresAt
				? new Date(raw.assignment.leaseExpiresAt)
				: null,
			shownAt: new Date(raw.assignment.shownAt)
		},
		study: {
			id: raw.study.id,
			name: raw.study.name,
			state: raw.study.state,
			design: raw.study.design,
			instructions: raw.study.instructions,
			allowTies: raw.study.allowTies
		},
		question: {
			type,
			text: raw.question.text,
			context: raw.question.context ?? null,
			documents: raw.question.documents ?? [],
			options: type === 'multiple_choice' || type === 'list' ? (raw.question.options ?? []) : [],
			falseAnswer: inverse ? raw.question.falseAnswer : null,
			reasoning: type === 'multi_hop_inverse' ? (raw.question.reasoning ?? []) : []
		},
		progress: { ranked: raw.progress.ranked, questions: raw.progress.questions },
		candidates: raw.candidates.map((c) => ({
			id: c.id,
			label: `Response ${responseLetter(c.position)}`,
			text: c.text
		}))
	};
}

/** A claim result from the database function's. */
export function claimResult(raw: RawClaim): ClaimResult {
	if (raw.status === 'none') return { status: 'none', reason: raw.reason };
	const out: ClaimResult = { status: 'assigned', publicId: raw.publicId, resumed: raw.resumed };
	if (raw.view) out.view = blindedView(raw.view);
	return out;
}

/**
 * Returns expired leases of a study to its queue (`study_sweep`): skips leases another sweep
 * holds, so concurrent claimers never wait on each other here. Claims sweep by themselves.
 */
export async function expireLeases(
	db: Db | Tx,
	studyId: number,
	now = new Date()
): Promise<number> {
	// study_sweep: src/lib/server/db/functions/study.sql
	return selectValue<number>(
		db,
		'study_sweep',
		sql`study_sweep(${studyId}::integer, ${now.toISOString()}::timestamptz)`
	);
}

/**
 * Ends every ranking lease a physician holds now (their deactivation, in the caller's
 * transaction), then sweeps each study concerned so the questions' slots reopen at once. Returns
 * the assignments' ids.
 */
export async function releasePhysicianLeases(
	tx: Tx,
	physicianId: string,
	now = new Date()
): Promise<number[]> {
	return releaseLeases(tx, physicianId, now);
}

/** The same for one study only (a withdrawal from it, in the caller's transaction). */
export async function releaseStudyLeases(
	tx: Tx,
	physicianId: string,
	studyId: number,
	now = new Date()
): Promise<number[]> {
	return releaseLeases(tx, physicianId, now, studyId);
}

async function releaseLeases(tx: Tx, physicianId: string, now: Date, studyId?: number) {
	// A ranking lease ends now; the study's sweep then reopens the question's slot (and moves
	// back the queue rows other physicians parked while it was full).
	const released = await tx
		.update(assignment)
		.set({ leaseExpiresAt: now })
		.where(
			and(
				eq(assignment.physicianId, physicianId),
				eq(assignment.state, 'leased'),
				studyId === undefined
					? undefined
					: inArray(
							assignment.studyQuestionId,
							tx
								.select({ id: studyQuestion.id })
								.from(studyQuestion)
								.where(eq(studyQuestion.studyId, studyId))
						)
			)
		)
		.returning({ id: assignment.id, questionId: assignment.studyQuestionId });
	if (released.length) {
		const studies = await tx
			.selectDistinct({ id: studyQuestion.studyId })
			.from(studyQuestion)
			.where(
				inArray(
					studyQuestion.id,
					released.map((r) => r.questionId)
				)
			);
		for (const s of studies) await expireLeases(tx, s.id, now);
	}
	return released.map((r) => r.id);
}

/**
 * Hands the physician the next question of an open study through a lease, in one statement
 * (`study_claim`): expired leases go back to the queue, then the physician gets their live
 * lease if they hold one (a reload keeps it), else the first question in their own seeded order
 * (`study_physician`, `study_physician_question`) that they have never had and that has a free
 * slot, claimed with `FOR UPDATE SKIP LOCKED` so concurrent physicians never exceed k per
 * question. The assignment records its position in the physician's sequence;
 * the candidates are shown in `seededShuffle` order of a fresh seed stored on the assignment.
 * With `view`, the result carries the assignment's blinded view. A physician who withdrew from
 * the study, or has not accepted the newest consent text (the portal's or the study's), is
 * refused (`withdrawn`, `consent_pending`) before anything is claimed.
 */
export async function claimNext(
	db: Db | Tx,
	studyId: number,
	physicianId: string,
	now = new Date(),
	options: { view?: boolean } = {}
): Promise<ClaimResult> {
	const refusal = await claimRefusal(db, physicianId, studyId);
	if (refusal) return { status: 'none', reason: refusal };
	// study_claim: src/lib/server/db/functions/study.sql
	const raw = await selectValue<RawClaim>(
		db,
		'study_claim',
		sql`study_claim(${studyId}::integer, ${physicianId}::text, ${now.toISOString()}::timestamptz, true, ${options.view ?? false}::boolean, ${claimArguments()})`
	);
	rememberShown(physicianId, raw);
	return claimResult(raw);
}

/**
 * What a physician may see of an assignment (`study_assignment_view`), or null if it is not
 * theirs. Blinded by construction: no model, response or candidate database ids and no reference
 * flag are selected, only opaque ids, letters and texts.
 */
export async function getAssignmentView(
	db: Db | Tx,
	publicId: string,
	physicianId: string
): Promise<AssignmentView | null> {
	// study_assignment_view: src/lib/server/db/functions/study.sql
	const raw = await selectValue<RawView | null>(
		db,
		'study_assignment_view',
		sql`study_assignment_view(${publicId}::text, ${physicianId}::text)`
	);
	return raw ? blindedView(raw) : null;
}

/** Open studies a physician can work on, with how many questions they have judged. */
export async function listOpenStudiesFor(db: Db, physicianId: string) {
	// Gold questions count for a rater once met, as in study_assignment_view: the list must not
	// say how many hidden checks a study holds.
	const mine = sql`exists (select 1 from ${assignment} a where a.study_question_id = q.id and a.physician_id = ${physicianId})`;
	return db
		.select({
			id: study.id,
			name: study.name,
			state: study.state,
			design: study.design,
			purpose: study.purpose,
			questions: sql<number>`(select count(*)::int from ${studyQuestion} q where q.study_id = study.id and (not q.gold or study.purpose = 'qualification' or ${mine}))`,
			ranked: sql<number>`(select count(*)::int from ${assignment} a join ${studyQuestion} q on q.id = a.study_question_id where q.study_id = study.id and a.physician_id = ${physicianId} and a.state = 'submitted')`,
			available: sql<number>`(select count(*)::int from ${studyQuestion} q where q.study_id = study.id and (q.open_slots > 0 or study.purpose = 'qualification') and (not q.gold or study.purpose = 'qualification') and not ${mine})`,
			/** The qualification round this study requires, and whether the rater passed it. */
			requiredRoundId: study.qualificationStudyId,
			requiredRound: sql<
				string | null
			>`(select r.name from ${study} r where r.id = study.qualification_study_id)`,
			qualified: sql<boolean>`(study.qualification_study_id is null or exists (select 1 from qualification_attempt t where t.study_id = study.qualification_study_id and t.rater_id = ${physicianId} and t.passed))`
		})
		.from(study)
		.where(inArray(study.state, ['open', 'paused']))
		.orderBy(asc(study.id));
}
