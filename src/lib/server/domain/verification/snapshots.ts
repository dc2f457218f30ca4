import { asc, count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { dataset, qaItem, qaItemVersion, snapshot, snapshotItem, user } from '../../db/schema';
import { QA_TYPES, type Provenance, type QaType } from '../../../constants';
import { heldSql } from '../items';
import { recordAudit } from '../audit';
import { DomainError } from '../../errors';

/** A GP relevance threshold from 1 to 5; empty or absent means none. */
export const relevanceThreshold = z.preprocess(
	(v) => (v === '' || v === null ? undefined : v),
	z.coerce
		.number('The relevance threshold must be a number.')
		.int()
		.min(1, 'The relevance threshold must be from 1 to 5.')
		.max(5, 'The relevance threshold must be from 1 to 5.')
		.optional()
);

export const freezeSchema = z.object({
	datasetId: z.coerce.number().int().positive(),
	name: z
		.string()
		.trim()
		.min(1, 'Name the snapshot.')
		.max(100)
		.regex(/^[\w .:-]+$/, 'Use letters, digits, spaces and . _ : - only.'),
	/** An explicit choice: without one the snapshot takes every verified item, whatever its relevance. */
	threshold: relevanceThreshold
});

/**
 * One row of the composition report, laid out as Table 1 of the ClinIQLink paper: per QA type,
 * items per final GP relevance 1–5, of high GP relevance (5) and low (below 5), single-annotated
 * (one review) and double-annotated (a secondary review too: provenance agreed or adjudicated),
 * and the total. Read from each item's outcome (final relevance, provenance), never from its
 * workflow state.
 */
export interface CompositionRow {
	type: QaType;
	/** Items with final GP relevance 1, 2, 3, 4 and 5 (index 0 is relevance 1). */
	relevance: number[];
	high: number;
	low: number;
	single: number;
	double: number;
	total: number;
}

/** What the composition counts of one item (or of `n` alike items). */
interface Composed {
	type: QaType;
	finalRelevance: number;
	provenance: Provenance | null;
	n?: number;
}

/** The composition report (Table 1 layout) of a set of items. */
export function composition(items: Composed[]): CompositionRow[] {
	return QA_TYPES.map((type) => {
		const row: CompositionRow = {
			type,
			relevance: [0, 0, 0, 0, 0],
			high: 0,
			low: 0,
			single: 0,
			double: 0,
			total: 0
		};
		for (const c of items) {
			if (c.type !== type) continue;
			const n = c.n ?? 1;
			if (c.finalRelevance >= 1 && c.finalRelevance <= 5) row.relevance[c.finalRelevance - 1] += n;
			if (c.finalRelevance === 5) row.high += n;
			else row.low += n;
			if (c.provenance === 'agreed' || c.provenance === 'adjudicated') row.double += n;
			else row.single += n;
			row.total += n;
		}
		return row;
	});
}

interface Candidate {
	id: number;
	type: QaType;
	versionId: number;
	finalRelevance: number;
	provenance: Provenance;
}

/**
 * The pool a snapshot draws from: items whose verification is done with final verdict correct
 * and that are not held (no dispute open or under review, no unresolved feedback note).
 */
async function candidates(db: Db | Tx, datasetId: number): Promise<Candidate[]> {
	const result = await db.execute(sql`
		select i.id, i.type, i.current_version_id as version_id, i.final_relevance, i.provenance
		from ${qaItem} i
		where i.dataset_id = ${datasetId} and i.status = 'done' and i.final_verdict = 'correct'
			and not ${heldSql(sql`i.id`)}
		order by i.id`);
	return rowsOf<{
		id: number;
		type: QaType;
		version_id: number;
		final_relevance: number;
		provenance: Provenance;
	}>(result).map((r) => ({
		id: Number(r.id),
		type: r.type,
		versionId: Number(r.version_id),
		finalRelevance: Number(r.final_relevance),
		provenance: r.provenance
	}));
}

/** The pool's items at or above `threshold`; every one without a threshold. */
function atThreshold(pool: Candidate[], threshold: number | undefined) {
	return threshold === undefined ? pool : pool.filter((c) => c.finalRelevance >= threshold);
}

/** What freezing now would select, without writing anything (no threshold: every verified item). */
export async function previewSnapshot(db: Db, datasetId: number, threshold?: number) {
	const pool = await candidates(db, datasetId);
	const selected = atThreshold(pool, threshold);
	return {
		selected: selected.length,
		/** Verified correct and not held, but below the threshold: left out. */
		belowThreshold: pool.length - selected.length,
		composition: composition(selected)
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
		const threshold = input.threshold;
		const selected = atThreshold(pool, threshold);
		if (!selected.length)
			throw new DomainError(
				'invalid',
				`No item qualifies yet (verified correct${threshold === undefined ? '' : `, GP relevance ≥ ${threshold}`}, not held by an open dispute or feedback note).`
			);
		const settings = {
			relevanceThreshold: threshold ?? null,
			rule: `state = done, final verdict = correct, ${threshold === undefined ? 'any final relevance (no threshold)' : `final relevance >= ${threshold}`}, not held (no open or under-review dispute, no unresolved feedback note)`,
			dataset: {
				id: ds.id,
				name: ds.name,
				secondaryShare: ds.secondaryShare,
				sampleSeed: ds.sampleSeed,
				disagreeOnVerdict: ds.disagreeOnVerdict,
				relevanceGap: ds.relevanceGap
			}
		};
		const report = composition(selected);
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
					itemVersionId: c.versionId,
					finalRelevance: c.finalRelevance,
					provenance: c.provenance
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

/** All snapshots, newest first, each with its composition report read from its frozen items. */
export async function listSnapshots(db: Db) {
	const [snaps, counted] = await Promise.all([
		db
			.select({
				id: snapshot.id,
				name: snapshot.name,
				itemCount: snapshot.itemCount,
				settings: snapshot.settings,
				createdAt: snapshot.createdAt,
				createdBy: user.displayName
			})
			.from(snapshot)
			.innerJoin(user, eq(user.id, snapshot.createdBy))
			.orderBy(desc(snapshot.createdAt), desc(snapshot.id)),
		db
			.select({
				snapshotId: snapshotItem.snapshotId,
				type: qaItemVersion.type,
				finalRelevance: snapshotItem.finalRelevance,
				provenance: snapshotItem.provenance,
				n: count()
			})
			.from(snapshotItem)
			.innerJoin(qaItemVersion, eq(qaItemVersion.id, snapshotItem.itemVersionId))
			.groupBy(
				snapshotItem.snapshotId,
				qaItemVersion.type,
				snapshotItem.finalRelevance,
				snapshotItem.provenance
			)
	]);
	return snaps.map((s) => ({
		...s,
		composition: composition(counted.filter((c) => c.snapshotId === s.id))
	}));
}

/**
 * A snapshot's export: the ClinIQLink record of every frozen item version, grouped per type (each
 * array is a file the ClinIQLink tools load as `<type>.json`, records exactly as imported or
 * corrected), the outcome of each record beside it in `outcomes` (same file, same position), and
 * the composition report.
 */
export async function snapshotExport(db: Db, id: number) {
	const [snap] = await db.select().from(snapshot).where(eq(snapshot.id, id));
	if (!snap) return null;
	const rows = await db
		.select({
			itemId: snapshotItem.itemId,
			itemKey: qaItem.itemKey,
			versionId: snapshotItem.itemVersionId,
			version: qaItemVersion.version,
			type: qaItemVersion.type,
			record: qaItemVersion.record,
			finalRelevance: snapshotItem.finalRelevance,
			provenance: snapshotItem.provenance
		})
		.from(snapshotItem)
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, snapshotItem.itemVersionId))
		.innerJoin(qaItem, eq(qaItem.id, snapshotItem.itemId))
		.where(eq(snapshotItem.snapshotId, id))
		.orderBy(asc(snapshotItem.itemId));
	const files: Record<string, unknown[]> = {};
	const outcomes: Record<string, SnapshotOutcome[]> = {};
	for (const type of QA_TYPES) {
		files[`${type}.json`] = [];
		outcomes[`${type}.json`] = [];
	}
	for (const r of rows) {
		files[`${r.type}.json`].push(r.record);
		outcomes[`${r.type}.json`].push({
			itemId: r.itemId,
			itemKey: r.itemKey,
			versionId: r.versionId,
			version: r.version,
			// Only items verified correct are frozen (the selection rule in `candidates`).
			finalVerdict: 'correct',
			finalRelevance: r.finalRelevance,
			provenance: r.provenance
		});
	}
	return {
		snapshot: {
			id: snap.id,
			name: snap.name,
			createdAt: snap.createdAt,
			itemCount: snap.itemCount,
			settings: snap.settings
		},
		composition: composition(rows),
		files,
		outcomes
	};
}

/** The outcome of one exported record, as frozen. */
export interface SnapshotOutcome {
	itemId: number;
	itemKey: string;
	versionId: number;
	version: number;
	finalVerdict: 'correct';
	finalRelevance: number;
	provenance: Provenance | null;
}
