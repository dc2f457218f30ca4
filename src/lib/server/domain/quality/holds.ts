// Holds on a rater in a benchmark study: an organiser pauses them or sends them back to training,
// the claim refuses them new work while the hold stands (`study_claim`), and the hold is lifted by
// an organiser or — a retraining — by the rater once they have gone through the gold checks they
// missed. Each step is one transaction with its audit event.
import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { assignment, raterHold, study, studyQuestion, user, type RaterHold } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { getAssignmentView, releaseStudyLeases } from '../studies';
import { RATER_HOLD_KINDS, type RaterHoldKind } from '../../../constants';
import { scoreAgainstGold, type GoldLine } from './gold-compare';
import { goldAnswers } from './gold';
import { studyLabels } from './labels';
import { asShown } from './qualification';

export const holdInputSchema = z.object({
	studyId: z.number().int().positive(),
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
 * Places a hold on a rater in a benchmark study: from now on the study gives them nothing, and the
 * question they hold (if any) goes back to the others at once. Refused when a hold already stands.
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
	return db.transaction(async (tx) => {
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
		const [rater] = await tx.select({ id: user.id }).from(user).where(eq(user.id, v.raterId));
		if (!rater) throw new DomainError('not_found', 'No such rater.', { field: 'raterId' });
		const [standing] = await tx
			.select({ kind: raterHold.kind })
			.from(raterHold)
			.where(
				and(
					eq(raterHold.studyId, v.studyId),
					eq(raterHold.raterId, v.raterId),
					isNull(raterHold.liftedAt)
				)
			)
			.for('update');
		if (standing)
			throw new DomainError(
				'conflict',
				`This rater is already ${standing.kind === 'pause' ? 'paused' : 'in retraining'} in this study; lift that first.`,
				{ field: 'kind' }
			);
		const [row] = await tx
			.insert(raterHold)
			.values({ ...v, createdBy: actorId, createdAt: now })
			.returning();
		const released = await releaseStudyLeases(tx, v.raterId, v.studyId, now);
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

/** A study's holds, standing first, newest first. */
export async function listHolds(db: Db, studyId: number): Promise<HoldRow[]> {
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
		.where(eq(raterHold.studyId, studyId))
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
	return new Map(rows.map((r) => [r.studyId, { id: r.id, kind: r.kind, reason: r.reason }]));
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
