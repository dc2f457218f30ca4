// Holds on a rater in a benchmark study, or on a reviewer in the QA review queue (no study): an
// organiser pauses them or sends them back to training, the claim refuses them new work while the
// hold stands (`study_claim`, `review_claim_next`), and the hold is lifted by an organiser or — a
// retraining — by the rater once they have gone through the gold checks they missed. Each step is
// one transaction with its audit event.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { rowsOf, type Db } from '../../db/client';
import { assignment, raterHold, study, studyQuestion, user, type RaterHold } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { getAssignmentView, releaseStudyLeases } from '../studies';
import { checkDisplay, returnLeasedTasks, type ShownWork } from '../review';
import type { Verdict } from '../../../constants';
import { RATER_HOLD_KINDS, type RaterHoldKind } from '../../../constants';
import { scoreAgainstGold, type GoldLine } from './gold-compare';
import { goldAnswers } from './gold';
import { studyLabels } from './labels';
import { asShown } from './qualification';

export const holdInputSchema = z.object({
	/** The benchmark study, or null for the QA review queue. */
	studyId: z.number().int().positive().nullable(),
	raterId: z.string().min(1, 'Choose the rater.'),
	kind: z.enum(RATER_HOLD_KINDS, { message: 'Choose pause or retraining.' }),
	reason: z.string().trim().min(1, 'Say why, for the rater and the record.').max(2000)
});
export type HoldInput = z.input<typeof holdInputSchema>;

const audited = (h: RaterHold) => ({
	studyId: h.studyId,
	raterId: h.raterId,
	kind: h.kind,
	reason: h.reason,
	liftedAt: h.liftedAt?.toISOString() ?? null,
	liftNote: h.liftNote
});

/**
 * Places a hold on a rater in a benchmark study (or on a reviewer in the review queue, `studyId`
 * null): from now on it gives them nothing, and the question or QA pair they hold (if any) goes
 * back to the others at once. Refused when a hold already stands.
 */
export async function holdRater(
	db: Db,
	input: HoldInput,
	actorId: string,
	now = new Date()
): Promise<RaterHold> {
	const parsed = holdInputSchema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new DomainError('invalid', issue.message, { field: String(issue.path[0] ?? '') });
	}
	const v = parsed.data;
	const where = v.studyId === null ? 'in the review queue' : 'in this study';
	return db.transaction(async (tx) => {
		if (v.studyId !== null) {
			const [s] = await tx
				.select({ id: study.id, purpose: study.purpose })
				.from(study)
				.where(eq(study.id, v.studyId));
			if (!s) throw new DomainError('not_found', 'No such study.', { field: 'studyId' });
			if (s.purpose !== 'benchmark')
				throw new DomainError(
					'invalid',
					'A qualification round limits itself by its attempts; holds are for benchmark studies.',
					{ field: 'studyId' }
				);
		}
		const [rater] = await tx
			.select({ id: user.id, roles: user.roles })
			.from(user)
			.where(eq(user.id, v.raterId));
		if (!rater) throw new DomainError('not_found', 'No such rater.', { field: 'raterId' });
		if (v.studyId === null && !rater.roles.includes('reviewer'))
			throw new DomainError('invalid', 'This account does not review QA pairs.', {
				field: 'raterId'
			});
		// One hold at a time per rater and place (the unique index would refuse a second anyway).
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`hold:${v.raterId}`}))`);
		const [standing] = await tx
			.select({ kind: raterHold.kind })
			.from(raterHold)
			.where(
				and(
					v.studyId === null ? isNull(raterHold.studyId) : eq(raterHold.studyId, v.studyId),
					eq(raterHold.raterId, v.raterId),
					isNull(raterHold.liftedAt)
				)
			);
		if (standing)
			throw new DomainError(
				'conflict',
				`This rater is already ${standing.kind === 'pause' ? 'paused' : 'in retraining'} ${where}; lift that first.`,
				{ field: 'kind' }
			);
		const [row] = await tx
			.insert(raterHold)
			.values({ ...v, createdBy: actorId, createdAt: now })
			.returning();
		const released =
			v.studyId === null
				? await returnLeasedTasks(tx, v.raterId)
				: await releaseStudyLeases(tx, v.raterId, v.studyId, now);
		await recordAudit(tx, {
			actorId,
			action: 'rater_hold.create',
			objectType: 'rater_hold',
			objectId: row.id,
			before: null,
			after: { ...audited(row), leasesReleased: released.length }
		});
		return row;
	});
}

/**
 * Lifts a standing hold. An organiser lifts any (`by: 'organiser'`, with a note); the rater lifts
 * only their own retraining (`by: 'rater'`), once every missed check has been shown to them.
 */
export async function liftHold(
	db: Db,
	holdId: number,
	actorId: string,
	options: { by: 'organiser' | 'rater'; note?: string; now?: Date }
): Promise<RaterHold> {
	const now = options.now ?? new Date();
	return db.transaction(async (tx) => {
		const [h] = await tx.select().from(raterHold).where(eq(raterHold.id, holdId)).for('update');
		if (!h || (options.by === 'rater' && h.raterId !== actorId))
			throw new DomainError('not_found', 'No such hold.');
		if (h.liftedAt) throw new DomainError('conflict', 'This hold was lifted already.');
		if (options.by === 'rater' && h.kind !== 'retrain')
			throw new DomainError('forbidden', 'Only the organisers can end a pause.');
		const note =
			options.by === 'rater'
				? 'The rater went through the gold checks they missed.'
				: (options.note ?? '').trim() || 'Lifted by an organiser.';
		const [row] = await tx
			.update(raterHold)
			.set({ liftedAt: now, liftedBy: actorId, liftNote: note.slice(0, 2000) })
			.where(eq(raterHold.id, holdId))
			.returning();
		await recordAudit(tx, {
			actorId,
			action: 'rater_hold.lift',
			objectType: 'rater_hold',
			objectId: h.id,
			before: audited(h),
			after: audited(row)
		});
		return row;
	});
}

/** A hold as the organiser's page lists it. */
export interface HoldRow {
	id: number;
	raterId: string;
	pseudonym: string;
	displayName: string;
	kind: RaterHoldKind;
	reason: string;
	createdAt: Date;
	createdBy: string;
	liftedAt: Date | null;
	liftNote: string | null;
}

/** A study's holds (the review queue's with null), standing first, newest first. */
export async function listHolds(db: Db, studyId: number | null): Promise<HoldRow[]> {
	const by = alias(user, 'by');
	const rows = await db
		.select({
			id: raterHold.id,
			raterId: raterHold.raterId,
			pseudonym: user.pseudonym,
			displayName: user.displayName,
			kind: raterHold.kind,
			reason: raterHold.reason,
			createdAt: raterHold.createdAt,
			createdBy: by.displayName,
			liftedAt: raterHold.liftedAt,
			liftNote: raterHold.liftNote
		})
		.from(raterHold)
		.innerJoin(user, eq(user.id, raterHold.raterId))
		.innerJoin(by, eq(by.id, raterHold.createdBy))
		.where(studyId === null ? isNull(raterHold.studyId) : eq(raterHold.studyId, studyId))
		.orderBy(desc(raterHold.createdAt), desc(raterHold.id));
	return rows.sort((a, b) => Number(a.liftedAt !== null) - Number(b.liftedAt !== null));
}

/** The holds standing on a rater, by study (for their list of studies). */
export async function standingHolds(
	db: Db,
	raterId: string
): Promise<Map<number, { id: number; kind: RaterHoldKind; reason: string }>> {
	const rows = await db
		.select({
			id: raterHold.id,
			studyId: raterHold.studyId,
			kind: raterHold.kind,
			reason: raterHold.reason
		})
		.from(raterHold)
		.where(and(eq(raterHold.raterId, raterId), isNull(raterHold.liftedAt)));
	return new Map(
		rows.flatMap((r) =>
			r.studyId === null ? [] : [[r.studyId, { id: r.id, kind: r.kind, reason: r.reason }]]
		)
	);
}

/** The hold standing on a reviewer in the review queue, or null. */
export async function reviewerHold(
	db: Db,
	raterId: string
): Promise<{ id: number; kind: RaterHoldKind; reason: string } | null> {
	const [row] = await db
		.select({ id: raterHold.id, kind: raterHold.kind, reason: raterHold.reason })
		.from(raterHold)
		.where(
			and(eq(raterHold.raterId, raterId), isNull(raterHold.studyId), isNull(raterHold.liftedAt))
		);
	return row ?? null;
}

/** One hidden check a reviewer in retraining missed: the pair as shown, their labels and gold's. */
export interface MissedReviewCheck extends Omit<ShownWork, 'lease'> {
	given: { verdict: Verdict; relevance: number };
	gold: { verdict: Verdict; relevance: number };
	explanation: string;
}

/** What a reviewer in retraining reads: the hold, and every hidden check they did not match. */
export interface ReviewRetraining {
	holdId: number;
	reason: string;
	missed: MissedReviewCheck[];
	/** Hidden checks answered, matched or not. */
	checks: number;
}

/**
 * The retraining of a reviewer in the review queue: every hidden check they answered without
 * matching both gold labels (their latest revision), the pair as it was shown, their labels
 * beside the gold ones and the explanation; null when no retraining stands for them. Revealing a
 * check they answered is safe: a gold pair is never given to the same reviewer twice.
 */
export async function reviewRetraining(db: Db, raterId: string): Promise<ReviewRetraining | null> {
	const hold = await reviewerHold(db, raterId);
	if (!hold || hold.kind !== 'retrain') return null;
	const rows = rowsOf<{
		id: number;
		matched: number;
		verdict: Verdict;
		relevance: number;
		gold_verdict: Verdict;
		gold_relevance: number;
		explanation: string;
	}>(
		await db.execute(sql`select c.id, c.matched, c.verdict, c.relevance, g.verdict as gold_verdict,
				g.relevance as gold_relevance, g.explanation
			from review_check c join review_gold g on g.id = c.gold_id
			where c.reviewer_id = ${raterId} and c.state = 'done'
			order by c.submitted_at, c.id`)
	);
	const missed: MissedReviewCheck[] = [];
	for (const r of rows.filter((x) => Number(x.matched) < 2)) {
		const shown = await checkDisplay(db, Number(r.id));
		if (!shown) continue;
		missed.push({
			...shown,
			given: { verdict: r.verdict, relevance: Number(r.relevance) },
			gold: { verdict: r.gold_verdict, relevance: Number(r.gold_relevance) },
			explanation: r.explanation
		});
	}
	return { holdId: hold.id, reason: hold.reason, missed, checks: rows.length };
}

/** One missed gold check, as the rater goes through it in retraining. */
export interface MissedCheck {
	publicId: string;
	question: { text: string; context: string | null; options: string[] };
	candidates: { label: string; text: string }[];
	lines: GoldLine[];
	matched: number;
	total: number;
	explanation: string;
}

/** What a rater in retraining reads: the hold, and every hidden gold check they did not match. */
export interface Retraining {
	holdId: number;
	studyId: number;
	studyName: string;
	reason: string;
	missed: MissedCheck[];
	/** Gold checks met in the study, matched or not. */
	checks: number;
}

/**
 * The retraining of a rater in a study: the gold checks they met and did not fully match, each with
 * the question and answers as they were shown (letters, never models), the gold labels beside
 * theirs and the explanation; null when no retraining stands for them there. Revealing a check
 * they already answered is safe: a gold question is never given to the same rater twice.
 */
export async function retraining(
	db: Db,
	studyId: number,
	raterId: string
): Promise<Retraining | null> {
	const [h] = await db
		.select({ id: raterHold.id, reason: raterHold.reason, name: study.name })
		.from(raterHold)
		.innerJoin(study, eq(study.id, raterHold.studyId))
		.where(
			and(
				eq(raterHold.studyId, studyId),
				eq(raterHold.raterId, raterId),
				eq(raterHold.kind, 'retrain'),
				isNull(raterHold.liftedAt)
			)
		);
	if (!h) return null;
	const gold = await goldAnswers(db, studyId);
	const scores = scoreAgainstGold(
		await studyLabels(db, studyId, { questions: 'gold', raterIds: [raterId] }),
		gold
	);
	const assignments = new Map(
		(
			await db
				.select({ id: assignment.id, publicId: assignment.publicId })
				.from(assignment)
				.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
				.where(
					and(
						eq(studyQuestion.studyId, studyId),
						eq(assignment.physicianId, raterId),
						eq(assignment.state, 'submitted'),
						eq(studyQuestion.gold, true)
					)
				)
		).map((a) => [a.id, a.publicId])
	);
	const missed: MissedCheck[] = [];
	for (const s of scores.filter((x) => x.matched < x.total)) {
		const publicId = assignments.get(s.assignmentId);
		if (!publicId) continue;
		const view = await getAssignmentView(db, publicId, raterId);
		if (!view) continue;
		missed.push({
			publicId,
			question: {
				text: view.question.text,
				context: view.question.context,
				options: view.question.options
			},
			candidates: view.candidates.map((c) => ({ label: c.label, text: c.text })),
			lines: await asShown(db, s.assignmentId, s.lines),
			matched: s.matched,
			total: s.total,
			explanation: gold.get(s.questionId)?.explanation ?? ''
		});
	}
	return {
		holdId: h.id,
		studyId,
		studyName: h.name,
		reason: h.reason,
		missed,
		checks: scores.length
	};
}
