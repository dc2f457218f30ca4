import { TAGS } from '../../../constants';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rankProblem, tagInconsistencies } from '../../../ranking/rules';
import type { Db, Tx } from '../../db/client';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit/audit';
import { claimNext, type ClaimResult } from './queue';
import {
	assignment,
	assignmentCandidate,
	ranking,
	rankingEntry,
	rankingStudy,
	studyQuestion
} from '../../db/schema';
import { responseLetter } from './shuffle';

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
				comment: z.string().max(5000, 'is longer than 5,000 characters').optional()
			})
		)
		.min(1)
		.max(26)
});
export type Submission = z.input<typeof submissionSchema>;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const rows = z.record(z.string(), z.string()).default({});

/**
 * The ranking form as the screen posts it: `rank.<id>`, `tag.<id>` and `comment.<id>` per shown
 * response (read by `readForm` into records), the idempotency key, the time on task and the
 * confirmation of inconsistent tags. Gives the submission without the assignment id (the URL's).
 */
export const rankingFormSchema = z
	.object({
		idempotencyKey: z.string().default(''),
		timeOnTaskMs: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).optional()),
		confirm: z.preprocess((v) => v === '1', z.boolean()),
		rank: rows,
		tag: rows,
		comment: rows
	})
	.transform((f): Omit<Submission, 'assignmentId'> => {
		const ids = new Set([...Object.keys(f.rank), ...Object.keys(f.tag), ...Object.keys(f.comment)]);
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
					comment: (f.comment[id] ?? '').trim()
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

/**
 * Stores a physician's ranking of an assignment: every candidate ranked (a permutation, or
 * competition ranks when the study allows ties) and tagged, with a `ranking.submit` audit event.
 * Retrying with the same idempotency key returns the stored ranking. Refusals are DomainErrors
 * (`invalid` with the problems, `needs_confirmation` with the tag warnings, `not_found`,
 * `already_submitted`, `locked` for a closed study, `not_leased` for a lapsed lease) and store
 * nothing. Runs in the caller's transaction when given one.
 */
export async function submitRanking(
	db: Db | Tx,
	physicianId: string,
	input: Submission,
	now = new Date()
): Promise<Submitted> {
	const parsed = submissionSchema.safeParse(input);
	if (!parsed.success)
		throw invalid(
			parsed.error.issues.map((i) => `${i.path.join('.') || 'submission'} ${i.message}`)
		);
	const data = parsed.data;
	return db.transaction(async (tx): Promise<Submitted> => {
		const [a] = await tx
			.select({
				id: assignment.id,
				state: assignment.state,
				leaseExpiresAt: assignment.leaseExpiresAt,
				createdAt: assignment.createdAt,
				questionId: assignment.studyQuestionId,
				studyId: rankingStudy.id,
				studyState: rankingStudy.state,
				allowTies: rankingStudy.allowTies
			})
			.from(assignment)
			.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
			.innerJoin(rankingStudy, eq(rankingStudy.id, studyQuestion.studyId))
			.where(
				and(eq(assignment.publicId, data.assignmentId), eq(assignment.physicianId, physicianId))
			)
			.for('update', { of: assignment });
		if (!a) throw new DomainError('not_found', 'This question is not yours.');

		const [previous] = await tx
			.select({ id: ranking.id, assignmentId: ranking.assignmentId })
			.from(ranking)
			.where(eq(ranking.idempotencyKey, data.idempotencyKey));
		if (previous?.assignmentId === a.id)
			return { rankingId: previous.id, studyId: a.studyId, duplicate: true };
		if (a.state === 'submitted')
			throw new DomainError(
				'already_submitted',
				'You have already submitted a ranking for this question.'
			);
		if (previous) throw new DomainError('conflict', 'The submission key was reused.');
		if (a.studyState === 'closed')
			throw new DomainError('locked', 'This study is closed; rankings are no longer accepted.');
		if (a.state !== 'leased' || !a.leaseExpiresAt || a.leaseExpiresAt <= now)
			throw new DomainError(
				'not_leased',
				'Your time for this question ran out and it went back to the queue; nothing was saved.'
			);

		const shown = await tx
			.select({
				publicId: assignmentCandidate.publicId,
				candidateId: assignmentCandidate.candidateId,
				position: assignmentCandidate.position
			})
			.from(assignmentCandidate)
			.where(eq(assignmentCandidate.assignmentId, a.id))
			.orderBy(assignmentCandidate.position);
		const byPublic = new Map(shown.map((s) => [s.publicId, s]));
		const problems: string[] = [];
		const seen = new Set<string>();
		for (const e of data.entries) {
			if (!byPublic.has(e.candidateId))
				problems.push('A submitted response is not part of this question.');
			else if (seen.has(e.candidateId)) problems.push('A response was submitted twice.');
			seen.add(e.candidateId);
		}
		if (!problems.length && seen.size !== shown.length)
			problems.push(`Rank all ${shown.length} responses (${shown.length - seen.size} missing).`);
		if (problems.length) throw invalid(problems);

		const labelled = data.entries.map((e) => ({
			...e,
			label: `Response ${responseLetter(byPublic.get(e.candidateId)!.position)}`
		}));
		const rankIssue = rankProblem(
			labelled.map((e) => e.rank),
			a.allowTies
		);
		if (rankIssue) problems.push(rankIssue);
		const untagged = labelled.filter((e) => !e.tag).map((e) => e.label);
		if (untagged.length)
			problems.push(`Tag every response good, okay or bad (missing: ${untagged.join(', ')}).`);
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

		const timeOnTaskMs =
			data.timeOnTaskMs ?? Math.min(MAX_TIME_ON_TASK_MS, now.getTime() - a.createdAt.getTime());
		const [stored] = await tx
			.insert(ranking)
			.values({
				assignmentId: a.id,
				physicianId,
				idempotencyKey: data.idempotencyKey,
				timeOnTaskMs,
				displayedOrder: shown.map((s) => s.candidateId),
				submittedAt: now
			})
			.returning({ id: ranking.id });
		await tx.insert(rankingEntry).values(
			labelled.map((e) => {
				const s = byPublic.get(e.candidateId)!;
				return {
					rankingId: stored.id,
					candidateId: s.candidateId,
					rank: e.rank!,
					tag: e.tag!,
					comment: e.comment?.trim() || null,
					displayPosition: s.position + 1
				};
			})
		);
		await tx
			.update(assignment)
			.set({ state: 'submitted', submittedAt: now, leaseExpiresAt: null })
			.where(eq(assignment.id, a.id));
		await tx
			.update(studyQuestion)
			.set({ completed: sql`${studyQuestion.completed} + 1` })
			.where(eq(studyQuestion.id, a.questionId));
		await recordAudit(tx, {
			actorId: physicianId,
			action: 'ranking.submit',
			objectType: 'ranking',
			objectId: stored.id,
			after: {
				assignmentId: a.id,
				studyId: a.studyId,
				entries: labelled.map((e) => ({
					candidateId: byPublic.get(e.candidateId)!.candidateId,
					rank: e.rank,
					tag: e.tag
				}))
			}
		});
		return { rankingId: stored.id, studyId: a.studyId, duplicate: false };
	});
}

/**
 * The "submit + next" of the ranking screen, in one transaction: stores the ranking (see
 * submitRanking) and leases the physician's next question of the same study.
 */
export async function submitRankingAndNext(
	db: Db,
	physicianId: string,
	input: Submission,
	now = new Date()
): Promise<Submitted & { next: ClaimResult }> {
	return db.transaction(async (tx) => {
		const submitted = await submitRanking(tx, physicianId, input, now);
		const next = await claimNext(tx, submitted.studyId, physicianId, now);
		return { ...submitted, next };
	});
}
