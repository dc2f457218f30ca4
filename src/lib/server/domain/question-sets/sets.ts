import { asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { model, questionSet, setQuestion, setResponse } from '../../db/schema';
import { DomainError } from '../../errors';
import { TEXT_LIMITS } from '../../../schemas/text';

/** A question set with what has been imported into it. */
export interface QuestionSetSummary {
	id: number;
	name: string;
	description: string;
	questions: number;
	responses: number;
	/** The models with responses in the set, by name, with how many questions each answered. */
	models: { name: string; responses: number }[];
	createdAt: Date;
}

/** A set's name as given: trimmed, 1 to 200 characters. */
export const setNameSchema = z
	.string()
	.trim()
	.min(1, 'Give the question set a name.')
	.max(TEXT_LIMITS.id, `A set name is at most ${TEXT_LIMITS.id} characters.`);

/** A set name checked, or a DomainError naming the `set` field. */
export function checkSetName(name: string): string {
	const parsed = setNameSchema.safeParse(name);
	if (!parsed.success)
		throw new DomainError('invalid', parsed.error.issues[0].message, { field: 'set' });
	return parsed.data;
}

/** The set named `name`, or null. */
export async function findSet(tx: Db | Tx, name: string) {
	const [row] = await tx.select().from(questionSet).where(eq(questionSet.name, name));
	return row ?? null;
}

async function summaries(db: Db, only?: number): Promise<QuestionSetSummary[]> {
	const where = only === undefined ? undefined : eq(questionSet.id, only);
	const sets = await db
		.select({
			id: questionSet.id,
			name: questionSet.name,
			description: questionSet.description,
			createdAt: questionSet.createdAt,
			questions: sql<number>`count(${setQuestion.id})::int`
		})
		.from(questionSet)
		.leftJoin(setQuestion, eq(setQuestion.questionSetId, questionSet.id))
		.where(where)
		.groupBy(questionSet.id)
		.orderBy(asc(questionSet.name));
	const perModel = await db
		.select({ setId: setQuestion.questionSetId, name: model.name, n: count() })
		.from(setResponse)
		.innerJoin(setQuestion, eq(setQuestion.id, setResponse.setQuestionId))
		.innerJoin(model, eq(model.id, setResponse.modelId))
		.where(only === undefined ? undefined : eq(setQuestion.questionSetId, only))
		.groupBy(setQuestion.questionSetId, model.name)
		.orderBy(asc(model.name));
	return sets.map((s) => {
		const models = perModel
			.filter((m) => m.setId === s.id)
			.map((m) => ({ name: m.name, responses: Number(m.n) }));
		return {
			...s,
			questions: Number(s.questions),
			responses: models.reduce((n, m) => n + m.responses, 0),
			models
		};
	});
}

/** Every question set, by name, with its questions and responses counted (per model too). */
export async function listQuestionSets(db: Db): Promise<QuestionSetSummary[]> {
	return summaries(db);
}

/** One question set with its counts, or null when there is none with that id. */
export async function getQuestionSet(db: Db, id: number): Promise<QuestionSetSummary | null> {
	const [set] = await summaries(db, id);
	return set ?? null;
}
