import { and, asc, count, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
	DETAIL_CHOICES,
	EVIDENCE_MODES,
	PAIRINGS,
	QA_TYPES,
	STUDY_DESIGNS
} from '../../../constants';
import type { Db, Tx } from '../../db/client';
import {
	candidate,
	model,
	qaItem,
	qaItemVersion,
	questionSet,
	setQuestion,
	setResponse,
	study as studyTable,
	response,
	snapshot,
	snapshotItem,
	studyModel,
	studyQuestion,
	type Study
} from '../../db/schema';
import type { StudyState } from '../../../constants';
import { recordAudit } from '../audit';
import { physicianSupply } from '../people';
import { chunk } from '../../db/chunk';
import { DomainError, parseInput } from '../../errors';
import { blindingWarnings } from './blinding';
import { checkQualitySettings, qualityInputShape } from './quality-settings';
import { DESIGNS } from './designs/registry';
import { refreshPlannerStatistics } from '../../db/planner-statistics';
import {
	presentCandidates,
	presentFreeText,
	presentationChoices,
	type PresentationItem
} from './presentation';
import type { DetailChoice, QaType } from '../../../constants';

/** Which items a study asks about: filters combined with AND, or an explicit list of item ids. */
export const selectionSchema = z.object({
	types: z.array(z.enum(QA_TYPES)).default([]),
	snapshotId: z.number().int().positive().optional(),
	importId: z.number().int().positive().optional(),
	itemIds: z.array(z.number().int().positive()).max(100_000).optional()
});
export type Selection = z.infer<typeof selectionSchema>;

export const studyInputSchema = z.object({
	name: z.string().trim().min(1, 'must not be empty').max(200),
	/** What raters do; fixed once the study exists. */
	design: z.enum(STUDY_DESIGNS).default('ranking'),
	/** Questions from this question set instead of the QA bank (`selection` then does not apply). */
	questionSetId: z.number().int().positive().optional(),
	/**
	 * Rubric studies: the rubric to score with; pairwise studies (optional): the rubric whose
	 * aspects raters may give preferences on. Its latest version is frozen at opening.
	 */
	rubricId: z.number().int().positive().optional(),
	/** Pairwise studies: every pair of answers per question, or a balanced sample. */
	pairing: z.enum(PAIRINGS).default('all'),
	/** Pairwise studies with a balanced sample: pairs per question. */
	pairsPerQuestion: z.number().int().min(1).max(351).optional(),
	/** Pairwise studies: the seed of the balanced sample (drawn when not given). */
	pairSeed: z.string().trim().max(100).optional(),
	/** Evidence studies: relations and relevance per assertion (the guidelines) or per sentence. */
	evidenceMode: z.enum(EVIDENCE_MODES).default('assertion'),
	instructions: z.string().max(20_000, 'is longer than 20,000 characters').default(''),
	selection: selectionSchema,
	modelIds: z
		.array(z.number().int().positive())
		.min(1, 'choose at least one model')
		.max(26, 'at most 26 models')
		.transform((ids) => [...new Set(ids)]),
	includeReference: z.boolean().default(true),
	/** What each question type shows (final answer only, or with reasoning); others: defaults. */
	presentation: z.partialRecord(z.enum(QA_TYPES), z.enum(DETAIL_CHOICES)).default({}),
	ratersPerQuestion: z.number().int().min(1).max(50).default(3),
	allowTies: z.boolean().default(false),
	leaseMinutes: z
		.number()
		.int()
		.min(1)
		.max(24 * 60)
		.default(30),
	/** Raters' quality: purpose (fixed at creation), required round, gold rate, marks, attempts. */
	...qualityInputShape
});
export type StudyInput = z.input<typeof studyInputSchema>;

/** The current (or snapshot) versions of the items a selection names, in item id order. */
async function selectedVersions(db: Db | Tx, selection: Selection) {
	const filters: SQL[] = [];
	if (selection.types.length) filters.push(inArray(qaItem.type, selection.types));
	if (selection.itemIds) filters.push(inArray(qaItem.id, selection.itemIds));
	if (selection.importId) {
		filters.push(
			sql`exists (select 1 from ${qaItemVersion} v where v.item_id = ${qaItem.id} and v.import_id = ${selection.importId})`
		);
	}
	if (selection.snapshotId) {
		return db
			.select({ itemId: qaItem.id, versionId: snapshotItem.itemVersionId })
			.from(snapshotItem)
			.innerJoin(qaItem, eq(qaItem.id, snapshotItem.itemId))
			.where(and(eq(snapshotItem.snapshotId, selection.snapshotId), ...filters))
			.orderBy(asc(qaItem.id));
	}
	filters.push(isNotNull(qaItem.currentVersionId));
	return db
		.select({ itemId: qaItem.id, versionId: sql<number>`${qaItem.currentVersionId}` })
		.from(qaItem)
		.where(and(...filters))
		.orderBy(asc(qaItem.id));
}

export interface Eligibility {
	eligible: { itemId: number; versionId: number }[];
	/** Selected items lacking a response from at least one chosen model. */
	missing: { itemId: number; question: string; models: string[] }[];
}

/** A question set's questions split like `checkEligibility`: every chosen model answered, or not. */
export async function checkSetEligibility(
	db: Db | Tx,
	questionSetId: number,
	modelIds: number[]
): Promise<{
	eligible: { setQuestionId: number }[];
	missing: { externalId: string; question: string; models: string[] }[];
}> {
	const questions = await db
		.select({
			id: setQuestion.id,
			externalId: setQuestion.externalId,
			question: setQuestion.question
		})
		.from(setQuestion)
		.where(eq(setQuestion.questionSetId, questionSetId))
		.orderBy(asc(setQuestion.id));
	if (!questions.length || !modelIds.length) return { eligible: [], missing: [] };
	const models = await db
		.select({ id: model.id, name: model.name })
		.from(model)
		.where(inArray(model.id, modelIds));
	const answered = new Map<number, Set<number>>();
	const rows = await db
		.select({ questionId: setResponse.setQuestionId, modelId: setResponse.modelId })
		.from(setResponse)
		.innerJoin(setQuestion, eq(setQuestion.id, setResponse.setQuestionId))
		.where(
			and(eq(setQuestion.questionSetId, questionSetId), inArray(setResponse.modelId, modelIds))
		);
	for (const r of rows) {
		if (!answered.has(r.questionId)) answered.set(r.questionId, new Set());
		answered.get(r.questionId)!.add(r.modelId);
	}
	const eligible: { setQuestionId: number }[] = [];
	const missing: { externalId: string; question: string; models: string[] }[] = [];
	for (const q of questions) {
		const lacking = models.filter((m) => !answered.get(q.id)?.has(m.id)).map((m) => m.name);
		if (lacking.length)
			missing.push({ externalId: q.externalId, question: q.question, models: lacking });
		else eligible.push({ setQuestionId: q.id });
	}
	return { eligible, missing };
}

/** Splits the selected items into eligible ones (every chosen model answered) and the rest. */
export async function checkEligibility(
	db: Db | Tx,
	selection: Selection,
	modelIds: number[]
): Promise<Eligibility> {
	const versions = await selectedVersions(db, selection);
	if (!versions.length || !modelIds.length) return { eligible: [], missing: [] };
	const models = await db
		.select({ id: model.id, name: model.name })
		.from(model)
		.where(inArray(model.id, modelIds));
	const answered = new Map<number, Set<number>>();
	for (const ids of chunk(
		versions.map((v) => v.itemId),
		5000
	)) {
		const rows = await db
			.select({ itemId: response.itemId, modelId: response.modelId })
			.from(response)
			.where(and(inArray(response.itemId, ids), inArray(response.modelId, modelIds)));
		for (const r of rows) {
			if (!answered.has(r.itemId)) answered.set(r.itemId, new Set());
			answered.get(r.itemId)!.add(r.modelId);
		}
	}
	const eligible: Eligibility['eligible'] = [];
	const missingIds: { itemId: number; models: string[] }[] = [];
	for (const v of versions) {
		const have = answered.get(v.itemId);
		const lacking = models.filter((m) => !have?.has(m.id)).map((m) => m.name);
		if (lacking.length) missingIds.push({ itemId: v.itemId, models: lacking });
		else eligible.push(v);
	}
	const questions = new Map<number, string>();
	for (const ids of chunk(
		missingIds.slice(0, 500).map((m) => m.itemId),
		500
	)) {
		const rows = await db
			.select({ id: qaItem.id, question: qaItem.question })
			.from(qaItem)
			.where(inArray(qaItem.id, ids));
		for (const r of rows) questions.set(r.id, r.question);
	}
	return {
		eligible,
		missing: missingIds.map((m) => ({ ...m, question: questions.get(m.itemId) ?? '' }))
	};
}

/** What one check found: refusals stop the change, warnings need the organiser's confirmation. */
export interface StudyCheck {
	refusals: string[];
	warnings: string[];
}

/** Whether a create or open was confirmed by the organiser (the form's "… anyway" button). */
export interface ConfirmOptions {
	confirm?: boolean;
	now?: Date;
}

const physicians = (n: number) => (n === 1 ? '1 physician' : `${n} physicians`);
const accountsExist = (n: number) =>
	n === 1 ? '1 physician account exists' : `${n} physician accounts exist`;

/**
 * Whether enough physicians exist to give every question k rankings: too few accounts is refused
 * unless pending physician invitations cover the shortfall (then a warning naming them); k below
 * 2 is a warning, since agreement between physicians needs two rankings of a question.
 */
export async function physicianCheck(
	db: Db | Tx,
	k: number,
	now = new Date()
): Promise<StudyCheck> {
	const { active, pending } = await physicianSupply(db, now);
	const check: StudyCheck = { refusals: [], warnings: [] };
	const asks = `This study asks for ${physicians(k)} per question`;
	const short = k - active;
	if (short > 0 && pending.length >= short) {
		check.warnings.push(
			`${asks} but only ${accountsExist(active)}; it can finish only after ${short} of the pending physician invitations (${pending.join(', ')}) ${short === 1 ? 'is' : 'are'} accepted.`
		);
	} else if (short > 0 && pending.length) {
		check.refusals.push(
			`${asks} but only ${accountsExist(active)} and ${pending.length} physician invitation${pending.length === 1 ? ' is' : 's are'} pending (${pending.join(', ')}); invite ${short - pending.length} more or lower k.`
		);
	} else if (short > 0) {
		check.refusals.push(
			`${asks} but only ${accountsExist(active)}; invite ${short} more or lower k.`
		);
	}
	if (k < 2)
		check.warnings.push(
			`${asks}: agreement statistics between physicians will be undefined for this study (they need 2 rankings of a question).`
		);
	return check;
}

/**
 * Applies checks before a change: refuses (`invalid`) with every refusal; otherwise, unless the
 * organiser confirmed, asks for confirmation (`needs_confirmation`) listing every warning.
 * Returns the warnings confirmed, for the audit event.
 */
export function confirmChecks(
	checks: StudyCheck[],
	confirmed: boolean,
	change: 'create' | 'open'
): string[] {
	const refusals = checks.flatMap((c) => c.refusals);
	const warnings = checks.flatMap((c) => c.warnings);
	if (refusals.length)
		throw new DomainError('invalid', refusals[0], {
			field: change === 'create' ? 'ratersPerQuestion' : undefined,
			problems: refusals
		});
	if (warnings.length && !confirmed)
		throw new DomainError(
			'needs_confirmation',
			`Confirm to ${change} the study anyway: ${warnings.length === 1 ? 'one warning' : `${warnings.length} warnings`}.`,
			{ problems: warnings }
		);
	return warnings;
}

/** Creates a study in the draft state; questions and candidates are frozen when it opens. */
export async function createStudy(
	db: Db,
	input: StudyInput,
	actorId: string,
	options: ConfirmOptions = {}
): Promise<Study> {
	const data = parseInput(studyInputSchema, input);
	return db.transaction(async (tx) => {
		const [taken] = await tx
			.select({ id: studyTable.id })
			.from(studyTable)
			.where(eq(studyTable.name, data.name));
		if (taken)
			throw new DomainError('conflict', `A study named “${data.name}” already exists.`, {
				field: 'name'
			});
		const known = await tx
			.select({ id: model.id })
			.from(model)
			.where(inArray(model.id, data.modelIds));
		if (known.length !== data.modelIds.length)
			throw new DomainError('invalid', 'One of the chosen models does not exist.', {
				field: 'modelIds'
			});
		if (data.questionSetId) {
			const [set] = await tx
				.select({ id: questionSet.id })
				.from(questionSet)
				.where(eq(questionSet.id, data.questionSetId));
			if (!set)
				throw new DomainError('invalid', 'The chosen question set does not exist.', {
					field: 'questionSetId'
				});
		}
		const { purpose, ...quality } = data;
		await checkQualitySettings(tx, data.design, purpose, {
			qualificationStudyId: data.qualificationStudyId,
			goldEvery: data.goldEvery,
			passMark: data.passMark,
			questionsPerAttempt: data.questionsPerAttempt,
			maxAttempts: data.maxAttempts
		});
		const confirmedWarnings = confirmChecks(
			// A round's questions hold no slots (every rater works them): k does not apply.
			purpose === 'qualification'
				? []
				: [await physicianCheck(tx, data.ratersPerQuestion, options.now)],
			options.confirm ?? false,
			'create'
		);
		const [study] = await tx
			.insert(studyTable)
			.values({
				name: data.name,
				design: data.design,
				questionSetId: data.questionSetId ?? null,
				instructions: data.instructions,
				includeReference: data.includeReference,
				presentation: presentationChoices(data.presentation),
				ratersPerQuestion: data.ratersPerQuestion,
				allowTies: data.allowTies,
				leaseMinutes: data.leaseMinutes,
				selection: data.selection,
				purpose,
				qualificationStudyId: quality.qualificationStudyId,
				goldEvery: quality.goldEvery,
				passMark: quality.passMark,
				questionsPerAttempt: quality.questionsPerAttempt,
				maxAttempts: quality.maxAttempts,
				createdBy: actorId
			})
			.returning();
		await tx
			.insert(studyModel)
			.values(data.modelIds.map((modelId) => ({ studyId: study.id, modelId })));
		await DESIGNS[data.design].onCreate?.(
			tx,
			study,
			{
				rubricId: data.rubricId,
				pairing: data.pairing,
				pairsPerQuestion: data.pairsPerQuestion,
				pairSeed: data.pairSeed,
				evidenceMode: data.evidenceMode
			},
			actorId
		);
		await recordAudit(tx, {
			actorId,
			action: 'study.create',
			objectType: 'study',
			objectId: study.id,
			after: {
				...data,
				instructions: undefined,
				...(confirmedWarnings.length ? { confirmedWarnings } : {})
			}
		});
		return study;
	});
}

/** Inserts the study's questions and candidate texts (model responses and the reference). */
export async function freezeQuestions(tx: Tx, study: Study): Promise<number> {
	const modelIds = (
		await tx
			.select({ id: studyModel.modelId })
			.from(studyModel)
			.where(eq(studyModel.studyId, study.id))
	).map((m) => m.id);
	if (study.questionSetId) return freezeSetQuestions(tx, study, modelIds);
	const selection = selectionSchema.parse(study.selection);
	const { eligible } = await checkEligibility(tx, selection, modelIds);
	if (!eligible.length)
		throw new DomainError(
			'invalid',
			'No eligible questions: every chosen model must have answered.'
		);
	for (const part of chunk(eligible, 1000)) {
		const questions = await tx
			.insert(studyQuestion)
			.values(
				part.map((e) => ({
					studyId: study.id,
					itemId: e.itemId,
					itemVersionId: e.versionId,
					openSlots: study.ratersPerQuestion
				}))
			)
			.returning({ id: studyQuestion.id, itemId: studyQuestion.itemId });
		const questionOf = new Map(questions.map((q) => [q.itemId, q.id]));
		const itemIds = part.map((e) => e.itemId);
		const responses = await tx
			.select({
				id: response.id,
				itemId: response.itemId,
				modelId: response.modelId,
				text: response.text
			})
			.from(response)
			.where(and(inArray(response.itemId, itemIds), inArray(response.modelId, modelIds)));
		const rows: (typeof candidate.$inferInsert)[] = responses.map((r) => ({
			studyQuestionId: questionOf.get(r.itemId)!,
			responseId: r.id,
			modelId: r.modelId,
			text: r.text
		}));
		const versions = await tx
			.select({
				itemId: qaItemVersion.itemId,
				type: qaItemVersion.type,
				options: qaItemVersion.options,
				reasoning: qaItemVersion.reasoning,
				answer: qaItemVersion.answer
			})
			.from(qaItemVersion)
			.where(
				inArray(
					qaItemVersion.id,
					part.map((e) => e.versionId)
				)
			);
		if (study.includeReference)
			for (const v of versions)
				rows.push({
					studyQuestionId: questionOf.get(v.itemId)!,
					isReference: true,
					text: v.answer ?? ''
				});
		presentRows(
			rows,
			new Map(versions.map((v) => [questionOf.get(v.itemId)!, v])),
			presentationChoices(study.presentation as Partial<Record<QaType, DetailChoice>>)
		);
		for (const c of chunk(rows, 2000)) await tx.insert(candidate).values(c);
	}
	return eligible.length;
}

/** `freezeQuestions` for a study of a question set: its questions every chosen model answered. */
async function freezeSetQuestions(tx: Tx, study: Study, modelIds: number[]): Promise<number> {
	const { eligible } = await checkSetEligibility(tx, study.questionSetId!, modelIds);
	if (!eligible.length)
		throw new DomainError(
			'invalid',
			'No eligible questions: every chosen model must have answered a question of the set.'
		);
	for (const part of chunk(eligible, 1000)) {
		const questions = await tx
			.insert(studyQuestion)
			.values(
				part.map((e) => ({
					studyId: study.id,
					setQuestionId: e.setQuestionId,
					openSlots: study.ratersPerQuestion
				}))
			)
			.returning({ id: studyQuestion.id, setQuestionId: studyQuestion.setQuestionId });
		const questionOf = new Map(questions.map((q) => [q.setQuestionId!, q.id]));
		const ids = part.map((e) => e.setQuestionId);
		const responses = await tx
			.select({
				id: setResponse.id,
				questionId: setResponse.setQuestionId,
				modelId: setResponse.modelId,
				text: setResponse.text
			})
			.from(setResponse)
			.where(and(inArray(setResponse.setQuestionId, ids), inArray(setResponse.modelId, modelIds)))
			.orderBy(asc(setResponse.id));
		const rows: (typeof candidate.$inferInsert)[] = responses.map((r) => ({
			studyQuestionId: questionOf.get(r.questionId)!,
			setResponseId: r.id,
			modelId: r.modelId,
			text: r.text
		}));
		if (study.includeReference) {
			const references = await tx
				.select({ id: setQuestion.id, answer: setQuestion.referenceAnswer })
				.from(setQuestion)
				.where(inArray(setQuestion.id, ids));
			for (const r of references)
				if (r.answer?.trim())
					rows.push({ studyQuestionId: questionOf.get(r.id)!, isReference: true, text: r.answer });
		}
		const byQuestion = new Map<number, (typeof candidate.$inferInsert)[]>();
		for (const r of rows)
			byQuestion.set(r.studyQuestionId, [...(byQuestion.get(r.studyQuestionId) ?? []), r]);
		for (const list of byQuestion.values()) {
			const shown = presentFreeText(
				list.map((r) => ({ text: r.text, isReference: r.isReference ?? false }))
			);
			list.forEach((r, i) => (r.shownText = shown[i]));
		}
		for (const c of chunk(rows, 2000)) await tx.insert(candidate).values(c);
	}
	return eligible.length;
}

/** Sets each row's shown text: its question's candidates presented together (presentation.ts). */
function presentRows(
	rows: (typeof candidate.$inferInsert)[],
	itemOf: Map<number, PresentationItem>,
	choices: Record<QaType, DetailChoice>
): void {
	const byQuestion = new Map<number, (typeof candidate.$inferInsert)[]>();
	for (const r of rows) {
		const list = byQuestion.get(r.studyQuestionId) ?? [];
		list.push(r);
		byQuestion.set(r.studyQuestionId, list);
	}
	for (const [questionId, list] of byQuestion) {
		const item = itemOf.get(questionId)!;
		const shown = presentCandidates(
			item,
			list.map((r) => ({ text: r.text, isReference: r.isReference ?? false })),
			choices[item.type]
		);
		list.forEach((r, i) => (r.shownText = shown[i]));
	}
}

const TRANSITIONS: Record<'open' | 'pause' | 'close', { from: StudyState[]; to: StudyState }> = {
	open: { from: ['draft', 'paused'], to: 'open' },
	pause: { from: ['open'], to: 'paused' },
	close: { from: ['open', 'paused'], to: 'closed' }
};
export type StudyTransition = keyof typeof TRANSITIONS;

/**
 * Every check an opening (first or resumed) must pass or have confirmed: one entry per source.
 * The blinding audit runs on the first opening, over the texts just frozen.
 */
async function openingChecks(
	tx: Tx,
	study: Study,
	now: Date,
	firstOpening: boolean
): Promise<StudyCheck[]> {
	// A qualification round's questions hold no slots (every rater works them): k does not apply.
	const checks =
		study.purpose === 'qualification'
			? []
			: [await physicianCheck(tx, study.ratersPerQuestion, now)];
	if (firstOpening) {
		checks.push({ refusals: [], warnings: await blindingWarnings(tx, study.id) });
	}
	return checks;
}

/**
 * Moves a study through draft → open ⇄ paused → closed. The first opening freezes the question
 * set and the candidate texts; later changes to items or responses do not reach the study. Every
 * opening runs the opening checks (enough physicians; on the first opening, the blinding audit
 * of the frozen texts): refusals stop it, warnings need `confirm`.
 */
export async function changeStudyState(
	db: Db,
	studyId: number,
	transition: StudyTransition,
	actorId: string,
	options: ConfirmOptions = {}
): Promise<Study> {
	const rule = TRANSITIONS[transition];
	let unitsWritten = 0;
	const changed = await db.transaction(async (tx) => {
		const [study] = await tx
			.select()
			.from(studyTable)
			.where(eq(studyTable.id, studyId))
			.for('update');
		if (!study) throw new DomainError('not_found', 'No such study.');
		if (!rule.from.includes(study.state))
			throw new DomainError('conflict', `A ${study.state} study cannot be ${transition}ed.`);
		const now = options.now ?? new Date();
		let questions: number | undefined;
		// The first opening freezes the candidates before the checks: the blinding audit reads the
		// frozen texts, and a refusal rolls the freeze back with everything else.
		if (study.state === 'draft') {
			questions = await freezeQuestions(tx, study);
			await DESIGNS[study.design].onFirstOpen?.(tx, study);
			unitsWritten = await countUnits(tx, study.id);
		}
		const confirmedWarnings =
			rule.to === 'open'
				? confirmChecks(
						await openingChecks(tx, study, now, study.state === 'draft'),
						options.confirm ?? false,
						'open'
					)
				: [];
		const [updated] = await tx
			.update(studyTable)
			.set({
				state: rule.to,
				...(study.openedAt ? {} : rule.to === 'open' ? { openedAt: now } : {}),
				...(rule.to === 'closed' ? { closedAt: now } : {})
			})
			.where(eq(studyTable.id, studyId))
			.returning();
		await recordAudit(tx, {
			actorId,
			action: `study.${transition}`,
			objectType: 'study',
			objectId: studyId,
			before: { state: study.state },
			after: {
				state: rule.to,
				questions,
				...(confirmedWarnings.length ? { confirmedWarnings } : {})
			}
		});
		return updated;
	});
	// A first opening can write thousands of units and answers (a pairwise study of 500 questions
	// and 8 answers: 14,000 pairs). Until the planner knows, every claim is planned as for empty
	// tables; an embedded database (PGlite) has no autovacuum to catch up: 62 ms per pairwise
	// submit instead of 6.5 in the pairwise bench.
	if (unitsWritten)
		await refreshPlannerStatistics(db, unitsWritten, ['study_question', 'candidate']);
	return changed;
}

async function countUnits(tx: Tx, studyId: number): Promise<number> {
	const [row] = await tx
		.select({ n: count() })
		.from(studyQuestion)
		.where(eq(studyQuestion.studyId, studyId));
	return row?.n ?? 0;
}

/** All studies with their question counts, newest first (organiser list). */
export async function listStudies(db: Db) {
	return db
		.select({
			id: studyTable.id,
			name: studyTable.name,
			design: studyTable.design,
			state: studyTable.state,
			purpose: studyTable.purpose,
			ratersPerQuestion: studyTable.ratersPerQuestion,
			createdAt: studyTable.createdAt,
			questions: sql<number>`(select count(*)::int from ${studyQuestion} q where q.study_id = study.id)`
		})
		.from(studyTable)
		.orderBy(sql`${studyTable.id} desc`);
}

/** One study with the names of its models (organiser only: names identify models). */
export async function getStudy(db: Db, studyId: number) {
	const [study] = await db.select().from(studyTable).where(eq(studyTable.id, studyId));
	if (!study) return null;
	const models = await db
		.select({ id: model.id, name: model.name })
		.from(studyModel)
		.innerJoin(model, eq(model.id, studyModel.modelId))
		.where(eq(studyModel.studyId, studyId))
		.orderBy(asc(model.name));
	const [{ questions }] = await db
		.select({ questions: count() })
		.from(studyQuestion)
		.where(eq(studyQuestion.studyId, studyId));
	const [set] = study.questionSetId
		? await db
				.select({ id: questionSet.id, name: questionSet.name })
				.from(questionSet)
				.where(eq(questionSet.id, study.questionSetId))
		: [];
	const stored = study.presentation as Partial<Record<QaType, DetailChoice>>;
	return {
		...study,
		questionSet: set ?? null,
		selection: selectionSchema.parse(study.selection),
		// A study created before the choice existed stored none (its texts used the layout of the time).
		presentation: Object.keys(stored).length ? presentationChoices(stored) : null,
		models,
		questions
	};
}

/** Every model with its answers to QA items and to question sets, for the study form. */
export async function listModelsWithCounts(db: Db) {
	// The outer table is named: a one-table select writes `${model.id}` as a bare "id", which the
	// subquery would read as its own row's id.
	return db
		.select({
			id: model.id,
			name: model.name,
			/** Answers to QA items. */
			responses: sql<number>`(select count(*)::int from ${response} r where r.model_id = ${model}.id)`,
			/** Answers to questions of question sets. */
			setResponses: sql<number>`(select count(*)::int from ${setResponse} r where r.model_id = ${model}.id)`
		})
		.from(model)
		.orderBy(asc(model.name));
}

/** Snapshots an organiser can base a study on. */
export async function listSnapshotsForStudies(db: Db) {
	return db
		.select({ id: snapshot.id, name: snapshot.name, itemCount: snapshot.itemCount })
		.from(snapshot)
		.orderBy(sql`${snapshot.id} desc`);
}
