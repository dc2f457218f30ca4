// Automatic judges of a study (an LLM judge, a metric): their scores and preferences for the
// study's frozen answers, imported from a file and compared with the physicians by the statistics.
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { chunk } from '../../db/chunk';
import {
	candidate,
	importRecord,
	judge,
	judgePreference,
	judgeScore,
	model,
	setQuestion,
	study as studyTable,
	studyQuestion
} from '../../db/schema';
import { DomainError } from '../../errors';
import { TEXT_LIMITS, unstorableStrings } from '../../../schemas/text';
import { recordAudit } from '../audit';
import {
	duplicateKeyErrors,
	duplicateRecordWarning,
	importRejected,
	recordsOfFile,
	type ImportActor,
	type ImportWarning,
	type QaImportFile,
	type RecordError
} from '../imports';
import { frozenRubric, subAspectsOf } from './designs/rubric';

/** The criterion of a judgement of the answer as a whole; every study accepts it. */
export const OVERALL = 'overall';
/** How a record names the reference answer instead of a model. */
const REFERENCE = 'reference';

const name = z
	.string({ error: 'must be a text' })
	.trim()
	.min(1, 'must not be empty')
	.max(TEXT_LIMITS.id, `is longer than ${TEXT_LIMITS.id} characters`);
const questionId = z.union(
	[z.string().trim().min(1).max(TEXT_LIMITS.id), z.number().int().nonnegative()],
	{ error: 'must be the question’s id (a question set’s id, or a QA item id)' }
);
const rationale = z
	.string({ error: 'must be a text' })
	.max(TEXT_LIMITS.field, `is longer than ${TEXT_LIMITS.field.toLocaleString('en')} characters`);

const scoreRecord = z.object({
	judge: name.optional(),
	question_id: questionId,
	model: name,
	// Values are checked one by one below, so each bad one is named by its code.
	scores: z
		.record(z.string(), z.unknown(), { error: 'must map criterion codes to numbers' })
		.optional(),
	score: z.unknown().optional(),
	rationales: z
		.record(z.string(), rationale, { error: 'must map criterion codes to texts' })
		.optional(),
	rationale: rationale.optional()
});

const preferenceRecord = z.object({
	judge: name.optional(),
	question_id: questionId,
	model_a: name,
	model_b: name,
	preferred: z.enum(['A', 'B', 'tie'], { error: 'must be "A", "B" or "tie"' }),
	criterion: name.optional(),
	rationale: rationale.optional()
});

/** One judge's share of an import. */
export interface ImportedJudge {
	name: string;
	scores: number;
	preferences: number;
	/** The judge existed in the study; its earlier scores and preferences were replaced. */
	replaced: boolean;
}

export interface JudgeImportResult {
	judges: ImportedJudge[];
	warnings: ImportWarning[];
	importId: number;
}

/** The answers of a study: per question id (as records name it), each candidate by model name. */
interface StudyAnswers {
	questions: Map<string, { id: number; candidates: Map<string, number> }>;
	criteria: Set<string>;
	design: string;
}

async function studyAnswers(db: Db | Tx, studyId: number): Promise<StudyAnswers> {
	const [s] = await db.select().from(studyTable).where(eq(studyTable.id, studyId));
	if (!s) throw new DomainError('not_found', 'No such study.');
	if (s.state === 'draft')
		throw new DomainError(
			'invalid',
			`Study “${s.name}” is a draft: its questions and answers are frozen when it opens, so judges can be imported only after that.`
		);
	const criteria = new Set([OVERALL]);
	if (s.design === 'rubric') {
		const rubric = await frozenRubric(db, studyId);
		if (!rubric)
			throw new DomainError('invalid', `Study “${s.name}” has no frozen rubric to judge with.`);
		for (const sub of subAspectsOf(rubric.definition)) criteria.add(sub.code);
	}
	const rows = await db
		.select({
			id: studyQuestion.id,
			itemId: studyQuestion.itemId,
			externalId: setQuestion.externalId,
			candidateId: candidate.id,
			isReference: candidate.isReference,
			model: model.name
		})
		.from(studyQuestion)
		.leftJoin(setQuestion, eq(setQuestion.id, studyQuestion.setQuestionId))
		.innerJoin(candidate, eq(candidate.studyQuestionId, studyQuestion.id))
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(eq(studyQuestion.studyId, studyId));
	const questions: StudyAnswers['questions'] = new Map();
	for (const r of rows) {
		const key = r.externalId ?? String(r.itemId);
		let q = questions.get(key);
		if (!q) questions.set(key, (q = { id: r.id, candidates: new Map() }));
		const who = r.isReference ? REFERENCE : r.model;
		if (who !== null) q.candidates.set(who, r.candidateId);
	}
	return { questions, criteria, design: s.design };
}

/** A score or preference ready to write, with the record it came from. */
interface Pending {
	judge: string;
	index: number;
	rationale: string | null;
}
interface PendingScore extends Pending {
	candidateId: number;
	criterion: string;
	score: number;
}
interface PendingPreference extends Pending {
	a: number;
	b: number;
	criterion: string;
	preferred: 'A' | 'B' | 'tie';
}

/** The preference as seen from the lower candidate id, so (A, B) and (B, A) compare alike. */
function canonical(p: PendingPreference) {
	if (p.a < p.b) return { lo: p.a, hi: p.b, preferred: p.preferred };
	const flipped = p.preferred === 'tie' ? 'tie' : p.preferred === 'A' ? 'B' : 'A';
	return { lo: p.b, hi: p.a, preferred: flipped };
}

/**
 * Reads and checks every record of a judge file against the study; collects every problem of
 * every record before anything is written.
 */
class JudgeRecords {
	readonly errors: RecordError[] = [];
	readonly scores: PendingScore[] = [];
	readonly preferences: PendingPreference[] = [];
	readonly repeats: RecordError[] = [];
	total = 0;
	private readonly seen = new Map<string, { index: number; value: string }>();

	constructor(
		private readonly file: string,
		private readonly answers: StudyAnswers,
		private readonly defaultJudge: string | undefined
	) {}

	private error(index: number, field: string, reason: string, kind?: RecordError['kind']) {
		this.errors.push({ file: this.file, index, field, reason, ...(kind ? { kind } : {}) });
	}

	add(raw: { index: number; value: unknown; text: string }) {
		const { index, value } = raw;
		this.total++;
		this.errors.push(...duplicateKeyErrors(raw.text, this.file, (path) => ({ index, path })));
		for (const u of unstorableStrings(value)) this.error(index, u.field, u.reason);
		if (!value || typeof value !== 'object' || Array.isArray(value)) {
			this.error(index, '(record)', 'must be an object of scores or of a preference');
			return;
		}
		const isPreference = 'model_a' in value || 'model_b' in value || 'preferred' in value;
		if (isPreference && ('model' in value || 'scores' in value || 'score' in value)) {
			this.error(
				index,
				'(record)',
				'mixes a score ("model", "score(s)") with a preference ("model_a", "model_b", "preferred"); give each its own record'
			);
			return;
		}
		const parsed = (isPreference ? preferenceRecord : scoreRecord).safeParse(value);
		if (!parsed.success) {
			for (const issue of parsed.error.issues)
				this.error(index, issue.path.map(String).join('.') || '(record)', issue.message);
			return;
		}
		const judgeName = parsed.data.judge ?? this.defaultJudge;
		if (!judgeName)
			this.error(index, 'judge', 'is missing: name the judge in the record or as the judge option');
		const qid = String(parsed.data.question_id);
		const question = this.answers.questions.get(qid);
		if (!question) {
			this.error(index, 'question_id', `“${qid}” is not a question of this study`, 'unmatched');
			return;
		}
		const answer = (field: string, who: string) => {
			const id = question.candidates.get(who);
			if (id === undefined)
				this.error(
					index,
					field,
					`“${who}” is not among the answers of question “${qid}” (${[...question.candidates.keys()].join(', ')})`,
					'unmatched'
				);
			return id;
		};
		const criterionOk = (field: string, code: string) => {
			if (this.answers.criteria.has(code)) return true;
			this.error(
				index,
				field,
				this.answers.design === 'rubric'
					? `“${code}” is not a criterion of this study’s rubric (${[...this.answers.criteria].join(', ')})`
					: `“${code}” is not a criterion of this study: a ${this.answers.design} study is judged “${OVERALL}” only`
			);
			return false;
		};
		if ('preferred' in parsed.data) {
			const d = parsed.data;
			const a = answer('model_a', d.model_a);
			const b = answer('model_b', d.model_b);
			if (d.model_a === d.model_b)
				this.error(
					index,
					'model_b',
					'is the same answer as model_a; a preference compares two answers'
				);
			const criterion = d.criterion ?? OVERALL;
			const ok = criterionOk('criterion', criterion);
			if (!judgeName || a === undefined || b === undefined || a === b || !ok) return;
			const p: PendingPreference = {
				judge: judgeName,
				index,
				a,
				b,
				criterion,
				preferred: d.preferred,
				rationale: d.rationale ?? null
			};
			const c = canonical(p);
			if (
				this.once(
					index,
					'preferred',
					`${judgeName}\u0000${c.lo}\u0000${c.hi}\u0000${criterion}`,
					JSON.stringify([c.preferred, p.rationale]),
					`the preference of ${judgeName} between ${d.model_a} and ${d.model_b} on ${criterion}`
				)
			)
				this.preferences.push(p);
			return;
		}
		const d = parsed.data as z.infer<typeof scoreRecord>;
		const cand = answer('model', d.model);
		const given: [field: string, criterion: string, score: unknown, rationale: string | null][] =
			[];
		if (d.scores) {
			for (const [code, score] of Object.entries(d.scores))
				given.push([`scores.${code}`, code, score, d.rationales?.[code] ?? null]);
			for (const code of Object.keys(d.rationales ?? {}))
				if (!(code in d.scores))
					this.error(index, `rationales.${code}`, 'has no score beside it in "scores"');
		}
		if (d.score !== undefined) given.push(['score', OVERALL, d.score, d.rationale ?? null]);
		if (!given.length)
			this.error(
				index,
				'scores',
				'is missing: give "scores" by criterion code, or "score" (overall)'
			);
		for (const [field, criterion, score, why] of given) {
			const ok = criterionOk(field, criterion);
			const finite = typeof score === 'number' && Number.isFinite(score);
			if (!finite) this.error(index, field, 'must be a finite number');
			if (!judgeName || cand === undefined || !ok || !finite) continue;
			if (
				this.once(
					index,
					field,
					`${judgeName}\u0000${cand}\u0000${criterion}`,
					JSON.stringify([score, why]),
					`the ${criterion} score of ${judgeName} for ${d.model}`
				)
			)
				this.scores.push({
					judge: judgeName,
					index,
					candidateId: cand,
					criterion,
					score,
					rationale: why
				});
		}
	}

	/**
	 * Whether a judgement is new. The same one again is harmless (kept once, with a warning); a
	 * different value for it is ambiguous and refuses the import.
	 */
	private once(index: number, field: string, key: string, value: string, what: string): boolean {
		const earlier = this.seen.get(key);
		if (!earlier) {
			this.seen.set(key, { index, value });
			return true;
		}
		const same = earlier.value === value;
		const entry: RecordError = {
			file: this.file,
			index,
			field,
			reason: same
				? `repeats ${what} of record ${earlier.index + 1} exactly; imported once`
				: `gives ${what} a different value than record ${earlier.index + 1}`,
			...(same ? {} : { kind: 'conflicting_duplicate' as const })
		};
		(same ? this.repeats : this.errors).push(entry);
		return false;
	}
}

/**
 * Imports an automatic judge's scores and preferences for an opened study from a JSON array
 * (`*.json`) or JSON Lines (`*.jsonl`) file, all-or-nothing: every bad record is named (record
 * and field) and then nothing is written. A judge already in the study is replaced whole.
 */
export async function importJudgeFile(
	db: Db,
	studyId: number,
	file: QaImportFile,
	options: { judge?: string; actor: ImportActor }
): Promise<JudgeImportResult> {
	let defaultJudge: string | undefined;
	if (options.judge !== undefined && options.judge.trim() !== '') {
		const j = name.safeParse(options.judge);
		const bad = j.success ? unstorableStrings(j.data)[0]?.reason : j.error.issues[0].message;
		if (bad) throw importRejected([{ index: -1, field: 'judge', reason: bad }], 0);
		defaultJudge = j.data;
	}
	const answers = await studyAnswers(db, studyId);
	const check = new JudgeRecords(file.fileName, answers, defaultJudge);
	for await (const batch of recordsOfFile(file)) for (const r of batch) check.add(r);
	if (check.total === 0)
		check.errors.push({
			file: file.fileName,
			index: -1,
			field: '(file)',
			reason: 'contains no records'
		});
	if (check.errors.length) throw importRejected(check.errors, check.total);
	const warnings = duplicateRecordWarning(check.repeats, 'judgement');

	return db.transaction(async (tx) => {
		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'judge',
				fileName: file.fileName,
				createdBy: options.actor.userId,
				actor: options.actor.label,
				created: check.scores.length + check.preferences.length,
				warnings
			})
			.returning({ id: importRecord.id });
		const names = [...new Set([...check.scores, ...check.preferences].map((p) => p.judge))].sort();
		const existing = await tx
			.select({ id: judge.id, name: judge.name })
			.from(judge)
			.where(and(eq(judge.studyId, studyId), inArray(judge.name, names)));
		const ids = new Map(existing.map((j) => [j.name, j.id]));
		if (existing.length) {
			const old = existing.map((j) => j.id);
			await tx.delete(judgeScore).where(inArray(judgeScore.judgeId, old));
			await tx.delete(judgePreference).where(inArray(judgePreference.judgeId, old));
			await tx.update(judge).set({ importId: imp.id }).where(inArray(judge.id, old));
		}
		const fresh = names.filter((n) => !ids.has(n));
		if (fresh.length) {
			const made = await tx
				.insert(judge)
				.values(fresh.map((n) => ({ studyId, name: n, importId: imp.id })))
				.returning({ id: judge.id, name: judge.name });
			for (const j of made) ids.set(j.name, j.id);
		}
		for (const part of chunk(check.scores, 1000))
			await tx.insert(judgeScore).values(
				part.map((s) => ({
					judgeId: ids.get(s.judge)!,
					candidateId: s.candidateId,
					criterion: s.criterion,
					score: s.score,
					rationale: s.rationale
				}))
			);
		for (const part of chunk(check.preferences, 1000))
			await tx.insert(judgePreference).values(
				part.map((p) => ({
					judgeId: ids.get(p.judge)!,
					candidateAId: p.a,
					candidateBId: p.b,
					criterion: p.criterion,
					preferred: p.preferred,
					rationale: p.rationale
				}))
			);
		const judges = names.map((n) => ({
			name: n,
			scores: check.scores.filter((s) => s.judge === n).length,
			preferences: check.preferences.filter((p) => p.judge === n).length,
			replaced: existing.some((j) => j.name === n)
		}));
		for (const j of judges)
			await recordAudit(tx, {
				actorId: options.actor.userId,
				action: j.replaced ? 'judge.replace' : 'judge.import',
				objectType: 'judge',
				objectId: ids.get(j.name)!,
				after: { studyId, importId: imp.id, ...j }
			});
		return { judges, warnings, importId: imp.id };
	});
}

/** A judge of a study as the study page lists it. */
export interface JudgeSummary {
	name: string;
	scores: number;
	preferences: number;
	/** The criteria it judged, sorted (`overall` and sub-aspect codes). */
	criteria: string[];
	importedAt: Date;
}

/** The judges imported into a study, by name. */
export async function listJudges(db: Db | Tx, studyId: number): Promise<JudgeSummary[]> {
	const judges = await db
		.select({
			id: judge.id,
			name: judge.name,
			createdAt: judge.createdAt,
			importedAt: importRecord.createdAt
		})
		.from(judge)
		.leftJoin(importRecord, eq(importRecord.id, judge.importId))
		.where(eq(judge.studyId, studyId))
		.orderBy(asc(judge.name));
	if (!judges.length) return [];
	const ids = judges.map((j) => j.id);
	const scores = await db
		.select({ id: judgeScore.judgeId, criterion: judgeScore.criterion, n: count() })
		.from(judgeScore)
		.where(inArray(judgeScore.judgeId, ids))
		.groupBy(judgeScore.judgeId, judgeScore.criterion);
	const preferences = await db
		.select({ id: judgePreference.judgeId, criterion: judgePreference.criterion, n: count() })
		.from(judgePreference)
		.where(inArray(judgePreference.judgeId, ids))
		.groupBy(judgePreference.judgeId, judgePreference.criterion);
	return judges.map((j) => {
		const s = scores.filter((r) => r.id === j.id);
		const p = preferences.filter((r) => r.id === j.id);
		return {
			name: j.name,
			scores: s.reduce((n, r) => n + Number(r.n), 0),
			preferences: p.reduce((n, r) => n + Number(r.n), 0),
			criteria: [...new Set([...s, ...p].map((r) => r.criterion))].sort(),
			importedAt: j.importedAt ?? j.createdAt
		};
	});
}

/** Every judge score and preference of a study, keyed by study question and candidate ids. */
export interface JudgeRows {
	scores: {
		judge: string;
		question: string;
		candidate: string;
		criterion: string;
		score: number;
	}[];
	preferences: {
		judge: string;
		question: string;
		candidateA: string;
		candidateB: string;
		criterion: string;
		preferred: 'A' | 'B' | 'tie';
	}[];
}

/** The judges' scores and preferences of a study, as the statistics read them (ids as strings). */
export async function judgeRows(db: Db | Tx, studyId: number): Promise<JudgeRows> {
	const scores = await db
		.select({
			judge: judge.name,
			question: candidate.studyQuestionId,
			candidate: judgeScore.candidateId,
			criterion: judgeScore.criterion,
			score: judgeScore.score
		})
		.from(judgeScore)
		.innerJoin(judge, eq(judge.id, judgeScore.judgeId))
		.innerJoin(candidate, eq(candidate.id, judgeScore.candidateId))
		.where(eq(judge.studyId, studyId))
		.orderBy(
			asc(judge.name),
			asc(candidate.studyQuestionId),
			asc(judgeScore.candidateId),
			asc(judgeScore.criterion)
		);
	const preferences = await db
		.select({
			judge: judge.name,
			question: candidate.studyQuestionId,
			candidateA: judgePreference.candidateAId,
			candidateB: judgePreference.candidateBId,
			criterion: judgePreference.criterion,
			preferred: judgePreference.preferred
		})
		.from(judgePreference)
		.innerJoin(judge, eq(judge.id, judgePreference.judgeId))
		.innerJoin(candidate, eq(candidate.id, judgePreference.candidateAId))
		.where(eq(judge.studyId, studyId))
		.orderBy(
			asc(judge.name),
			asc(candidate.studyQuestionId),
			asc(judgePreference.candidateAId),
			asc(judgePreference.candidateBId),
			asc(judgePreference.criterion)
		);
	return {
		scores: scores.map((r) => ({
			...r,
			question: String(r.question),
			candidate: String(r.candidate)
		})),
		preferences: preferences.map((r) => ({
			...r,
			question: String(r.question),
			candidateA: String(r.candidateA),
			candidateB: String(r.candidateB)
		}))
	};
}
