import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rankProblem, TAG_VALUES, tagInconsistencies } from '../../../ranking/rules';
import type { Db } from '../../db/client';
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
				tag: z.enum(TAG_VALUES, { error: 'must be good, okay or bad' }).nullable(),
				comment: z.string().max(5000, 'is longer than 5,000 characters').optional()
			})
		)
		.min(1)
		.max(26)
});
export type Submission = z.input<typeof submissionSchema>;

export type SubmitResult =
	| { status: 'stored' | 'duplicate'; rankingId: number; studyId: number }
	| { status: 'refused'; code: 'not_found' | 'closed' | 'expired' | 'submitted'; message: string }
	| { status: 'invalid'; problems: string[] }
	| { status: 'needs_confirmation'; warnings: string[] };

/**
 * Stores a physician's ranking of an assignment: every candidate ranked (a permutation, or
 * competition ranks when the study allows ties) and tagged. Retrying with the same idempotency
 * key returns the stored ranking; any refusal stores nothing.
 */
export async function submitRanking(
	db: Db,
	physicianId: string,
	input: Submission,
	now = new Date()
): Promise<SubmitResult> {
	const parsed = submissionSchema.safeParse(input);
	if (!parsed.success)
		return {
			status: 'invalid',
			problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'submission'} ${i.message}`)
		};
	const data = parsed.data;
	return db.transaction(async (tx): Promise<SubmitResult> => {
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
		if (!a) return { status: 'refused', code: 'not_found', message: 'This question is not yours.' };

		const [previous] = await tx
			.select({ id: ranking.id, assignmentId: ranking.assignmentId })
			.from(ranking)
			.where(eq(ranking.idempotencyKey, data.idempotencyKey));
		if (previous?.assignmentId === a.id)
			return { status: 'duplicate', rankingId: previous.id, studyId: a.studyId };
		if (a.state === 'submitted')
			return {
				status: 'refused',
				code: 'submitted',
				message: 'You have already submitted a ranking for this question.'
			};
		if (previous) return { status: 'invalid', problems: ['The submission key was reused.'] };
		if (a.studyState === 'closed')
			return {
				status: 'refused',
				code: 'closed',
				message: 'This study is closed; rankings are no longer accepted.'
			};
		if (a.state !== 'leased' || !a.leaseExpiresAt || a.leaseExpiresAt <= now)
			return {
				status: 'refused',
				code: 'expired',
				message:
					'Your time for this question ran out and it went back to the queue; nothing was saved.'
			};

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
		if (problems.length) return { status: 'invalid', problems: [...new Set(problems)] };

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
		if (problems.length) return { status: 'invalid', problems };
		if (!data.confirmInconsistent) {
			const warnings = tagInconsistencies(labelled);
			if (warnings.length) return { status: 'needs_confirmation', warnings };
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
		return { status: 'stored', rankingId: stored.id, studyId: a.studyId };
	});
}
