// Extra attempts at a qualification round for one rater: an organiser gives a rater who failed
// (often one who used every attempt and has been trained since) another go, with a reason. The
// round's settings stay as they are for everyone else; the claim counts the rater's grants
// (`study_claim`), and so do their standing and the round's results (./qualification.ts).
import { desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { qualificationGrant, study, user, type QualificationGrant } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { qualificationStatus, type QualificationStatus } from './qualification';

/** Most attempts one grant may add. */
export const MAX_GRANTED_ATTEMPTS = 10;

/** How many attempts a grant adds, and why: the same for every round. */
export const grantFields = {
	attempts: z
		.number({ message: 'Give the number of attempts to add.' })
		.int('Give a whole number of attempts.')
		.min(1, 'Add at least one attempt.')
		.max(MAX_GRANTED_ATTEMPTS, `Add at most ${MAX_GRANTED_ATTEMPTS} attempts at once.`),
	reason: z.string().trim().min(1, 'Say why, for the record.').max(2000)
};

export const grantInputSchema = z.object({
	studyId: z.number().int().positive(),
	raterId: z.string().min(1, 'Choose the rater.'),
	...grantFields
});
export type GrantInput = z.input<typeof grantInputSchema>;

/**
 * Adds attempts at a qualification round for one rater who has not passed it, in one transaction
 * with its audit event. Refused when the rater has passed, or when the round has too few questions
 * the rater has not had to fill the attempts they would then have left (each attempt draws new
 * questions): the message says how many there are and how many are needed.
 */
export async function grantAttempts(
	db: Db,
	input: GrantInput,
	actorId: string,
	now = new Date()
): Promise<{ grant: QualificationGrant; status: QualificationStatus }> {
	const parsed = grantInputSchema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new DomainError('invalid', issue.message, { field: String(issue.path[0] ?? '') });
	}
	const v = parsed.data;
	return db.transaction(async (tx) => {
		const [s] = await tx
			.select({ id: study.id, purpose: study.purpose, perAttempt: study.questionsPerAttempt })
			.from(study)
			.where(eq(study.id, v.studyId));
		if (!s) throw new DomainError('not_found', 'No such study.', { field: 'studyId' });
		if (s.purpose !== 'qualification')
			throw new DomainError('invalid', 'Attempts belong to qualification rounds.', {
				field: 'studyId'
			});
		const [rater] = await tx.select({ id: user.id }).from(user).where(eq(user.id, v.raterId));
		if (!rater) throw new DomainError('not_found', 'No such rater.', { field: 'raterId' });
		// The claim's lock for this rater: no question is claimed, and no other grant counted,
		// between the count below and the grant.
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'rank:' + v.raterId}))`);
		const status = (await qualificationStatus(tx, v.studyId, v.raterId))!;
		if (status.passed)
			throw new DomainError('conflict', 'This rater has passed the round already.', {
				field: 'raterId'
			});
		// Questions the rater can still be given: gold questions they never had, and the one they
		// hold now (it belongs to the attempt in progress).
		const [{ fresh, held }] = rowsOf<{ fresh: number; held: number }>(
			await tx.execute(sql`select
				(select count(*)::int from study_question q where q.study_id = ${v.studyId} and q.gold
					and not exists (select 1 from assignment a where a.study_question_id = q.id
						and a.physician_id = ${v.raterId})) as fresh,
				(select count(*)::int from assignment a join study_question q on q.id = a.study_question_id
					where q.study_id = ${v.studyId} and a.physician_id = ${v.raterId}
						and a.state = 'leased' and a.lease_expires_at > ${now.toISOString()}::timestamptz) as held`)
		);
		const available = Number(fresh) + Number(held);
		const needed = (status.attemptsLeft + v.attempts) * s.perAttempt - status.inAttempt;
		if (available < needed)
			throw new DomainError(
				'invalid',
				`This rater has not had ${available} of the round's gold questions; ${status.attemptsLeft + v.attempts} attempt${status.attemptsLeft + v.attempts === 1 ? '' : 's'} of ${s.perAttempt} would need ${needed}. Add gold questions to the round, or grant fewer attempts.`,
				{ field: 'attempts' }
			);
		const grant = await recordGrant(tx, { ...v, actorId, now }, status);
		return {
			grant,
			status: (await qualificationStatus(tx, v.studyId, v.raterId))!
		};
	});
}

/**
 * Writes a grant of a round (a study's, or the reviewers' with `studyId` null) and its audit event,
 * in the caller's transaction, once the caller has checked it may be given.
 */
export async function recordGrant(
	tx: Tx,
	v: {
		studyId: number | null;
		raterId: string;
		attempts: number;
		reason: string;
		actorId: string;
		now: Date;
	},
	status: { maxAttempts: number; attemptsLeft: number }
): Promise<QualificationGrant> {
	const [grant] = await tx
		.insert(qualificationGrant)
		.values({
			studyId: v.studyId,
			raterId: v.raterId,
			attempts: v.attempts,
			reason: v.reason,
			grantedBy: v.actorId,
			grantedAt: v.now
		})
		.returning();
	await recordAudit(tx, {
		actorId: v.actorId,
		action: 'qualification.grant',
		objectType: 'qualification_grant',
		objectId: grant.id,
		before: { maxAttempts: status.maxAttempts, attemptsLeft: status.attemptsLeft },
		after: {
			...(v.studyId === null ? { round: 'reviewers' } : { studyId: v.studyId }),
			raterId: v.raterId,
			attempts: v.attempts,
			reason: v.reason,
			maxAttempts: status.maxAttempts + v.attempts
		}
	});
	return grant;
}

/**
 * Every grant of a round (a study's, or the reviewers' with null), newest first, with who granted
 * it and to whom (by pseudonym).
 */
export async function listGrants(db: Db, studyId: number | null) {
	const rater = sql<string>`(select pseudonym from "user" where id = ${qualificationGrant.raterId})`;
	const by = sql<string>`(select display_name from "user" where id = ${qualificationGrant.grantedBy})`;
	return db
		.select({
			id: qualificationGrant.id,
			raterId: qualificationGrant.raterId,
			pseudonym: rater,
			attempts: qualificationGrant.attempts,
			reason: qualificationGrant.reason,
			grantedBy: by,
			grantedAt: qualificationGrant.grantedAt
		})
		.from(qualificationGrant)
		.where(
			studyId === null
				? isNull(qualificationGrant.studyId)
				: eq(qualificationGrant.studyId, studyId)
		)
		.orderBy(desc(qualificationGrant.grantedAt), desc(qualificationGrant.id));
}
