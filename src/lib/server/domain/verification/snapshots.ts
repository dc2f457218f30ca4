import { asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { dataset, qaItem, qaItemVersion, snapshot, snapshotItem, user } from '../../db/schema';
import { QA_TYPES, type QaType } from '../../../constants';
import { recordAudit } from '../audit/audit';
import { DomainError } from '../../errors';

export const freezeSchema = z.object({
	datasetId: z.coerce.number().int().positive(),
	name: z
		.string()
		.trim()
		.min(1, 'Name the snapshot.')
		.max(100)
		.regex(/^[\w .:-]+$/, 'Use letters, digits, spaces and . _ : - only.'),
	threshold: z.coerce
		.number('The relevance threshold must be a number.')
		.int()
		.min(1, 'The relevance threshold must be from 1 to 5.')
		.max(5, 'The relevance threshold must be from 1 to 5.')
		.default(5)
});

/** One row of the composition report (ClinIQLink Table 1 style). */
export interface CompositionRow {
	type: QaType;
	/** Verified correct, final relevance at or above the threshold: the snapshot's items. */
	high: number;
	/** Verified correct and clean, but below the relevance threshold. */
	low: number;
	total: number;
	/** Items of `total` with an independent secondary review. */
	doubleReviewed: number;
	doubleReviewedPercent: number;
}

interface Candidate {
	id: number;
	type: QaType;
	version_id: number;
	final_relevance: number;
	double_reviewed: boolean;
}

/**
 * Items verified correct with no open dispute (open or under review) and no unresolved feedback
 * note: the pool a snapshot draws from. Relevance decides high (selected) or low.
 */
async function candidates(db: Db | Tx, datasetId: number): Promise<Candidate[]> {
	const result = await db.execute(sql`
		select i.id, i.type, i.current_version_id as version_id, i.final_relevance,
			exists (select 1 from review r where r.item_id = i.id and r.round = 'secondary') as double_reviewed
		from ${qaItem} i
		where i.dataset_id = ${datasetId} and i.status = 'verified' and i.final_verdict = 'correct'
			and not exists (select 1 from dispute d where d.item_id = i.id and d.status in ('open', 'under_review'))
			and not exists (select 1 from feedback_note f where f.item_id = i.id and f.resolved_at is null)
		order by i.id`);
	return rowsOf<Candidate>(result).map((r) => ({
		...r,
		id: Number(r.id),
		version_id: Number(r.version_id),
		final_relevance: Number(r.final_relevance)
	}));
}

/** The composition report of a candidate pool at a relevance threshold. */
export function composition(pool: Candidate[], threshold: number): CompositionRow[] {
	return QA_TYPES.map((type) => {
		const ofType = pool.filter((c) => c.type === type);
		const high = ofType.filter((c) => c.final_relevance >= threshold).length;
		const doubleReviewed = ofType.filter((c) => c.double_reviewed).length;
		return {
			type,
			high,
			low: ofType.length - high,
			total: ofType.length,
			doubleReviewed,
			doubleReviewedPercent: ofType.length
				? Math.round((1000 * doubleReviewed) / ofType.length) / 10
				: 0
		};
	});
}

/** What freezing now would select, without writing anything. */
export async function previewSnapshot(db: Db, datasetId: number, threshold = 5) {
	const pool = await candidates(db, datasetId);
	return {
		selected: pool.filter((c) => c.final_relevance >= threshold).length,
		composition: composition(pool, threshold)
	};
}

/**
 * Freezes a snapshot in one transaction: the selected item versions, the settings applied and the
 * composition report. Snapshots are never changed afterwards; item corrections add versions, so
 * the recorded versions (and hence the export) stay reproducible.
 */
export async function freezeSnapshot(db: Db, actorId: string, input: z.infer<typeof freezeSchema>) {
	return db.transaction(async (tx) => {
		const [ds] = await tx.select().from(dataset).where(eq(dataset.id, input.datasetId));
		if (!ds) throw new DomainError('not_found', `There is no dataset ${input.datasetId}.`);
		const [taken] = await tx
			.select({ id: snapshot.id })
			.from(snapshot)
			.where(eq(snapshot.name, input.name));
		if (taken)
			throw new DomainError('conflict', `A snapshot named "${input.name}" exists already.`);
		const pool = await candidates(tx, ds.id);
		const selected = pool.filter((c) => c.final_relevance >= input.threshold);
		if (!selected.length)
			throw new DomainError(
				'invalid',
				`No item qualifies yet (verified correct, GP relevance ≥ ${input.threshold}, no open dispute or feedback).`
			);
		const settings = {
			relevanceThreshold: input.threshold,
			rule: 'status = verified, final verdict = correct, final relevance >= threshold, no open or under-review dispute, no unresolved feedback note',
			dataset: {
				id: ds.id,
				name: ds.name,
				secondaryShare: ds.secondaryShare,
				sampleSeed: ds.sampleSeed,
				disagreeOnVerdict: ds.disagreeOnVerdict,
				relevanceGap: ds.relevanceGap
			}
		};
		const report = composition(pool, input.threshold);
		const [created] = await tx
			.insert(snapshot)
			.values({
				datasetId: ds.id,
				name: input.name,
				settings,
				composition: report,
				itemCount: selected.length,
				createdBy: actorId
			})
			.returning();
		for (let i = 0; i < selected.length; i += 1000) {
			await tx.insert(snapshotItem).values(
				selected.slice(i, i + 1000).map((c) => ({
					snapshotId: created.id,
					itemId: c.id,
					itemVersionId: c.version_id,
					finalRelevance: c.final_relevance
				}))
			);
		}
		await recordAudit(tx, {
			actorId,
			action: 'snapshot.freeze',
			objectType: 'snapshot',
			objectId: created.id,
			after: { name: created.name, itemCount: created.itemCount, settings }
		});
		return created;
	});
}

/** All snapshots, newest first. */
export function listSnapshots(db: Db) {
	return db
		.select({
			id: snapshot.id,
			name: snapshot.name,
			itemCount: snapshot.itemCount,
			settings: snapshot.settings,
			composition: snapshot.composition,
			createdAt: snapshot.createdAt,
			createdBy: user.displayName
		})
		.from(snapshot)
		.innerJoin(user, eq(user.id, snapshot.createdBy))
		.orderBy(desc(snapshot.createdAt), desc(snapshot.id));
}

/**
 * A snapshot's export: the ClinIQLink record of every frozen item version, grouped per type (each
 * array is a file the ClinIQLink tools load as `<type>.json`), plus the composition report.
 */
export async function snapshotExport(db: Db, id: number) {
	const [snap] = await db.select().from(snapshot).where(eq(snapshot.id, id));
	if (!snap) return null;
	const rows = await db
		.select({ type: qaItemVersion.type, record: qaItemVersion.record })
		.from(snapshotItem)
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, snapshotItem.itemVersionId))
		.where(eq(snapshotItem.snapshotId, id))
		.orderBy(asc(snapshotItem.itemId));
	const files: Record<string, unknown[]> = {};
	for (const type of QA_TYPES) files[`${type}.json`] = [];
	for (const r of rows) files[`${r.type}.json`].push(r.record);
	return {
		snapshot: {
			id: snap.id,
			name: snap.name,
			createdAt: snap.createdAt,
			itemCount: snap.itemCount,
			settings: snap.settings
		},
		composition: snap.composition as CompositionRow[],
		files
	};
}
