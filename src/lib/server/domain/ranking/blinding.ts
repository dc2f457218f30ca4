import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { candidate, model, qaItemVersion, studyQuestion } from '../../db/schema';
import {
	auditBlinding,
	auditWarning,
	type AuditQuestion,
	type BlindingAudit
} from './blinding-audit';

/** The audit of a study's frozen candidates, as physicians see them and as stored. */
export interface StudyBlindingAudit {
	/** The texts physicians see (the canonical presentation). */
	shown: BlindingAudit;
	/** The raw texts, for comparison: what the presentation removed. */
	raw: BlindingAudit;
}

/** Audits the frozen candidates of a study (nothing before it first opens). */
export async function auditStudy(db: Db | Tx, studyId: number): Promise<StudyBlindingAudit> {
	const rows = await db
		.select({
			questionId: studyQuestion.id,
			itemId: studyQuestion.itemId,
			type: qaItemVersion.type,
			question: qaItemVersion.question,
			text: candidate.text,
			shown: sql<string>`coalesce(${candidate.shownText}, ${candidate.text})`,
			isReference: candidate.isReference,
			model: model.name
		})
		.from(candidate)
		.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, studyQuestion.itemVersionId))
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
				id: r.itemId,
				label: r.question,
				type: r.type,
				candidates: []
			};
			q.candidates.push({ text, isReference: r.isReference, model: r.model });
			questions.set(r.questionId, q);
		}
	}
	return { shown: auditBlinding([...shown.values()]), raw: auditBlinding([...raw.values()]) };
}

/**
 * What an organiser must confirm before a study opens, or null when no surface feature of the shown
 * texts gives the reference (or one model) away. Reads the frozen candidates, so the open path calls
 * it after freezing, in the same transaction: a refusal rolls the freeze back.
 */
export async function blindingWarning(db: Db | Tx, studyId: number): Promise<string | null> {
	const warning = auditWarning((await auditStudy(db, studyId)).shown);
	return warning && `${warning} Physicians may be able to tell the answers apart by their form.`;
}
