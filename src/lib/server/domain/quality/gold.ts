// Gold questions: a study question with a known answer (gold labels in the design's key space and
// an explanation). In a benchmark study they are hidden checks served at the study's gold rate; in
// a qualification round every question is gold. Either way they never count in a figure.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Db } from '../../db/client';
import { subAspectsOf } from '../../../schemas/rubric';
import { candidate, goldLabel, goldQuestion, study, studyQuestion } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { JsonFormError, parseJsonText } from '../imports';
import {
	EVIDENCE_RELATIONS,
	EVIDENCE_RELEVANCES,
	TAGS,
	type StudyDesign
} from '../../../constants';
import { frozenRubric, studyPairing } from '../studies';
import type { GoldAnswer } from './gold-compare';

/** The gold answers of a study's gold questions, by study question id. */
export async function goldAnswers(db: Db, studyId: number): Promise<Map<number, GoldAnswer>> {
	const rows = await db
		.select({
			questionId: studyQuestion.id,
			explanation: goldQuestion.explanation,
			key: goldLabel.key,
			label: goldLabel.label
		})
		.from(studyQuestion)
		.innerJoin(goldQuestion, eq(goldQuestion.studyQuestionId, studyQuestion.id))
		.innerJoin(goldLabel, eq(goldLabel.studyQuestionId, studyQuestion.id))
		.where(and(eq(studyQuestion.studyId, studyId), eq(studyQuestion.gold, true)))
		.orderBy(asc(studyQuestion.id), asc(goldLabel.key));
	const answers = new Map<number, GoldAnswer>();
	for (const r of rows) {
		let answer = answers.get(r.questionId);
		if (!answer) {
			answer = { labels: new Map(), explanation: r.explanation };
			answers.set(r.questionId, answer);
		}
		answer.labels.set(r.key, r.label);
	}
	return answers;
}

// Keys starting with `_` (the template's `_question`) are for the organiser's orientation and are
// ignored, like any other key the record does not read; a label left null (unfilled in the
// template) is skipped.
const goldRecord = z.object({
	question_id: z.number().int().positive(),
	labels: z.record(
		z.string().min(1).max(200),
		z.union([z.string().min(1).max(200), z.number(), z.null()])
	),
	explanation: z.string().max(20_000).default('')
});
const goldFile = z.array(goldRecord).min(1).max(10_000);

/** What one gold key may hold: a list of labels, or whole numbers in a range. */
type Allowed = { values: readonly string[] } | { min: number; max: number };

/** The keys a gold answer of a question may set, with what each may hold. */
async function keySpace(db: Db, design: StudyDesign, questionId: number) {
	const answers = rowsOf<{ id: number; source: string }>(
		await db.execute(sql`select c.id, coalesce(m.name, 'reference') as source
			from candidate c left join model m on m.id = c.model_id
			where c.study_question_id = ${questionId} order by c.id`)
	);
	const sources = answers.map((a) => a.source);
	const space = new Map<string, Allowed>();
	const wildcard: { prefix: string; allowed: Allowed }[] = [];
	if (design === 'ranking')
		for (const s of sources) {
			space.set(`${s}/tag`, { values: TAGS });
			space.set(`${s}/rank`, { min: 1, max: sources.length });
		}
	if (design === 'rubric')
		for (const s of sources) wildcard.push({ prefix: `${s}/`, allowed: { min: 0, max: 100 } });
	if (design === 'pairwise') {
		space.set('preferred', { values: [...sources, 'tie'] });
		wildcard.push({ prefix: 'preferred/', allowed: { values: [...sources, 'tie'] } });
	}
	if (design === 'evidence') {
		space.set('answers', { values: ['yes', 'no'] });
		const sentences = rowsOf<{ position: number }>(
			await db.execute(sql`select s.position from evidence_sentence s
				join candidate c on c.id = s.candidate_id where c.study_question_id = ${questionId}`)
		);
		for (const { position } of sentences) {
			space.set(`s${position}/relevance`, { values: EVIDENCE_RELEVANCES });
			wildcard.push({ prefix: `s${position}/`, allowed: { values: EVIDENCE_RELATIONS } });
		}
	}
	return (key: string): Allowed | undefined =>
		space.get(key) ??
		wildcard.find((w) => key.startsWith(w.prefix) && key.length > w.prefix.length)?.allowed;
}

function checkValue(allowed: Allowed, value: string): string | null {
	if ('values' in allowed)
		return allowed.values.includes(value) ? null : `must be one of ${allowed.values.join(', ')}`;
	const n = Number(value);
	return Number.isInteger(n) && n >= allowed.min && n <= allowed.max
		? null
		: `must be a whole number from ${allowed.min} to ${allowed.max}`;
}

/**
 * Makes questions of a study gold from a JSON file: an array of `{ question_id, labels,
 * explanation }`, `question_id` as in the study's export, `labels` in the design's key space
 * (e.g. `{ "gpt-4o/tag": "good" }`). Every record is checked before anything is written; then,
 * in one transaction, each named question becomes gold with exactly these labels (replacing
 * earlier ones). Returns the number of gold questions written.
 */
export async function importGold(
	db: Db,
	studyId: number,
	text: string,
	actorId: string
): Promise<{ questions: number }> {
	const [s] = await db.select().from(study).where(eq(study.id, studyId));
	if (!s) throw new DomainError('not_found', 'No such study.');
	if (s.state === 'closed')
		throw new DomainError('conflict', 'A closed study keeps its questions as they are.');
	let parsed: unknown;
	try {
		parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
	} catch (e) {
		if (e instanceof JsonFormError)
			throw new DomainError('invalid', `The gold file is not valid JSON: ${e.message}`);
		throw e;
	}
	const file = goldFile.safeParse(parsed);
	if (!file.success)
		throw new DomainError(
			'invalid',
			'The gold file must be a JSON array of { "question_id", "labels", "explanation" } records.',
			{ problems: file.error.issues.slice(0, 20).map((i) => `${i.path.join('.')}: ${i.message}`) }
		);
	// A record whose every label is null is a template question left unfilled: not gold.
	const records = file.data
		.filter((r) => {
			const values = Object.values(r.labels);
			return values.length === 0 || values.some((v) => v !== null);
		})
		.map((r) => ({
			...r,
			labels: Object.fromEntries(
				Object.entries(r.labels).filter((e): e is [string, string | number] => e[1] !== null)
			)
		}));
	if (records.length === 0)
		throw new DomainError(
			'invalid',
			'The gold file fills in no label: every label is null, so nothing was saved.'
		);
	const ids = [...new Set(records.map((r) => r.question_id))];
	if (ids.length !== records.length)
		throw new DomainError('invalid', 'Each question may appear once in a gold file.');
	const known = await db
		.select({ id: studyQuestion.id })
		.from(studyQuestion)
		.where(and(eq(studyQuestion.studyId, studyId), inArray(studyQuestion.id, ids)));
	const knownIds = new Set(known.map((k) => k.id));
	const problems: string[] = [];
	for (const r of records) {
		if (!knownIds.has(r.question_id)) {
			problems.push(`question_id ${r.question_id} is not a question of this study.`);
			continue;
		}
		const allowedFor = await keySpace(db, s.design, r.question_id);
		const entries = Object.entries(r.labels);
		if (entries.length === 0) problems.push(`question_id ${r.question_id}: no labels.`);
		for (const [key, value] of entries) {
			const allowed = allowedFor(key);
			if (!allowed) {
				problems.push(`question_id ${r.question_id}: "${key}" is not a label of this question.`);
				continue;
			}
			const wrong = checkValue(allowed, String(value));
			if (wrong) problems.push(`question_id ${r.question_id}: "${key}" ${wrong}.`);
		}
	}
	if (problems.length > 0)
		throw new DomainError(
			'invalid',
			`The gold file has ${problems.length} problem(s); nothing was saved.`,
			{
				problems: problems.slice(0, 50)
			}
		);
	await db.transaction(async (tx) => {
		for (const r of records) {
			await tx.update(studyQuestion).set({ gold: true }).where(eq(studyQuestion.id, r.question_id));
			await tx
				.insert(goldQuestion)
				.values({ studyQuestionId: r.question_id, explanation: r.explanation, createdBy: actorId })
				.onConflictDoUpdate({
					target: goldQuestion.studyQuestionId,
					set: { explanation: r.explanation, createdBy: actorId, createdAt: new Date() }
				});
			await tx.delete(goldLabel).where(eq(goldLabel.studyQuestionId, r.question_id));
			await tx.insert(goldLabel).values(
				Object.entries(r.labels).map(([key, label]) => ({
					studyQuestionId: r.question_id,
					key,
					label: String(label)
				}))
			);
		}
		await recordAudit(tx, {
			actorId,
			action: 'study.gold_imported',
			objectType: 'study',
			objectId: studyId,
			after: { questions: ids }
		});
	});
	return { questions: ids.length };
}

/** Turns gold questions back into ordinary ones (their judgements count again). */
export async function removeGold(db: Db, studyId: number, questionIds: number[], actorId: string) {
	if (questionIds.length === 0) return;
	await db.transaction(async (tx) => {
		const mine = await tx
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(and(eq(studyQuestion.studyId, studyId), inArray(studyQuestion.id, questionIds)));
		const ids = mine.map((m) => m.id);
		if (ids.length === 0) return;
		await tx.update(studyQuestion).set({ gold: false }).where(inArray(studyQuestion.id, ids));
		await tx.delete(goldLabel).where(inArray(goldLabel.studyQuestionId, ids));
		await tx.delete(goldQuestion).where(inArray(goldQuestion.studyQuestionId, ids));
		await recordAudit(tx, {
			actorId,
			action: 'study.gold_removed',
			objectType: 'study',
			objectId: studyId,
			before: { questions: ids }
		});
	});
}

/** A study's gold questions for the organiser: id, the answers' names, labels and explanation. */
export async function listGold(db: Db, studyId: number) {
	const answers = await goldAnswers(db, studyId);
	const ids = [...answers.keys()];
	const names =
		ids.length === 0
			? []
			: await db
					.select({ questionId: candidate.studyQuestionId, id: candidate.id })
					.from(candidate)
					.where(inArray(candidate.studyQuestionId, ids));
	return ids.map((id) => ({
		questionId: id,
		answers: names.filter((n) => n.questionId === id).length,
		labels: [...answers.get(id)!.labels].map(([key, label]) => ({ key, label })),
		explanation: answers.get(id)!.explanation
	}));
}

/** One record of a gold template: every label the question may have, null for the organiser. */
export interface GoldTemplateRecord {
	question_id: number;
	/** The question's first characters, for orientation only (import ignores `_` keys). */
	_question: string;
	labels: Record<string, null>;
	explanation: string;
}

/** Characters of the question a template record shows. */
const TEMPLATE_QUESTION_CHARS = 120;

/**
 * A gold file to fill in: one record per question of the study, in id order, with the question's
 * first 120 characters (`_question`) and every label it may have set to null. Filled in and
 * imported as it is, the labels left null are skipped and the questions left all null stay
 * ordinary. Empty for a draft (its questions are chosen when it opens).
 */
export async function goldTemplate(db: Db, studyId: number): Promise<GoldTemplateRecord[]> {
	const [s] = await db.select().from(study).where(eq(study.id, studyId));
	if (!s) throw new DomainError('not_found', 'No such study.');
	const questions = rowsOf<{ id: number; question: string }>(
		await db.execute(sql`select q.id, coalesce(sq.question, i.question, '') as question
			from study_question q
			left join set_question sq on sq.id = q.set_question_id
			left join qa_item_version i on i.id = q.item_version_id
			where q.study_id = ${studyId} order by q.id`)
	);
	const answers = rowsOf<{ question_id: number; candidate_id: number; source: string }>(
		await db.execute(sql`select c.study_question_id as question_id, c.id as candidate_id,
				coalesce(m.name, 'reference') as source
			from candidate c join study_question q on q.id = c.study_question_id
			left join model m on m.id = c.model_id
			where q.study_id = ${studyId} order by c.id`)
	);
	const sourcesOf = new Map<number, string[]>();
	for (const a of answers)
		sourcesOf.set(Number(a.question_id), [
			...(sourcesOf.get(Number(a.question_id)) ?? []),
			a.source
		]);
	const keysOf = await templateKeys(db, s.design, studyId);
	return questions.map((q) => {
		const id = Number(q.id);
		const text = q.question.replace(/\s+/g, ' ').trim();
		return {
			question_id: id,
			_question:
				text.length > TEMPLATE_QUESTION_CHARS ? `${text.slice(0, TEMPLATE_QUESTION_CHARS)}…` : text,
			labels: Object.fromEntries(keysOf(id, sourcesOf.get(id) ?? []).map((k) => [k, null])),
			explanation: ''
		};
	});
}

/** Every gold key of a question of the study, as `keySpace` allows them, spelt out. */
async function templateKeys(
	db: Db,
	design: StudyDesign,
	studyId: number
): Promise<(questionId: number, sources: string[]) => string[]> {
	if (design === 'ranking')
		return (_, sources) => sources.flatMap((s) => [`${s}/tag`, `${s}/rank`]);
	if (design === 'rubric') {
		const rubric = await frozenRubric(db, studyId);
		const codes = rubric ? subAspectsOf(rubric.definition).map((x) => x.code) : [];
		return (_, sources) => sources.flatMap((s) => codes.map((c) => `${s}/${c}`));
	}
	if (design === 'pairwise') {
		const aspects = (await studyPairing(db, studyId))?.rubric?.aspects ?? [];
		return () => ['preferred', ...aspects.map((a) => `preferred/${a.code}`)];
	}
	const sentences = rowsOf<{ question_id: number; position: number; citations: string[] }>(
		await db.execute(sql`select c.study_question_id as question_id, s.position, s.citations
			from evidence_sentence s join candidate c on c.id = s.candidate_id
			join study_question q on q.id = c.study_question_id
			where q.study_id = ${studyId} order by c.id, s.position`)
	);
	const byQuestion = new Map<number, string[]>();
	for (const r of sentences) {
		const keys = [`s${r.position}/relevance`, ...r.citations.map((p) => `s${r.position}/${p}`)];
		byQuestion.set(Number(r.question_id), [
			...(byQuestion.get(Number(r.question_id)) ?? []),
			...keys
		]);
	}
	return (questionId) => ['answers', ...new Set(byQuestion.get(questionId) ?? [])];
}
