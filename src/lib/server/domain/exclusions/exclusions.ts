// Organisers' exclusions of a rater's judgements: made and revoked in one transaction each, with
// an audit event and the slots of the questions the rater judged set back to what the counting
// judgements leave open (study_reopen, quality.sql), and listed with how many judgements each
// takes out of the figures.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { exclusion, study, user, type Exclusion } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { EXCLUSION_SOURCES, type ExclusionSource } from '../../../constants';

/** What an organiser gives to exclude judgements: a rater, a study or all, a time range, a reason. */
export const exclusionInputSchema = z
	.object({
		raterId: z.string().min(1, 'Choose the rater.'),
		studyId: z.number().int().positive().nullable(),
		from: z.date().nullable(),
		until: z.date().nullable(),
		reason: z.string().trim().min(1, 'Say why the judgements are excluded.').max(2000)
	})
	.refine((v) => !v.from || !v.until || v.from < v.until, {
		message: 'The range must end after it starts.',
		path: ['until']
	});
export type ExclusionInput = z.input<typeof exclusionInputSchema>;

/**
 * Recomputes the slots of every question the rater judged in the exclusion's scope
 * (`exclusion_reopen`, quality.sql) and, for an exclusion of every study, puts the QA items whose
 * reviews stopped counting back into the review queue or gives them back their restored reviews
 * (`review_exclusion_apply`, review.sql).
 */
async function reopen(
	tx: Tx,
	raterId: string,
	studyId: number | null,
	actorId: string,
	now: Date
): Promise<{ questions: number; reviewTasks: number }> {
	const at = now.toISOString();
	const result = await tx.execute(
		sql`select exclusion_reopen(${raterId}, ${studyId}::integer, ${at}::timestamptz) as changed,
			case when ${studyId}::integer is null
				then review_exclusion_apply(${raterId}, ${actorId}, ${at}::timestamptz) else 0 end as tasks`
	);
	const [row] = rowsOf<{ changed: number; tasks: number }>(result);
	return { questions: Number(row?.changed ?? 0), reviewTasks: Number(row?.tasks ?? 0) };
}

function auditRecord(e: Exclusion) {
	return {
		raterId: e.raterId,
		studyId: e.studyId,
		from: e.fromAt?.toISOString() ?? null,
		until: e.untilAt?.toISOString() ?? null,
		reason: e.reason,
		source: e.source,
		revokedAt: e.revokedAt?.toISOString() ?? null,
		revokedBy: e.revokedBy
	};
}

/**
 * Takes a rater's judgements (every study or one; all, or those submitted in [from, until)) out of
 * every figure, audited; the questions that fall below k raters reopen for others, and (an
 * exclusion of every study) the QA items whose current review it takes out go back into the
 * review queue for another reviewer. `source`
 * `withdrawal` is for the consent feature's withdrawals.
 */
export async function excludeJudgements(
	db: Db,
	input: ExclusionInput,
	actorId: string,
	options: { source?: ExclusionSource; now?: Date; tx?: Tx } = {}
): Promise<{ exclusion: Exclusion; questionsChanged: number; reviewTasksChanged: number }> {
	const parsed = exclusionInputSchema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new DomainError('invalid', issue.message, { field: String(issue.path[0] ?? '') });
	}
	const v = parsed.data;
	const source = options.source ?? 'organiser';
	if (!EXCLUSION_SOURCES.includes(source)) throw new DomainError('invalid', 'Unknown source.');
	const now = options.now ?? new Date();
	const run = async (tx: Tx) => {
		const [rater] = await tx.select({ id: user.id }).from(user).where(eq(user.id, v.raterId));
		if (!rater) throw new DomainError('not_found', 'No such rater.', { field: 'raterId' });
		if (v.studyId !== null) {
			const [s] = await tx.select({ id: study.id }).from(study).where(eq(study.id, v.studyId));
			if (!s) throw new DomainError('not_found', 'No such study.', { field: 'studyId' });
		}
		const [row] = await tx
			.insert(exclusion)
			.values({
				raterId: v.raterId,
				studyId: v.studyId,
				fromAt: v.from,
				untilAt: v.until,
				reason: v.reason,
				source,
				createdBy: actorId,
				createdAt: now
			})
			.returning();
		const changed = await reopen(tx, v.raterId, v.studyId, actorId, now);
		await recordAudit(tx, {
			actorId,
			action: 'exclusion.create',
			objectType: 'exclusion',
			objectId: row.id,
			before: null,
			after: {
				...auditRecord(row),
				questionsReopened: changed.questions,
				reviewTasksReopened: changed.reviewTasks
			}
		});
		return {
			exclusion: row,
			questionsChanged: changed.questions,
			reviewTasksChanged: changed.reviewTasks
		};
	};
	return options.tx ? run(options.tx) : db.transaction(run);
}

/**
 * Puts an exclusion's judgements back into the figures, audited with the organiser's reason; the
 * questions it reopened close again as far as their counting judgements fill them, and reviews it
 * set aside take their items back while the fresh task that replaced them is still unclaimed.
 */
export async function revokeExclusion(
	db: Db,
	exclusionId: number,
	actorId: string,
	options: { reason?: string; now?: Date } = {}
): Promise<{ exclusion: Exclusion; questionsChanged: number; reviewTasksChanged: number }> {
	const now = options.now ?? new Date();
	const reason = (options.reason ?? '').trim();
	if (reason.length > 2000) throw new DomainError('invalid', 'The reason is too long.');
	return db.transaction(async (tx) => {
		const [before] = await tx
			.select()
			.from(exclusion)
			.where(eq(exclusion.id, exclusionId))
			.for('update');
		if (!before) throw new DomainError('not_found', 'No such exclusion.');
		if (before.revokedAt) throw new DomainError('conflict', 'This exclusion is already revoked.');
		const [after] = await tx
			.update(exclusion)
			.set({ revokedAt: now, revokedBy: actorId })
			.where(and(eq(exclusion.id, exclusionId), isNull(exclusion.revokedAt)))
			.returning();
		const changed = await reopen(tx, before.raterId, before.studyId, actorId, now);
		await recordAudit(tx, {
			actorId,
			action: 'exclusion.revoke',
			objectType: 'exclusion',
			objectId: exclusionId,
			before: auditRecord(before),
			after: {
				...auditRecord(after),
				revokeReason: reason || null,
				questionsClosed: changed.questions,
				reviewTasksRestored: changed.reviewTasks
			}
		});
		return {
			exclusion: after,
			questionsChanged: changed.questions,
			reviewTasksChanged: changed.reviewTasks
		};
	});
}

/** One exclusion as the admin pages list it. */
export interface ExclusionRow extends Exclusion {
	raterName: string;
	studyName: string | null;
	createdByName: string;
	revokedByName: string | null;
	/** Study judgements (non-gold, submitted) in its scope and range. */
	judgements: number;
	/** Reviews (QA verification) in its range: only exclusions of every study reach reviews. */
	reviews: number;
}

/** Exclusions of a rater or of a study (including those of every study), newest first. */
export async function listExclusions(
	db: Db,
	filter: { raterId?: string; studyId?: number } = {}
): Promise<ExclusionRow[]> {
	const rater = alias(user, 'rater');
	const creator = alias(user, 'creator');
	const revoker = alias(user, 'revoker');
	const conditions = [];
	if (filter.raterId) conditions.push(eq(exclusion.raterId, filter.raterId));
	if (filter.studyId !== undefined)
		conditions.push(
			sql`(${exclusion.studyId} is null or ${exclusion.studyId} = ${filter.studyId})`
		);
	const rows = await db
		.select({
			e: exclusion,
			raterName: rater.displayName,
			studyName: study.name,
			createdByName: creator.displayName,
			revokedByName: revoker.displayName,
			judgements: sql<number>`(select count(*)::int from assignment a
				join study_question q on q.id = a.study_question_id
				where a.physician_id = ${exclusion.raterId} and a.state = 'submitted' and not q.gold
					and (${exclusion.studyId} is null or q.study_id = ${exclusion.studyId})
					and (${exclusion.fromAt} is null or a.submitted_at >= ${exclusion.fromAt})
					and (${exclusion.untilAt} is null or a.submitted_at < ${exclusion.untilAt}))`,
			reviews: sql<number>`(case when ${exclusion.studyId} is null then (
				select count(*)::int from review r where r.reviewer_id = ${exclusion.raterId}
					and (${exclusion.fromAt} is null or r.submitted_at >= ${exclusion.fromAt})
					and (${exclusion.untilAt} is null or r.submitted_at < ${exclusion.untilAt}))
				else 0 end)`
		})
		.from(exclusion)
		.innerJoin(rater, eq(rater.id, exclusion.raterId))
		.innerJoin(creator, eq(creator.id, exclusion.createdBy))
		.leftJoin(revoker, eq(revoker.id, exclusion.revokedBy))
		.leftJoin(study, eq(study.id, exclusion.studyId))
		.where(and(...conditions))
		.orderBy(desc(exclusion.createdAt), desc(exclusion.id));
	return rows.map((r) => ({
		...r.e,
		raterName: r.raterName,
		studyName: r.studyName,
		createdByName: r.createdByName,
		revokedByName: r.revokedByName,
		judgements: Number(r.judgements),
		reviews: Number(r.reviews)
	}));
}

/** How many of a study's judgements the standing exclusions take out of its figures. */
export interface ExcludedCounts {
	/** Submitted judgements of non-gold questions that do not count. */
	judgements: number;
	/** Raters with at least one such judgement. */
	raters: number;
	/** Judgements excluded per source (one covered by both counts under both). */
	bySource: Record<ExclusionSource, number>;
	/** The standing exclusions' reasons that cover any of them, in order of first use. */
	reasons: string[];
}

/** The study's excluded judgements: how many, of how many raters, by source and their reasons. */
export async function excludedCounts(db: Db, studyId: number): Promise<ExcludedCounts> {
	const result = await db.execute(sql`
		with excluded as (
			select a.id, a.physician_id, a.submitted_at from assignment a
			join study_question q on q.id = a.study_question_id
			where q.study_id = ${studyId} and a.state = 'submitted' and not q.gold
				and a.physician_id in (select rater_id from exclusion where revoked_at is null)
				and not judgement_counts(a.physician_id, q.study_id, a.submitted_at)
		), covering as (
			select x.id as judgement, e.id, e.source, e.reason from excluded x
			join exclusion e on e.rater_id = x.physician_id and e.revoked_at is null
				and (e.study_id is null or e.study_id = ${studyId})
				and (e.from_at is null or x.submitted_at >= e.from_at)
				and (e.until_at is null or x.submitted_at < e.until_at)
		)
		select
			(select count(*)::int from excluded) as judgements,
			(select count(distinct physician_id)::int from excluded) as raters,
			(select coalesce(json_object_agg(source, n), '{}'::json) from (
				select source, count(distinct judgement)::int as n from covering group by source) s) as sources,
			(select coalesce(json_agg(reason order by first), '[]'::json) from (
				select reason, min(id) as first from covering group by reason) r) as reasons`);
	const [row] = rowsOf<{
		judgements: number;
		raters: number;
		sources: unknown;
		reasons: unknown;
	}>(result);
	const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
	const sources = parse<Partial<Record<ExclusionSource, number>>>(row?.sources ?? {});
	return {
		judgements: Number(row?.judgements ?? 0),
		raters: Number(row?.raters ?? 0),
		bySource: { organiser: sources.organiser ?? 0, withdrawal: sources.withdrawal ?? 0 },
		reasons: parse<string[]>(row?.reasons ?? [])
	};
}

/** How many reviews of a dataset (latest revision per task) the exclusions take out. */
export async function excludedReviewCounts(
	db: Db,
	datasetId: number
): Promise<{ judgements: number; raters: number; reasons: string[] }> {
	const result = await db.execute(sql`
		with latest as (
			select distinct on (r.task_id) r.reviewer_id, r.submitted_at
			from review r join qa_item i on i.id = r.item_id
			where i.dataset_id = ${datasetId}
			order by r.task_id, r.revision desc
		), excluded as (
			select * from latest
			where reviewer_id in (select rater_id from exclusion where revoked_at is null)
				and not judgement_counts(reviewer_id, null, submitted_at)
		)
		select
			(select count(*)::int from excluded) as judgements,
			(select count(distinct reviewer_id)::int from excluded) as raters,
			(select coalesce(json_agg(distinct e.reason), '[]'::json) from excluded x
				join exclusion e on e.rater_id = x.reviewer_id and e.revoked_at is null
					and e.study_id is null
					and (e.from_at is null or x.submitted_at >= e.from_at)
					and (e.until_at is null or x.submitted_at < e.until_at)) as reasons`);
	const [row] = rowsOf<{ judgements: number; raters: number; reasons: unknown }>(result);
	const reasons = row?.reasons ?? [];
	return {
		judgements: Number(row?.judgements ?? 0),
		raters: Number(row?.raters ?? 0),
		reasons: (typeof reasons === 'string' ? JSON.parse(reasons) : reasons) as string[]
	};
}

/** One sentence for pages and bundles: "N judgements of M raters excluded (reasons: …)." */
export function excludedSentence(c: { judgements: number; raters: number; reasons: string[] }) {
	if (!c.judgements) return 'No judgements excluded.';
	const j = c.judgements === 1 ? 'judgement' : 'judgements';
	const r = c.raters === 1 ? 'rater' : 'raters';
	const why = c.reasons.length ? ` (reasons: ${c.reasons.join('; ')})` : '';
	return `${c.judgements} ${j} of ${c.raters} ${r} excluded${why}.`;
}
