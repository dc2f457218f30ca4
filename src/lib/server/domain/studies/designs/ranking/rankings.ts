import { ERROR_TYPES, TAGS, TAGS_WITH_ERRORS } from '../../../../../constants';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rankProblem, tagInconsistencies } from '../../../../../ranking/rules';
import { selectValue } from '../../../../db/call';
import type { Db, Tx } from '../../../../db/client';
import { DomainError } from '../../../../errors';
import {
	claimArguments,
	claimNext,
	claimResult,
	type ClaimResult,
	type RawClaim
} from '../../queue';
import { forgetShown, recallShown, rememberShown, type ShownFacts } from '../../shown';
import { responseLetter } from '../../shuffle';

/** Longest accepted time on task: a day, in milliseconds. */
const MAX_TIME_ON_TASK_MS = 24 * 60 * 60 * 1000;

export const submissionSchema = z.object({
	assignmentId: z.string().min(1).max(64),
	idempotencyKey: z.string().trim().min(8, 'is too short').max(100),
	timeOnTaskMs: z.number().int().min(0).max(MAX_TIME_ON_TASK_MS).optional(),
	confirmInconsistent: z.boolean().default(false),
	entries: z
		.array(
			z.object({
				candidateId: z.string().min(1).max(64),
				rank: z.number().int().nullable(),
				tag: z.enum(TAGS, { error: 'must be good, okay or bad' }).nullable(),
				comment: z.string().max(5000, 'is longer than 5,000 characters').optional(),
				/** What is wrong with an okay or bad answer (optional; none on a good one). */
				errorTypes: z
					.array(z.enum(ERROR_TYPES, { error: 'must be one of the listed error types' }))
					.max(ERROR_TYPES.length)
					.optional()
			})
		)
		.min(1)
		.max(26)
});
export type Submission = z.input<typeof submissionSchema>;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const rows = z.record(z.string(), z.string()).default({});
/** A checkbox group per row: absent, one value, or several. */
const multiRows = z
	.record(z.string(), z.union([z.string(), z.array(z.string())]))
	.default({})
	.transform((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [v].flat()])));

/**
 * The ranking form as the screen posts it: `rank.<id>`, `tag.<id>`, `comment.<id>` and the
 * checked `errorType.<id>` boxes per shown response (read by `readForm` into records), the idempotency key, the time on task and the
 * confirmation of inconsistent tags. Gives the submission without the assignment id (the URL's).
 */
export const rankingFormSchema = z
	.object({
		idempotencyKey: z.string().default(''),
		timeOnTaskMs: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).optional()),
		confirm: z.preprocess((v) => v === '1', z.boolean()),
		rank: rows,
		tag: rows,
		comment: rows,
		errorType: multiRows
	})
	.transform((f): Omit<Submission, 'assignmentId'> => {
		const ids = new Set([
			...Object.keys(f.rank),
			...Object.keys(f.tag),
			...Object.keys(f.comment),
			...Object.keys(f.errorType)
		]);
		return {
			idempotencyKey: f.idempotencyKey.trim(),
			timeOnTaskMs: f.timeOnTaskMs,
			confirmInconsistent: f.confirm,
			entries: [...ids].map((id) => {
				const rank = (f.rank[id] ?? '').trim();
				const tag = (f.tag[id] ?? '').trim();
				return {
					candidateId: id,
					rank: /^\d+$/.test(rank) ? Number(rank) : null,
					tag: (tag || null) as Submission['entries'][number]['tag'],
					comment: (f.comment[id] ?? '').trim(),
					errorTypes: (f.errorType[id] ?? []) as Submission['entries'][number]['errorTypes']
				};
			})
		};
	});

export interface Submitted {
	rankingId: number;
	studyId: number;
	/** A retry of a submission already stored (same idempotency key): nothing new was written. */
	duplicate: boolean;
}

function invalid(problems: string[]): DomainError {
	const unique = [...new Set(problems)];
	return new DomainError(
		'invalid',
		unique.length === 1 ? unique[0] : 'The ranking is not complete.',
		{
			problems: unique
		}
	);
}

/** What a submission is checked against, as `ranking_submission_facts` returns it. */
interface SubmissionFacts {
	assignmentId: number;
	state: 'leased' | 'submitted' | 'expired' | 'released';
	leaseExpiresAt: string | null;
	shownAt: string;
	studyId: number;
	studyState: 'draft' | 'open' | 'paused' | 'closed';
	allowTies: boolean;
	/** The ranking and assignment the idempotency key was already used for, if any. */
	keyRankingId: number | null;
	keyAssignmentId: number | null;
	/** The shown answers' opaque ids and positions, in display order. */
	shown: { id: string; position: number }[];
}

type StoredResult =
	| { status: 'stored' | 'duplicate'; rankingId: number; studyId: number; next?: RawClaim }
	| { status: 'refused'; facts: SubmissionFacts | null };

/**
 * Whether a submission can still be stored: a retry of one already stored (same key, same
 * assignment), a refusal, or null when the assignment is open to it.
 */
function standing(facts: SubmissionFacts | null, now: Date): Submitted | DomainError | null {
	if (!facts) return new DomainError('not_found', 'This question is not yours.');
	if (facts.keyRankingId !== null && facts.keyAssignmentId === facts.assignmentId)
		return { rankingId: facts.keyRankingId, studyId: facts.studyId, duplicate: true };
	if (facts.state === 'submitted')
		return new DomainError(
			'already_submitted',
			'You have already submitted a ranking for this question.'
		);
	if (facts.keyRankingId !== null)
		return new DomainError('conflict', 'The submission key was reused.');
	if (facts.studyState === 'closed')
		return new DomainError('locked', 'This study is closed; rankings are no longer accepted.');
	const lease = facts.leaseExpiresAt ? new Date(facts.leaseExpiresAt) : null;
	if (facts.state !== 'leased' || !lease || lease <= now)
		return new DomainError(
			'not_leased',
			'Your time for this question ran out and it went back to the queue; nothing was saved.'
		);
	return null;
}

/**
 * The entries of a complete ranking of the shown answers, or the refusal: every shown answer
 * once, ranked (a permutation, or competition ranks when the study allows ties) and tagged, and
 * tags that disagree with the order only when confirmed.
 */
function checkedEntries(
	data: z.output<typeof submissionSchema>,
	facts: Pick<SubmissionFacts, 'shown' | 'allowTies'>
) {
	const byPublic = new Map(facts.shown.map((s) => [s.id, s]));
	const problems: string[] = [];
	const seen = new Set<string>();
	for (const e of data.entries) {
		if (!byPublic.has(e.candidateId))
			problems.push('A submitted response is not part of this question.');
		else if (seen.has(e.candidateId)) problems.push('A response was submitted twice.');
		seen.add(e.candidateId);
	}
	const total = facts.shown.length;
	if (!problems.length && seen.size !== total)
		problems.push(`Rank all ${total} responses (${total - seen.size} missing).`);
	if (problems.length) throw invalid(problems);

	const labelled = data.entries.map((e) => ({
		...e,
		label: `Response ${responseLetter(byPublic.get(e.candidateId)!.position)}`
	}));
	const rankIssue = rankProblem(
		labelled.map((e) => e.rank),
		facts.allowTies
	);
	if (rankIssue) problems.push(rankIssue);
	const untagged = labelled.filter((e) => !e.tag).map((e) => e.label);
	if (untagged.length)
		problems.push(`Tag every response good, okay or bad (missing: ${untagged.join(', ')}).`);
	const faultless = labelled
		.filter((e) => e.tag && !TAGS_WITH_ERRORS.includes(e.tag) && e.errorTypes?.length)
		.map((e) => e.label);
	if (faultless.length)
		problems.push(
			`Error types go with an okay or bad tag only (${faultless.join(', ')} tagged good).`
		);
	if (problems.length) throw invalid(problems);
	if (!data.confirmInconsistent) {
		const warnings = tagInconsistencies(labelled);
		if (warnings.length)
			throw new DomainError(
				'needs_confirmation',
				'Some tags disagree with the order; confirm to submit anyway.',
				{ problems: warnings }
			);
	}
	return labelled.map((e) => ({
		c: e.candidateId,
		r: e.rank!,
		t: e.tag!,
		m: e.comment?.trim() || null,
		x: [...new Set(e.errorTypes ?? [])]
	}));
}

/**
 * Checks and stores a submission in two statements: the facts it is checked against
 * (`ranking_submission_facts`), then `ranking_submit`, which stores it under a lock on the
 * assignment (re-checking that the assignment is still open to it) with the audit event and,
 * with `claim`, leases the next question in the same transaction. One statement when this
 * process handed out the assignment (`shown.ts` keeps what it showed): `ranking_submit` alone.
 */
async function store(
	db: Db | Tx,
	physicianId: string,
	input: Submission,
	now: Date,
	claim: boolean
): Promise<Submitted & { next?: ClaimResult }> {
	const parsed = submissionSchema.safeParse(input);
	if (!parsed.success)
		throw invalid(
			parsed.error.issues.map((i) => `${i.path.join('.') || 'submission'} ${i.message}`)
		);
	const data = parsed.data;
	// The shown answers of an assignment this process handed out are known (they never change),
	// so the submission goes to ranking_submit at once: it decides under the lock whether the
	// assignment is still open to it, and returns the facts of a refusal.
	let basis: SubmissionFacts | ShownFacts | null = recallShown(data.assignmentId, physicianId);
	if (!basis) {
		// ranking_submission_facts: src/lib/server/db/functions/ranking.sql
		const facts = await selectValue<SubmissionFacts | null>(
			db,
			'ranking_submission_facts',
			sql`ranking_submission_facts(${data.assignmentId}::text, ${physicianId}::text, ${data.idempotencyKey}::text)`
		);
		const found = standing(facts, now);
		if (found instanceof DomainError) throw found;
		if (found) {
			if (!claim) return found;
			return {
				...found,
				next: await claimNext(db, found.studyId, physicianId, now, { view: true })
			};
		}
		basis = facts!;
	}
	const entries = checkedEntries(data, basis);
	const timeOnTaskMs =
		data.timeOnTaskMs ??
		Math.min(MAX_TIME_ON_TASK_MS, now.getTime() - new Date(basis.shownAt).getTime());
	// ranking_submit: src/lib/server/db/functions/ranking.sql
	const result = await selectValue<StoredResult>(
		db,
		'ranking_submit',
		sql`ranking_submit(${physicianId}::text, ${data.assignmentId}::text, ${data.idempotencyKey}::text, ${timeOnTaskMs}::integer, ${JSON.stringify(entries)}::jsonb, ${now.toISOString()}::timestamptz, ${claim}::boolean, ${claimArguments()})`
	);
	if (result.status === 'refused') {
		forgetShown(data.assignmentId);
		// The assignment changed between the two statements (a lease ran out, another tab).
		const refusal = standing(result.facts, now);
		throw refusal instanceof DomainError
			? refusal
			: new DomainError('conflict', 'This question changed meanwhile; reload it.');
	}
	forgetShown(data.assignmentId);
	if (result.next) rememberShown(physicianId, result.next);
	const stored: Submitted = {
		rankingId: result.rankingId,
		studyId: result.studyId,
		duplicate: result.status === 'duplicate'
	};
	return result.next ? { ...stored, next: claimResult(result.next) } : stored;
}

/**
 * Stores a physician's ranking of an assignment: every candidate ranked (a permutation, or
 * competition ranks when the study allows ties) and tagged, with a `ranking.submit` audit event.
 * Retrying with the same idempotency key returns the stored ranking. Refusals are DomainErrors
 * (`invalid` with the problems, `needs_confirmation` with the tag warnings, `not_found`,
 * `already_submitted`, `locked` for a closed study, `not_leased` for a lapsed lease) and store
 * nothing.
 */
export async function submitRanking(
	db: Db | Tx,
	physicianId: string,
	input: Submission,
	now = new Date()
): Promise<Submitted> {
	const { next: _, ...stored } = await store(db, physicianId, input, now, false);
	return stored;
}

/**
 * The "submit + next" of the ranking screen: stores the ranking (see submitRanking) and leases
 * the physician's next question of the same study in the same transaction, returning its
 * blinded view so the screen can show it without another request. A retry of a stored
 * submission leases (or resumes) the next question too.
 */
export async function submitRankingAndNext(
	db: Db | Tx,
	physicianId: string,
	input: Submission,
	now = new Date()
): Promise<Submitted & { next: ClaimResult }> {
	const result = await store(db, physicianId, input, now, true);
	return { ...result, next: result.next! };
}
