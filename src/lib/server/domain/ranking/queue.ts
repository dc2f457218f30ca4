import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import {
	assignment,
	assignmentCandidate,
	candidate,
	qaItemVersion,
	rankingStudy,
	studyPhysician,
	studyQuestion
} from '../../db/schema';
import { randomId } from '../../ids';
import { responseLetter, seededShuffle } from './shuffle';

export type ClaimResult =
	| { status: 'assigned'; publicId: string; resumed: boolean }
	| { status: 'none'; reason: 'not_open' | 'exhausted' };

/**
 * Returns expired leases of a study to its queue. Runs in its own short transaction and skips
 * rows another sweep holds, so concurrent claimers never wait on each other here.
 */
export async function expireLeases(
	db: Db | Tx,
	studyId: number,
	now = new Date()
): Promise<number> {
	return db.transaction(async (tx) => {
		const expired = await tx
			.update(assignment)
			.set({ state: 'expired' })
			.where(
				inArray(
					assignment.id,
					tx
						.select({ id: assignment.id })
						.from(assignment)
						.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
						.where(
							and(
								eq(assignment.state, 'leased'),
								sql`${assignment.leaseExpiresAt} <= ${now.toISOString()}`,
								eq(studyQuestion.studyId, studyId)
							)
						)
						.for('update', { of: assignment, skipLocked: true })
				)
			)
			.returning({ questionId: assignment.studyQuestionId });
		const perQuestion = new Map<number, number>();
		for (const e of expired)
			perQuestion.set(e.questionId, (perQuestion.get(e.questionId) ?? 0) + 1);
		// Ascending id order keeps concurrent sweeps from deadlocking on question rows.
		for (const [id, n] of [...perQuestion].sort((a, b) => a[0] - b[0])) {
			await tx
				.update(studyQuestion)
				.set({ openSlots: sql`${studyQuestion.openSlots} + ${n}` })
				.where(eq(studyQuestion.id, id));
		}
		return expired.length;
	});
}

async function activeLease(tx: Tx, studyId: number, physicianId: string, now: Date) {
	const [row] = await tx
		.select({ publicId: assignment.publicId })
		.from(assignment)
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.where(
			and(
				eq(assignment.physicianId, physicianId),
				eq(assignment.state, 'leased'),
				gt(assignment.leaseExpiresAt, now),
				eq(studyQuestion.studyId, studyId)
			)
		)
		.limit(1);
	return row?.publicId;
}

/**
 * The SQL sort key of a question in a physician's order: md5 of `<order seed>:<study question
 * id>`, compared bytewise. `questionOrder` in shuffle.ts computes the same order.
 */
function questionOrderKey(seed: SQL, questionId: SQL): SQL {
	return sql`md5(${seed} || ':' || ${questionId}::text) collate "C"`;
}

/**
 * Hands the physician the next question of an open study through a lease: their live lease if
 * they hold one (a reload keeps it), else the first question in their own seeded order
 * (`study_physician`) that they have never had and that has a free slot, claimed with
 * `FOR UPDATE SKIP LOCKED` so concurrent physicians never exceed k per question. The assignment
 * records its position in the physician's sequence; the candidates are shuffled with a fresh
 * seed stored on the assignment.
 */
export async function claimNext(
	db: Db | Tx,
	studyId: number,
	physicianId: string,
	now = new Date()
): Promise<ClaimResult> {
	await expireLeases(db, studyId, now);
	return db.transaction(async (tx) => {
		const [study] = await tx
			.select({ state: rankingStudy.state, leaseMinutes: rankingStudy.leaseMinutes })
			.from(rankingStudy)
			.where(eq(rankingStudy.id, studyId));
		if (!study || study.state !== 'open') return { status: 'none', reason: 'not_open' };
		// One claim at a time per physician, so two tabs cannot take two questions.
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'rank:' + physicianId}))`);
		const held = await activeLease(tx, studyId, physicianId, now);
		if (held) return { status: 'assigned', publicId: held, resumed: true };

		// The physician's order seed (created at their first claim in the study) and, in one round
		// trip, the first question in their order they never had that still has a free slot.
		const [question] = rowsOf<{ id: number }>(
			await tx.execute(sql`
				with fresh as (
					insert into ${studyPhysician} (study_id, physician_id, order_seed)
					values (${studyId}, ${physicianId}, ${randomId(16)})
					on conflict do nothing
					returning order_seed
				), seed as (
					select order_seed from fresh
					union all
					select order_seed from ${studyPhysician}
					where study_id = ${studyId} and physician_id = ${physicianId}
				)
				select q.id
				from study_question q cross join seed s
				where q.study_id = ${studyId} and q.open_slots > 0
					and not exists (
						select 1 from assignment a
						where a.study_question_id = q.id and a.physician_id = ${physicianId}
					)
				order by ${questionOrderKey(sql`s.order_seed`, sql`q.id`)}, q.id
				limit 1
				for update of q skip locked`)
		);
		if (!question) return { status: 'none', reason: 'exhausted' };

		await tx
			.update(studyQuestion)
			.set({ openSlots: sql`${studyQuestion.openSlots} - 1` })
			.where(eq(studyQuestion.id, question.id));
		const seed = randomId(16);
		const [created] = await tx
			.insert(assignment)
			.values({
				studyQuestionId: question.id,
				physicianId,
				publicId: randomId(),
				seed,
				presentationPosition: sql`(
					select count(*)::int + 1 from ${assignment} a
					join ${studyQuestion} q on q.id = a.study_question_id
					where q.study_id = ${studyId} and a.physician_id = ${physicianId})`,
				leaseExpiresAt: new Date(now.getTime() + study.leaseMinutes * 60_000),
				createdAt: now
			})
			.returning({ id: assignment.id, publicId: assignment.publicId });
		const candidates = await tx
			.select({ id: candidate.id })
			.from(candidate)
			.where(eq(candidate.studyQuestionId, question.id))
			.orderBy(asc(candidate.id));
		const order = seededShuffle(
			candidates.map((c) => c.id),
			seed
		);
		await tx.insert(assignmentCandidate).values(
			order.map((candidateId, position) => ({
				assignmentId: created.id,
				candidateId,
				publicId: randomId(12),
				position
			}))
		);
		return { status: 'assigned', publicId: created.publicId, resumed: false };
	});
}

/**
 * What a physician may see of an assignment. Blinded by construction: no model, response or
 * candidate database ids and no reference flag are selected, only opaque ids, letters and texts.
 */
export async function getAssignmentView(db: Db, publicId: string, physicianId: string) {
	const [row] = await db
		.select({
			id: assignment.id,
			publicId: assignment.publicId,
			state: assignment.state,
			leaseExpiresAt: assignment.leaseExpiresAt,
			createdAt: assignment.createdAt,
			studyId: rankingStudy.id,
			studyName: rankingStudy.name,
			studyState: rankingStudy.state,
			instructions: rankingStudy.instructions,
			allowTies: rankingStudy.allowTies,
			type: qaItemVersion.type,
			question: qaItemVersion.question,
			options: qaItemVersion.options,
			falseAnswer: qaItemVersion.falseAnswer,
			reasoning: qaItemVersion.reasoning
		})
		.from(assignment)
		.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
		.innerJoin(rankingStudy, eq(rankingStudy.id, studyQuestion.studyId))
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, studyQuestion.itemVersionId))
		.where(and(eq(assignment.publicId, publicId), eq(assignment.physicianId, physicianId)));
	if (!row) return null;
	const candidates = await db
		.select({
			id: assignmentCandidate.publicId,
			position: assignmentCandidate.position,
			// The canonical presentation; candidates frozen before it existed keep their raw text.
			text: sql<string>`coalesce(${candidate.shownText}, ${candidate.text})`
		})
		.from(assignmentCandidate)
		.innerJoin(candidate, eq(candidate.id, assignmentCandidate.candidateId))
		.where(eq(assignmentCandidate.assignmentId, row.id))
		.orderBy(asc(assignmentCandidate.position));
	const inverse = row.type === 'short_inverse' || row.type === 'multi_hop_inverse';
	return {
		assignment: {
			publicId: row.publicId,
			state: row.state,
			leaseExpiresAt: row.leaseExpiresAt,
			shownAt: row.createdAt
		},
		study: {
			id: row.studyId,
			name: row.studyName,
			state: row.studyState,
			instructions: row.instructions,
			allowTies: row.allowTies
		},
		question: {
			type: row.type,
			text: row.question,
			options: row.type === 'multiple_choice' || row.type === 'list' ? (row.options ?? []) : [],
			// Inverse items: the wrong answer or reasoning the models were asked to critique.
			falseAnswer: inverse ? row.falseAnswer : null,
			reasoning: row.type === 'multi_hop_inverse' ? (row.reasoning ?? []) : []
		},
		candidates: candidates.map((c) => ({
			id: c.id,
			label: `Response ${responseLetter(c.position)}`,
			text: c.text
		}))
	};
}

/** Open studies a physician can work on, with how many questions they have ranked. */
export async function listOpenStudiesFor(db: Db, physicianId: string) {
	return db
		.select({
			id: rankingStudy.id,
			name: rankingStudy.name,
			state: rankingStudy.state,
			questions: sql<number>`(select count(*)::int from ${studyQuestion} q where q.study_id = ranking_study.id)`,
			ranked: sql<number>`(select count(*)::int from ${assignment} a join ${studyQuestion} q on q.id = a.study_question_id where q.study_id = ranking_study.id and a.physician_id = ${physicianId} and a.state = 'submitted')`,
			available: sql<number>`(select count(*)::int from ${studyQuestion} q where q.study_id = ranking_study.id and q.open_slots > 0 and not exists (select 1 from ${assignment} a where a.study_question_id = q.id and a.physician_id = ${physicianId}))`
		})
		.from(rankingStudy)
		.where(inArray(rankingStudy.state, ['open', 'paused']))
		.orderBy(asc(rankingStudy.id));
}
