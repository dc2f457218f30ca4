// A rater's score sheet for one assignment of a rubric study: the form it is posted as, its
// validation against the study's frozen rubric, and its storage with the claim of the next
// question in one statement (`rubric_submit`, db/functions/rubric.sql).
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { selectValue } from '../../../../db/call';
import type { Db, Tx } from '../../../../db/client';
import { DomainError } from '../../../../errors';
import { claimArguments, claimResult, type ClaimResult, type RawClaim } from '../../queue';
import { rememberShown } from '../../shown';
import { subAspectsOf, type RubricDefinition } from '../../../../../schemas/rubric';
import { rubricStudy, rubricVersion } from './schema';

/** Longest accepted time on task: a day, in milliseconds. */
const MAX_TIME_ON_TASK_MS = 24 * 60 * 60 * 1000;
/** Longest rationale, in characters. */
export const MAX_RATIONALE = 5000;
export const LAYOUTS = ['single', 'side_by_side'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** The rubric a study scores with: the version frozen at its first opening. */
export interface FrozenRubric {
	rubricId: number;
	versionId: number;
	version: number;
	definition: RubricDefinition;
}

/** Frozen rubrics of opened studies: they never change, so a process keeps them (bounded). */
const frozen = new Map<number, FrozenRubric>();
const KEEP = 100;

/** The rubric version a study froze when it opened, or null (not a rubric study, or a draft). */
export async function frozenRubric(db: Db | Tx, studyId: number): Promise<FrozenRubric | null> {
	const known = frozen.get(studyId);
	if (known) return known;
	const [row] = await db
		.select({
			rubricId: rubricStudy.rubricId,
			versionId: rubricVersion.id,
			version: rubricVersion.version,
			definition: rubricVersion.definition
		})
		.from(rubricStudy)
		.innerJoin(rubricVersion, eq(rubricVersion.id, rubricStudy.rubricVersionId))
		.where(eq(rubricStudy.studyId, studyId));
	if (!row) return null;
	if (frozen.size >= KEEP) frozen.delete(frozen.keys().next().value!);
	frozen.set(studyId, row);
	return row;
}

/** One score of a sheet: an answer (its opaque id) on a sub-aspect. */
export interface SheetScore {
	answer: string;
	subAspect: string;
	score: number | null;
	rationale: string;
}

export interface ScoreSheet {
	assignmentId: string;
	idempotencyKey: string;
	timeOnTaskMs?: number;
	layout: Layout;
	scores: SheetScore[];
}

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const rows = z.record(z.string(), z.string()).default({});

/**
 * The scoring form as the screen posts it: `score.<answer id>:<CODE>` and
 * `rationale.<answer id>:<CODE>` per shown answer and sub-aspect (read by `readForm` into
 * records), the idempotency key, the time on task and the layout the rater used.
 */
export const scoreFormSchema = z
	.object({
		idempotencyKey: z.string().default(''),
		timeOnTaskMs: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).optional()),
		layout: z.enum(LAYOUTS).default('single'),
		score: rows,
		rationale: rows
	})
	.transform((f): Omit<ScoreSheet, 'assignmentId'> => {
		const keys = new Set([...Object.keys(f.score), ...Object.keys(f.rationale)]);
		return {
			idempotencyKey: f.idempotencyKey.trim(),
			timeOnTaskMs: f.timeOnTaskMs,
			layout: f.layout,
			scores: [...keys].map((key) => {
				const [answer, subAspect = ''] = key.split(':');
				const raw = (f.score[key] ?? '').trim();
				return {
					answer,
					subAspect,
					score: /^-?\d+$/.test(raw) ? Number(raw) : raw === '' ? null : Number.NaN,
					rationale: (f.rationale[key] ?? '').trim()
				};
			})
		};
	});

const letterOf = (answers: string[], id: string) => {
	const i = answers.indexOf(id);
	return i >= 0 ? `Response ${String.fromCharCode(65 + i)}` : 'An answer';
};

/**
 * What is wrong with a sheet against a rubric and the answers shown (opaque ids in display
 * order): a sub-aspect not in the rubric, an answer not shown, a score missing, not a whole
 * number or outside the sub-aspect's scale, a rationale the rubric requires but the sheet lacks
 * or forbids but the sheet has, one longer than MAX_RATIONALE. Empty when the sheet is complete.
 */
export function sheetProblems(
	definition: RubricDefinition,
	answers: string[],
	scores: SheetScore[]
): string[] {
	const problems: string[] = [];
	const subs = new Map(subAspectsOf(definition).map((s) => [s.code, s]));
	const given = new Map<string, SheetScore>();
	for (const s of scores) {
		if (!subs.has(s.subAspect)) {
			problems.push(`“${s.subAspect}” is not a sub-aspect of this study’s rubric.`);
			continue;
		}
		if (!answers.includes(s.answer)) {
			problems.push('A score names an answer that is not shown in this question.');
			continue;
		}
		given.set(`${s.answer}:${s.subAspect}`, s);
	}
	for (const answer of answers) {
		for (const sub of subs.values()) {
			const s = given.get(`${answer}:${sub.code}`);
			const where = `${letterOf(answers, answer)}, ${sub.code} (${sub.name})`;
			const { min, max } = sub.scale;
			if (!s || s.score === null) problems.push(`${where}: give a score.`);
			else if (!Number.isInteger(s.score) || s.score < min || s.score > max)
				problems.push(`${where}: the score must be a whole number from ${min} to ${max}.`);
			if (sub.rationale === 'required' && !s?.rationale)
				problems.push(`${where}: this sub-aspect asks for a rationale.`);
			if (sub.rationale === 'off' && s?.rationale)
				problems.push(`${where}: this sub-aspect takes no rationale.`);
			if ((s?.rationale.length ?? 0) > MAX_RATIONALE)
				problems.push(`${where}: the rationale is longer than 5,000 characters.`);
		}
	}
	return [...new Set(problems)];
}

type StoredResult =
	| { status: 'stored' | 'duplicate'; judgementId: number; studyId: number; next?: RawClaim }
	| {
			status: 'refused';
			reason: 'not_yours' | 'key_used' | 'submitted' | 'expired' | 'closed' | 'answers';
			state?: string;
	  };

const REFUSALS: Record<Extract<StoredResult, { status: 'refused' }>['reason'], DomainError> = {
	not_yours: new DomainError('not_found', 'This question is not yours.'),
	key_used: new DomainError('conflict', 'This form was already used for another question; reload.'),
	submitted: new DomainError('already_submitted', 'You have already scored this question.'),
	expired: new DomainError(
		'not_leased',
		'Your time on this question ran out and it went back to the queue; nothing was stored.'
	),
	closed: new DomainError('locked', 'This study is closed; nothing was stored.'),
	answers: new DomainError(
		'invalid',
		'The scores do not match the answers of this question; reload it.'
	)
};

export interface ScoresStored {
	judgementId: number;
	studyId: number;
	/** A retry of a sheet already stored (same idempotency key): nothing new was written. */
	duplicate: boolean;
	next?: ClaimResult;
}

/**
 * Stores a rater's score sheet for an assignment of a rubric study, with a `rubric.submit` audit
 * event, and with `next` leases the rater's next question of the study in the same statement,
 * returning its blinded view. `answers` are the opaque ids of the shown answers in display order
 * (the screen's view); the database checks them again under the assignment's lock. Refusals are
 * DomainErrors and store nothing; a retry with the same key returns the stored sheet.
 */
export async function submitScores(
	db: Db | Tx,
	raterId: string,
	studyId: number,
	answers: string[],
	sheet: ScoreSheet,
	options: { next?: boolean; now?: Date } = {}
): Promise<ScoresStored> {
	const now = options.now ?? new Date();
	const rubric = await frozenRubric(db, studyId);
	if (!rubric) throw new DomainError('not_found', 'This question is not part of a rubric study.');
	if (sheet.idempotencyKey.length < 8 || sheet.idempotencyKey.length > 100)
		throw new DomainError('invalid', 'The form is incomplete; reload the question.');
	const problems = sheetProblems(rubric.definition, answers, sheet.scores);
	if (problems.length)
		throw new DomainError(
			'invalid',
			problems.length === 1 ? problems[0] : 'The score sheet is not complete.',
			{ problems }
		);
	const perAnswer = subAspectsOf(rubric.definition).length;
	const payload = sheet.scores.map((s) => ({
		c: s.answer,
		s: s.subAspect,
		v: s.score,
		r: s.rationale || null
	}));
	const time =
		sheet.timeOnTaskMs === undefined ? null : Math.min(MAX_TIME_ON_TASK_MS, sheet.timeOnTaskMs);
	const claim = options.next ?? false;
	// rubric_submit: src/lib/server/db/functions/rubric.sql
	const result = await selectValue<StoredResult>(
		db,
		'rubric_submit',
		sql`rubric_submit(${raterId}::text, ${sheet.assignmentId}::text, ${sheet.idempotencyKey}::text, ${time}::integer, ${sheet.layout}::text, ${JSON.stringify(payload)}::jsonb, ${perAnswer}::integer, ${now.toISOString()}::timestamptz, ${claim}::boolean, ${claimArguments()})`
	);
	if (result.status === 'refused') throw REFUSALS[result.reason];
	if (result.next) rememberShown(raterId, result.next);
	return {
		judgementId: result.judgementId,
		studyId: result.studyId,
		duplicate: result.status === 'duplicate',
		...(result.next ? { next: claimResult(result.next) } : {})
	};
}
