import { asc, eq, sql } from 'drizzle-orm';
import type { QuestionType } from '../../../constants';
import type { Db, Tx } from '../../db/client';
import {
	candidate,
	model,
	qaItemVersion,
	setQuestion,
	study as studyTable,
	studyQuestion
} from '../../db/schema';
import {
	attackByType,
	attackFindings,
	auditBlinding,
	auditWarning,
	describeFinding,
	type AuditQuestion,
	type BlindingAudit,
	type TypeAttack
} from './blinding-audit';

/** The audit of a study's frozen candidates, as physicians see them and as stored. */
export interface StudyBlindingAudit {
	/** The texts physicians see (the canonical presentation). */
	shown: BlindingAudit;
	/** The raw texts, for comparison: what the presentation removed. */
	raw: BlindingAudit;
	/** A determined reader's attacks, per type and overall, on the shown and the raw texts. */
	attacks: { shown: TypeAttack[]; raw: TypeAttack[] };
}

/**
 * The audits of opened studies: their frozen candidates never change, so neither does the audit
 * (the attacks train many small models). Bounded; a dropped entry is simply computed again.
 */
const opened = new Map<number, StudyBlindingAudit>();
const KEEP = 50;

/** Audits the frozen candidates of a study (nothing before it first opens). */
export async function auditStudy(db: Db | Tx, studyId: number): Promise<StudyBlindingAudit> {
	const rows = await db
		.select({
			questionId: studyQuestion.id,
			itemId: studyQuestion.itemId,
			type: sql<QuestionType>`coalesce(${qaItemVersion.type}::text, 'free_text')`,
			question: sql<string>`coalesce(${qaItemVersion.question}, ${setQuestion.question})`,
			text: candidate.text,
			shown: sql<string>`coalesce(${candidate.shownText}, ${candidate.text})`,
			isReference: candidate.isReference,
			model: model.name
		})
		.from(candidate)
		.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
		.leftJoin(qaItemVersion, eq(qaItemVersion.id, studyQuestion.itemVersionId))
		.leftJoin(setQuestion, eq(setQuestion.id, studyQuestion.setQuestionId))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(eq(studyQuestion.studyId, studyId))
		.orderBy(asc(studyQuestion.id), asc(candidate.id));
	const shown = new Map<
		number,
		AuditQuestion & { candidates: AuditQuestion['candidates'][number][] }
	>();
	const raw = new Map<
		number,
		AuditQuestion & { candidates: AuditQuestion['candidates'][number][] }
	>();
	for (const r of rows) {
		for (const [questions, text] of [
			[shown, r.shown],
			[raw, r.text]
		] as const) {
			const q = questions.get(r.questionId) ?? {
				id: r.itemId ?? r.questionId,
				label: r.question,
				type: r.type,
				candidates: []
			};
			q.candidates.push({ text, isReference: r.isReference, model: r.model });
			questions.set(r.questionId, q);
		}
	}
	return {
		shown: auditBlinding([...shown.values()]),
		raw: auditBlinding([...raw.values()]),
		attacks: { shown: attackByType([...shown.values()]), raw: attackByType([...raw.values()]) }
	};
}

/**
 * `auditStudy`, kept for a study that has opened (its candidates are frozen for good). A draft,
 * or the open path's own transaction, always computes afresh.
 */
export async function studyAudit(db: Db, studyId: number): Promise<StudyBlindingAudit> {
	const known = opened.get(studyId);
	if (known) return known;
	const [study] = await db
		.select({ state: studyTable.state })
		.from(studyTable)
		.where(eq(studyTable.id, studyId));
	const audit = await auditStudy(db, studyId);
	if (study && study.state !== 'draft') {
		if (opened.size >= KEEP) opened.delete(opened.keys().next().value!);
		opened.set(studyId, audit);
	}
	return audit;
}

/**
 * What an organiser must confirm before a study opens: one warning per source (the reference or
 * a model) that an attack picks above chance on some question type, naming the type, the attack,
 * the rate against chance and its interval; and the form features that single a candidate out.
 * Empty when nothing gives a candidate away. Reads the frozen candidates, so the open path calls
 * it after freezing, in the same transaction: a refusal rolls the freeze back.
 */
export async function blindingWarnings(db: Db | Tx, studyId: number): Promise<string[]> {
	const audit = await auditStudy(db, studyId);
	const warnings = attackFindings(audit.attacks.shown).map(
		(f) =>
			`${describeFinding(f)} Physicians may be able to tell it apart by the form of its answers.`
	);
	const form = auditWarning(audit.shown);
	if (form)
		warnings.push(`${form} Physicians may be able to tell the answers apart by their form.`);
	return warnings;
}
