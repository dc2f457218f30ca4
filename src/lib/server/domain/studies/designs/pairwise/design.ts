// The pairwise design's plug into the study engine (designs/registry.ts): a pairwise study stores
// its pairing at creation; at the first opening it turns each frozen question into its units of
// two answers (pairs.ts) and freezes the rubric whose aspects it asks about, if any.
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../../db/client';
import { candidate, studyQuestion } from '../../../../db/schema';
import { DomainError } from '../../../../errors';
import { randomId } from '../../../../ids';
import type { StudyDesignPlug } from '../plug';
import { rubric, rubricVersion } from '../rubric/schema';
import { planPairs, type PlanQuestion } from './pairs';
import { pairwiseStudy } from './schema';
import { pairwiseStudyBattles } from './statistics';
import { pairwiseLabels } from './labels';

const arrayLiteral = (values: readonly (string | number)[]) => `{${values.join(',')}}`;

export const pairwiseDesign: StudyDesignPlug = {
	labels: pairwiseLabels,
	async onCreate(tx, study, input) {
		const pairing = input.pairing ?? 'all';
		if (pairing === 'balanced' && !input.pairsPerQuestion)
			throw new DomainError('invalid', 'Say how many pairs each question gets.', {
				field: 'pairsPerQuestion'
			});
		if (input.rubricId) {
			const [known] = await tx
				.select({ id: rubric.id })
				.from(rubric)
				.where(eq(rubric.id, input.rubricId));
			if (!known)
				throw new DomainError('invalid', 'The chosen rubric does not exist.', {
					field: 'rubricId'
				});
		}
		await tx.insert(pairwiseStudy).values({
			studyId: study.id,
			pairing,
			pairsPerQuestion: pairing === 'balanced' ? input.pairsPerQuestion! : null,
			seed: input.pairSeed?.trim() || randomId(12),
			rubricId: input.rubricId ?? null
		});
	},
	async onFirstOpen(tx, study) {
		const [settings] = await tx
			.select()
			.from(pairwiseStudy)
			.where(eq(pairwiseStudy.studyId, study.id));
		if (!settings) throw new DomainError('invalid', 'This pairwise study has no pairing.');
		if (settings.rubricId) {
			const [latest] = await tx
				.select({ id: rubricVersion.id })
				.from(rubricVersion)
				.where(eq(rubricVersion.rubricId, settings.rubricId))
				.orderBy(desc(rubricVersion.version))
				.limit(1);
			if (!latest)
				throw new DomainError('invalid', 'The study’s rubric has no version to ask about.');
			await tx
				.update(pairwiseStudy)
				.set({ rubricVersionId: latest.id })
				.where(eq(pairwiseStudy.studyId, study.id));
		}
		await splitIntoPairs(tx, study.id, settings);
	},
	async configuration(db, studyId) {
		return { pairing: await studyPairing(db, studyId) };
	},
	battles: pairwiseStudyBattles,
	noun: 'preference',
	screenPath: (publicId) => `/rank/pairwise/${publicId}`
};

/**
 * Replaces each question the engine froze (one unit of all its answers) by its planned pairs:
 * one unit per pair, numbered 1, 2, … per question, holding copies of the two answers' frozen
 * texts, each wanting the study's k raters. Runs in the opening's transaction.
 */
async function splitIntoPairs(
	tx: Tx,
	studyId: number,
	settings: typeof pairwiseStudy.$inferSelect
): Promise<void> {
	const answers = await tx
		.select({
			questionId: candidate.studyQuestionId,
			candidateId: candidate.id,
			modelId: candidate.modelId,
			isReference: candidate.isReference
		})
		.from(candidate)
		.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
		.where(eq(studyQuestion.studyId, studyId))
		.orderBy(asc(candidate.studyQuestionId), asc(candidate.id));
	const byQuestion = new Map<number, Map<string, number>>();
	for (const a of answers) {
		const source = a.isReference ? 'reference' : String(a.modelId);
		const of = byQuestion.get(a.questionId) ?? new Map<string, number>();
		of.set(source, a.candidateId);
		byQuestion.set(a.questionId, of);
	}
	const questions: PlanQuestion[] = [...byQuestion].map(([questionId, of]) => ({
		questionId,
		sources: [...of.keys()]
	}));
	const plan = planPairs(
		questions,
		settings.pairing === 'balanced'
			? { mode: 'balanced', perQuestion: settings.pairsPerQuestion!, seed: settings.seed }
			: { mode: 'all' }
	);
	if (!plan.length)
		throw new DomainError(
			'invalid',
			'No pairs to judge: every question needs at least two answers (two models, or a model and the reference).'
		);
	const unitOf = new Map<number, number>();
	const q: number[] = [];
	const unit: number[] = [];
	const a: number[] = [];
	const b: number[] = [];
	for (const p of plan) {
		const n = (unitOf.get(p.questionId) ?? 0) + 1;
		unitOf.set(p.questionId, n);
		q.push(p.questionId);
		unit.push(n);
		a.push(byQuestion.get(p.questionId)!.get(p.a)!);
		b.push(byQuestion.get(p.questionId)!.get(p.b)!);
	}
	// One unit per planned pair, beside the question's unit 0 (removed below), then the pair's two
	// answers copied into it (ids in plan order: a before b).
	await tx.execute(sql`
		insert into study_question (study_id, item_id, item_version_id, set_question_id, unit, open_slots)
		select sq.study_id, sq.item_id, sq.item_version_id, sq.set_question_id, p.unit, sq.open_slots
		from unnest(${arrayLiteral(q)}::integer[], ${arrayLiteral(unit)}::integer[]) as p(q, unit)
		join study_question sq on sq.id = p.q
		order by p.q, p.unit`);
	await tx.execute(sql`
		insert into candidate (study_question_id, response_id, set_response_id, model_id, is_reference, text, shown_text)
		select u.id, c.response_id, c.set_response_id, c.model_id, c.is_reference, c.text, c.shown_text
		from unnest(${arrayLiteral(q)}::integer[], ${arrayLiteral(unit)}::integer[],
			${arrayLiteral(a)}::integer[], ${arrayLiteral(b)}::integer[]) as p(q, unit, a, b)
		join study_question sq on sq.id = p.q
		join study_question u on u.study_id = sq.study_id and u.unit = p.unit
			-- Plain equalities (a unit has an item or a set question, never both): with IS NOT
			-- DISTINCT FROM the planner can only nest loops, quadratic in the pairs.
			and coalesce(u.item_id, 0) = coalesce(sq.item_id, 0)
			and coalesce(u.set_question_id, 0) = coalesce(sq.set_question_id, 0)
		cross join lateral (values (p.a, 1), (p.b, 2)) as side(candidate_id, k)
		join candidate c on c.id = side.candidate_id
		order by u.id, side.k`);
	await tx.execute(sql`
		delete from candidate where study_question_id in (
			select id from study_question where study_id = ${studyId} and unit = 0)`);
	await tx.execute(sql`delete from study_question where study_id = ${studyId} and unit = 0`);
}

/** A pairwise study's pairing and the rubric it asks about (null for a study of another design). */
export async function studyPairing(db: Db | Tx, studyId: number) {
	const [row] = await db
		.select({
			pairing: pairwiseStudy.pairing,
			pairsPerQuestion: pairwiseStudy.pairsPerQuestion,
			seed: pairwiseStudy.seed,
			rubricId: pairwiseStudy.rubricId,
			rubricName: rubric.name,
			rubricVersionId: pairwiseStudy.rubricVersionId
		})
		.from(pairwiseStudy)
		.leftJoin(rubric, eq(rubric.id, pairwiseStudy.rubricId))
		.where(eq(pairwiseStudy.studyId, studyId));
	if (!row) return null;
	let aspects: { code: string; name: string }[] | null = null;
	let rubricVersion_: number | null = null;
	if (row.rubricVersionId) {
		const [v] = await db
			.select({ version: rubricVersion.version, definition: rubricVersion.definition })
			.from(rubricVersion)
			.where(eq(rubricVersion.id, row.rubricVersionId));
		aspects = v.definition.aspects.map((x) => ({ code: x.code, name: x.name }));
		rubricVersion_ = v.version;
	}
	return {
		pairing: row.pairing,
		pairsPerQuestion: row.pairsPerQuestion,
		seed: row.seed,
		rubric: row.rubricId
			? { id: row.rubricId, name: row.rubricName!, frozenVersion: rubricVersion_, aspects }
			: null
	};
}

/** How many pairs a pairwise study holds: its units, planned when it first opened (0 before). */
export async function pairCount(db: Db | Tx, studyId: number): Promise<number> {
	const [row] = await db
		.select({ n: sql<number>`count(*)::int` })
		.from(studyQuestion)
		.where(and(eq(studyQuestion.studyId, studyId), gt(studyQuestion.unit, 0)));
	return row?.n ?? 0;
}

/** How many questions a pairwise study's pairs come from (0 before it first opens). */
export async function pairedQuestionCount(db: Db | Tx, studyId: number): Promise<number> {
	const [row] = await db
		.select({
			n: sql<number>`count(distinct coalesce(${studyQuestion.itemId}, -${studyQuestion.setQuestionId}))::int`
		})
		.from(studyQuestion)
		.where(and(eq(studyQuestion.studyId, studyId), gt(studyQuestion.unit, 0)));
	return row?.n ?? 0;
}
