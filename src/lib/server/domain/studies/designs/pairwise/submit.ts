// A rater's preference for one pair of a pairwise study: the form it is posted as, its validation
// (the aspects of the study's frozen rubric, if any), and its storage with the claim of the next
// pair in one statement (`pairwise_submit`, db/functions/pairwise.sql).
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
	PREFERENCE_OUTCOMES,
	PREFERENCE_STRENGTHS,
	type PreferenceOutcome,
	type PreferenceStrength
} from '../../../../../constants';
import { selectValue } from '../../../../db/call';
import type { Db, Tx } from '../../../../db/client';
import { DomainError } from '../../../../errors';
import { claimArguments, claimResult, type ClaimResult, type RawClaim } from '../../queue';
import { rememberShown } from '../../shown';
import { rubricVersion } from '../rubric/schema';
import { pairwiseStudy } from './schema';

/** Longest accepted time on task: a day, in milliseconds. */
const MAX_TIME_ON_TASK_MS = 24 * 60 * 60 * 1000;
/** Longest reason, in characters. */
export const MAX_REASON = 5000;
export const ASPECT_OUTCOMES = ['left', 'right', 'tie'] as const;
export type AspectOutcome = (typeof ASPECT_OUTCOMES)[number];

/** What a pairwise study asks besides the overall preference: its frozen rubric's aspects. */
export interface PairwiseForm {
	aspects: { code: string; name: string }[];
}

/** Opened studies' forms never change, so a process keeps them (bounded), per database. */
const formsOf = new WeakMap<object, Map<number, PairwiseForm>>();
const KEEP = 100;

/** The form of an opened pairwise study (null: not a pairwise study, or a draft). */
export async function pairwiseForm(db: Db | Tx, studyId: number): Promise<PairwiseForm | null> {
	const forms = formsOf.get(db) ?? new Map<number, PairwiseForm>();
	formsOf.set(db, forms);
	const known = forms.get(studyId);
	if (known) return known;
	const [row] = await db
		.select({ rubricId: pairwiseStudy.rubricId, definition: rubricVersion.definition })
		.from(pairwiseStudy)
		.leftJoin(rubricVersion, eq(rubricVersion.id, pairwiseStudy.rubricVersionId))
		.where(eq(pairwiseStudy.studyId, studyId));
	if (!row || (row.rubricId && !row.definition)) return null;
	const form = {
		aspects: (row.definition?.aspects ?? []).map((a) => ({ code: a.code, name: a.name }))
	};
	if (forms.size >= KEEP) forms.delete(forms.keys().next().value!);
	forms.set(studyId, form);
	return form;
}

export interface Preference {
	assignmentId: string;
	idempotencyKey: string;
	timeOnTaskMs?: number;
	outcome: PreferenceOutcome | null;
	strength: PreferenceStrength | null;
	/** Per aspect code: `left`, `right` or `tie`; aspects left out (or blank) were not given. */
	aspects: Record<string, string>;
	reason: string;
}

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const blankToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/**
 * The preference form as the screen posts it: `outcome`, optional `strength`, `aspect.<CODE>`
 * per aspect given (read by `readForm` into a record), `reason`, the idempotency key and the time
 * on task.
 */
export const preferenceFormSchema = z
	.object({
		idempotencyKey: z.string().default(''),
		timeOnTaskMs: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).optional()),
		outcome: z.preprocess(
			blankToNull,
			z.enum(PREFERENCE_OUTCOMES, { error: 'Choose A, B or a tie.' }).nullable()
		),
		strength: z.preprocess(
			blankToNull,
			z
				.enum(PREFERENCE_STRENGTHS, { error: 'The strength must be slightly or clearly.' })
				.nullable()
		),
		aspect: z.record(z.string(), z.string()).default({}),
		reason: z.string().default('')
	})
	.transform((f): Omit<Preference, 'assignmentId'> => ({
		idempotencyKey: f.idempotencyKey.trim(),
		timeOnTaskMs: f.timeOnTaskMs,
		outcome: f.outcome,
		strength: f.strength,
		aspects: f.aspect,
		reason: f.reason.trim()
	}));

/**
 * What is wrong with a preference against the study's form: no overall choice, a strength given
 * with a tie, an aspect the rubric does not have or an aspect value other than left, right or
 * tie, a reason longer than MAX_REASON. Empty when it can be stored.
 */
export function preferenceProblems(
	form: PairwiseForm,
	p: Pick<Preference, 'outcome' | 'strength' | 'reason' | 'aspects'>
): string[] {
	const problems: string[] = [];
	if (!p.outcome) problems.push('Choose A, B or a tie.');
	if (p.strength && p.outcome !== 'left' && p.outcome !== 'right')
		problems.push('A tie takes no strength: clear it or choose A or B.');
	const codes = new Set(form.aspects.map((a) => a.code));
	for (const [code, value] of Object.entries(p.aspects)) {
		if (!codes.has(code)) problems.push(`“${code}” is not an aspect of this study.`);
		else if (value !== '' && !(ASPECT_OUTCOMES as readonly string[]).includes(value))
			problems.push(`${code}: choose A, B or a tie.`);
	}
	if (p.reason.length > MAX_REASON) problems.push('The reason is longer than 5,000 characters.');
	return problems;
}

type StoredResult =
	| { status: 'stored' | 'duplicate'; judgementId: number; studyId: number; next?: RawClaim }
	| {
			status: 'refused';
			reason: 'not_yours' | 'key_used' | 'submitted' | 'expired' | 'closed' | 'answers';
			state?: string;
	  };

const REFUSALS: Record<Extract<StoredResult, { status: 'refused' }>['reason'], DomainError> = {
	not_yours: new DomainError('not_found', 'This pair is not yours.'),
	key_used: new DomainError('conflict', 'This form was already used for another pair; reload.'),
	submitted: new DomainError('already_submitted', 'You have already judged this pair.'),
	expired: new DomainError(
		'not_leased',
		'Your time on this pair ran out and it went back to the queue; nothing was stored.'
	),
	closed: new DomainError('locked', 'This study is closed; nothing was stored.'),
	answers: new DomainError('invalid', 'This question does not show two answers; reload it.')
};

export interface PreferenceStored {
	judgementId: number;
	studyId: number;
	/** A retry of a preference already stored (same idempotency key): nothing new was written. */
	duplicate: boolean;
	next?: ClaimResult;
}

/**
 * Stores a rater's preference for an assignment of a pairwise study, with a `pairwise.submit`
 * audit event, and with `next` leases the rater's next pair of the study in the same statement,
 * returning its blinded view. Refusals are DomainErrors and store nothing; a retry with the same
 * key returns the stored judgement.
 */
export async function submitPreference(
	db: Db | Tx,
	raterId: string,
	studyId: number,
	input: Preference,
	options: { next?: boolean; now?: Date } = {}
): Promise<PreferenceStored> {
	const now = options.now ?? new Date();
	const form = await pairwiseForm(db, studyId);
	if (!form) throw new DomainError('not_found', 'This pair is not part of a pairwise study.');
	if (input.idempotencyKey.length < 8 || input.idempotencyKey.length > 100)
		throw new DomainError('invalid', 'The form is incomplete; reload the pair.');
	const problems = preferenceProblems(form, input);
	if (problems.length)
		throw new DomainError(
			'invalid',
			problems.length === 1 ? problems[0] : 'The form is not complete.',
			{
				problems
			}
		);
	const aspects = Object.entries(input.aspects)
		.filter(([, o]) => o !== '')
		.map(([a, o]) => ({ a, o }));
	const time =
		input.timeOnTaskMs === undefined ? null : Math.min(MAX_TIME_ON_TASK_MS, input.timeOnTaskMs);
	const claim = options.next ?? false;
	// pairwise_submit: src/lib/server/db/functions/pairwise.sql
	const result = await selectValue<StoredResult>(
		db,
		'pairwise_submit',
		sql`pairwise_submit(${raterId}::text, ${input.assignmentId}::text, ${input.idempotencyKey}::text, ${time}::integer, ${input.outcome}::text, ${input.strength}::text, ${input.reason}::text, ${JSON.stringify(aspects)}::jsonb, ${now.toISOString()}::timestamptz, ${claim}::boolean, ${claimArguments()})`
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
