import { and, count, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { dataset, qaItem, review, reviewTask } from '../../db/schema';
import type { QaType } from '../../../constants';
import { randomId, sha256Hex } from '../../ids';
import { recordAudit } from '../audit';
import { resolveItemOutcome } from '../items';
import { DomainError } from '../../errors';
import { createPrimaryTasks } from '../review';

/** mulberry32: a small, well-distributed 32-bit PRNG; the same seed always gives the same draw. */
export function seededRandom(seed: string): () => number {
	let a = parseInt(sha256Hex(seed).slice(0, 8), 16) >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * How many of each stratum to draw so that the total is the share of the whole,
 * `round(share × Σ sizes)`, split in proportion to the strata's sizes by the largest-remainder
 * (Hamilton) method: each stratum gets the floor of its quota, and the items still owed go to the
 * largest remainders (ties: the larger stratum, then by `random`, so no stratum is always the
 * one rounded up; without it the earlier one). Every count is the floor or the ceiling of its
 * quota. Rounding each stratum on its own drew 7 of 21 at 45 % instead of 9.
 */
export function apportion(sizes: number[], share: number, random?: () => number): number[] {
	const total = sizes.reduce((a, b) => a + b, 0);
	const target = Math.round(share * total);
	const quotas = sizes.map((n) => share * n);
	const counts = quotas.map((q) => Math.floor(q + 1e-9));
	const order = sizes
		.map((n, i) => ({ i, n, remainder: quotas[i] - counts[i], tie: random ? random() : i }))
		.filter((s) => counts[s.i] < s.n)
		.sort((a, b) => b.remainder - a.remainder || b.n - a.n || a.tie - b.tie);
	let owed = target - counts.reduce((a, b) => a + b, 0);
	for (const s of order) {
		if (owed <= 0) break;
		counts[s.i]++;
		owed--;
	}
	return counts;
}

/**
 * Draws `share` of the items, stratified by type (counts by `apportion`), with a seeded
 * Fisher–Yates shuffle per type over items sorted by id, so the draw depends only on the seed
 * and the set.
 */
export function stratifiedSample(
	items: { id: number; type: QaType }[],
	share: number,
	seed: string
): Set<number> {
	const byType = new Map<QaType, number[]>();
	for (const item of [...items].sort((a, b) => a.id - b.id)) {
		const ids = byType.get(item.type);
		if (ids) ids.push(item.id);
		else byType.set(item.type, [item.id]);
	}
	const types = [...byType.keys()].sort();
	const counts = apportion(
		types.map((t) => byType.get(t)!.length),
		share,
		seededRandom(`${seed}:apportion`)
	);
	const chosen = new Set<number>();
	types.forEach((type, k) => {
		const ids = byType.get(type)!;
		const random = seededRandom(`${seed}:${type}`);
		for (let i = ids.length - 1; i > 0; i--) {
			const j = Math.floor(random() * (i + 1));
			[ids[i], ids[j]] = [ids[j], ids[i]];
		}
		for (const id of ids.slice(0, counts[k])) chosen.add(id);
	});
	return chosen;
}

/** One item as the sample planner sees it. */
export interface SampleItem {
	id: number;
	type: QaType;
	sampled: boolean;
	/** The primary review is in (its task is done). */
	primaryDone: boolean;
	/** A secondary review is in or under way (leased): such an item stays in the sample. */
	secondaryStarted: boolean;
}

interface StoredSampleItem extends SampleItem {
	firstImportId: number | null;
}

// A seeded Fisher–Yates shuffle of ids sorted first, so the order depends on the seed and the set.
function shuffled(ids: number[], seed: string): number[] {
	const out = [...ids].sort((a, b) => a - b);
	const random = seededRandom(seed);
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

function groupByType<T extends { type: QaType }>(items: T[]): [QaType, T[]][] {
	const groups = new Map<QaType, T[]>();
	for (const item of items) {
		const group = groups.get(item.type);
		if (group) group.push(item);
		else groups.set(item.type, [item]);
	}
	return [...groups].sort(([a], [b]) => (a < b ? -1 : 1));
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * How many of each stratum's fresh items to draw so that the whole sample becomes
 * `round(share × Σ size)`: the largest-remainder method of `apportion`, starting from what each
 * stratum already has. Each stratum first gets the floor of its quota `share × size`, the items
 * still owed go to the largest remainders up to the ceiling (ties: the larger stratum, then by
 * `random`), and only when strata already at their ceiling leave items owed do others go beyond.
 * Every stratum ends at the floor or ceiling of its quota whenever the items already sampled allow
 * it; the total is exact whenever the fresh items suffice.
 */
export function batchDrawCounts(
	strata: { size: number; sampled: number; fresh: number }[],
	share: number,
	random?: () => number
): number[] {
	const quota = strata.map((s) => share * s.size);
	const most = strata.map((s) => s.sampled + s.fresh);
	const bound = (i: number, v: number) => Math.min(most[i], Math.max(strata[i].sampled, v));
	const count = strata.map((_, i) => bound(i, Math.floor(quota[i] + 1e-9)));
	const ceiling = strata.map((_, i) => bound(i, Math.ceil(quota[i] - 1e-9)));
	const tie = strata.map((_, i) => (random ? random() : i));
	const already = sum(strata.map((s) => s.sampled));
	const goal = Math.min(
		sum(most),
		Math.max(already, Math.round(share * sum(strata.map((s) => s.size))))
	);
	// The stratum furthest below (sign 1) or above (sign -1) its quota among those allowed to move.
	const next = (sign: 1 | -1, allowed: (i: number) => boolean) => {
		let best = -1;
		for (let i = 0; i < strata.length; i++) {
			if (!allowed(i)) continue;
			const d = sign * (quota[i] - count[i]);
			const b = best < 0 ? 0 : sign * (quota[best] - count[best]);
			if (
				best < 0 ||
				d > b + 1e-12 ||
				(Math.abs(d - b) <= 1e-12 &&
					(strata[i].size > strata[best].size ||
						(strata[i].size === strata[best].size && tie[i] < tie[best])))
			)
				best = i;
		}
		return best;
	};
	for (const limit of [ceiling, most]) {
		for (let i = next(1, (k) => count[k] < limit[k]); sum(count) < goal && i >= 0;) {
			count[i]++;
			i = next(1, (k) => count[k] < limit[k]);
		}
	}
	while (sum(count) > goal) count[next(-1, (k) => count[k] > strata[k].sampled)]--;
	return count.map((c, i) => c - strata[i].sampled);
}

async function loadSampleItems(tx: Tx, datasetId: number): Promise<StoredSampleItem[]> {
	const rows = rowsOf<{
		id: number;
		type: QaType;
		sampled: boolean;
		first_import_id: number | null;
		primary_done: boolean;
		secondary_started: boolean;
	}>(
		await tx.execute(sql`
			select i.id, i.type, i.in_secondary_sample as sampled, i.first_import_id,
				exists (select 1 from ${reviewTask} p
					where p.item_id = i.id and p.round = 'primary' and p.state = 'done') as primary_done,
				exists (select 1 from ${reviewTask} s
					where s.item_id = i.id and s.round = 'secondary' and s.state in ('leased', 'done'))
					as secondary_started
			from ${qaItem} i
			where i.dataset_id = ${datasetId} and i.status <> 'withdrawn'
			order by i.id`)
	);
	return rows.map((r) => ({
		id: r.id,
		type: r.type,
		sampled: r.sampled,
		firstImportId: r.first_import_id,
		primaryDone: r.primary_done,
		secondaryStarted: r.secondary_started
	}));
}

const idArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

/**
 * Puts items into or out of the secondary sample, moving their primary reviewers' tallies with
 * them (`qa_item_mark_sampled`): the only way the sample flag changes.
 */
async function markSampled(tx: Tx, ids: number[], sampled: boolean) {
	if (ids.length === 0) return;
	// qa_item_mark_sampled: src/lib/server/db/functions/verification.sql
	await tx.execute(sql`select qa_item_mark_sampled(${idArray(ids)}, ${sampled})`);
}

/**
 * Inside an import's transaction: draws the secondary sample among the items it created so that
 * the dataset's sample stays `round(share × N)` of all its items, stratified by type
 * (`batchDrawCounts`, seeded by the dataset seed and the import id, recorded in the audit event),
 * and creates the primary review tasks of the items it created or updated. A dataset's first
 * draw also considers its earlier items that nobody has reviewed yet.
 */
export async function sampleImportedItems(
	tx: Tx,
	actorId: string | null,
	datasetId: number,
	importId: number
) {
	const [ds] = await tx.select().from(dataset).where(eq(dataset.id, datasetId)).for('update');
	const seed = ds.sampleSeed ?? randomId(12);
	const firstDraw = ds.sampledAt === null;
	if (firstDraw || !ds.sampleSeed)
		await tx
			.update(dataset)
			.set({ sampleSeed: seed, sampledAt: ds.sampledAt ?? new Date() })
			.where(eq(dataset.id, ds.id));
	const items = await loadSampleItems(tx, ds.id);
	const fresh = (i: StoredSampleItem) =>
		!i.sampled &&
		!i.primaryDone &&
		!i.secondaryStarted &&
		(firstDraw || i.firstImportId === importId);
	const batchSeed = `${seed}:import:${importId}`;
	const groups = groupByType(items);
	const counts = batchDrawCounts(
		groups.map(([, g]) => ({
			size: g.length,
			sampled: g.filter((i) => i.sampled).length,
			fresh: g.filter(fresh).length
		})),
		ds.secondaryShare,
		seededRandom(`${batchSeed}:apportion`)
	);
	const drawn: number[] = [];
	const perType: Record<string, { drawn: number; sampled: number; total: number }> = {};
	groups.forEach(([type, g], k) => {
		const picked = shuffled(
			g.filter(fresh).map((i) => i.id),
			`${batchSeed}:${type}`
		).slice(0, counts[k]);
		drawn.push(...picked);
		perType[type] = {
			drawn: picked.length,
			sampled: g.filter((i) => i.sampled).length + picked.length,
			total: g.length
		};
	});
	await markSampled(tx, drawn, true);
	const tasks = await createPrimaryTasks(tx, importId);
	const sampled = items.filter((i) => i.sampled).length + drawn.length;
	if (items.some(fresh))
		await recordAudit(tx, {
			actorId,
			action: 'dataset.sample_import',
			objectType: 'dataset',
			objectId: ds.id,
			after: {
				importId,
				seed: batchSeed,
				share: ds.secondaryShare,
				drawn: drawn.length,
				sampled,
				total: items.length,
				perType
			}
		});
	return { drawn: drawn.length, sampled, total: items.length, tasks };
}

/** What a share (or seed) change does to one type's sample. */
export interface SamplePlanType {
	type: QaType;
	total: number;
	before: number;
	after: number;
	/** Items joining whose primary review is not in yet. */
	added: number;
	/** Single-reviewed items joining: they go back to awaiting a secondary review. */
	reopened: number;
	/** Items leaving whose secondary review had not started. */
	removed: number;
	/** Items the new share would remove that stay: their secondary review is in or under way. */
	kept: number;
}

/** A planned change of a dataset's secondary sample; `key` identifies it for confirmation. */
export interface SamplePlan {
	share: number;
	seed: string;
	redraw: boolean;
	total: number;
	before: number;
	after: number;
	add: number[];
	reopen: number[];
	remove: number[];
	kept: number;
	perType: SamplePlanType[];
	key: string;
}

/**
 * The sample at a new share: each type's count is apportioned over the whole dataset
 * (`apportion`, seeded); raising draws first from items whose primary review is not in yet, and
 * only then from single-reviewed items; lowering removes sampled items whose secondary review has
 * not started; items secondary-reviewed (or in secondary review) always stay. With `redraw` (a new
 * seed, allowed only before any review) the whole sample is drawn again from the seed.
 */
export function planSample(
	items: SampleItem[],
	share: number,
	seed: string,
	redraw: boolean
): SamplePlan {
	const add: number[] = [];
	const reopen: number[] = [];
	const remove: number[] = [];
	const perType: SamplePlanType[] = [];
	const chosen = redraw ? stratifiedSample(items, share, seed) : null;
	const groups = groupByType(items);
	const counts = apportion(
		groups.map(([, g]) => g.length),
		share,
		seededRandom(`${seed}:apportion`)
	);
	groups.forEach(([type, g], k) => {
		const before = g.filter((i) => i.sampled).length;
		const row = {
			type,
			total: g.length,
			before,
			after: before,
			added: 0,
			reopened: 0,
			removed: 0,
			kept: 0
		};
		const pick = (filter: (i: SampleItem) => boolean, n: number) =>
			shuffled(
				g.filter(filter).map((i) => i.id),
				`${seed}:share:${share}:${type}`
			).slice(0, n);
		if (chosen) {
			const joining = g.filter((i) => !i.sampled && chosen.has(i.id)).map((i) => i.id);
			const leaving = g.filter((i) => i.sampled && !chosen.has(i.id)).map((i) => i.id);
			add.push(...joining);
			remove.push(...leaving);
			row.added = joining.length;
			row.removed = leaving.length;
		} else if (counts[k] > before) {
			const fresh = pick((i) => !i.sampled && !i.primaryDone, counts[k] - before);
			const done = pick((i) => !i.sampled && i.primaryDone, counts[k] - before - fresh.length);
			add.push(...fresh);
			reopen.push(...done);
			row.added = fresh.length;
			row.reopened = done.length;
		} else if (counts[k] < before) {
			const leaving = pick((i) => i.sampled && !i.secondaryStarted, before - counts[k]);
			remove.push(...leaving);
			row.removed = leaving.length;
			row.kept = before - counts[k] - leaving.length;
		}
		row.after = before + row.added + row.reopened - row.removed;
		perType.push(row);
	});
	return {
		share,
		seed,
		redraw,
		total: items.length,
		before: sum(perType.map((t) => t.before)),
		after: sum(perType.map((t) => t.after)),
		add,
		reopen,
		remove,
		kept: sum(perType.map((t) => t.kept)),
		perType,
		key: sha256Hex(JSON.stringify([share, seed, add, reopen, remove])).slice(0, 16)
	};
}

/** Plans a change of a dataset's sample to `share` (and `seed`), reading its items in `tx`. */
export async function planSampleChange(tx: Tx, datasetId: number, share: number, seed: string) {
	const [ds] = await tx.select().from(dataset).where(eq(dataset.id, datasetId));
	if (!ds) throw new DomainError('not_found', `There is no dataset ${datasetId}.`);
	const redraw = ds.sampleSeed !== null && seed !== ds.sampleSeed;
	if (redraw) {
		const [reviewed] = await tx
			.select({ id: review.id })
			.from(review)
			.innerJoin(qaItem, eq(qaItem.id, review.itemId))
			.where(eq(qaItem.datasetId, ds.id))
			.limit(1);
		if (reviewed)
			throw new DomainError(
				'locked',
				'Reviews have started in this dataset: its seed can no longer change.',
				{ field: 'seed' }
			);
	}
	return planSample(await loadSampleItems(tx, ds.id), share, seed, redraw);
}

/**
 * Applies a sample plan: marks the items joining and leaving, cancels the pending secondary task
 * of items leaving, gives single-reviewed items joining a secondary task (never to their primary
 * reviewer), and recomputes the outcome of every item whose primary review is in.
 */
export async function applySamplePlan(tx: Tx, plan: SamplePlan): Promise<void> {
	// The secondary tasks this changes are locked before the items, in the order a submission
	// locks its task and then its item: a secondary review submitted meanwhile finishes first
	// instead of deadlocking with the change.
	const touched = [...plan.reopen, ...plan.remove];
	if (touched.length)
		await tx.execute(sql`
			select id from ${reviewTask}
			where round = 'secondary' and item_id = any(${idArray(touched)})
			order by id for update`);
	await markSampled(tx, [...plan.add, ...plan.reopen], true);
	await markSampled(tx, plan.remove, false);
	if (plan.remove.length)
		await tx
			.update(reviewTask)
			.set({ state: 'cancelled' })
			.where(
				and(
					eq(reviewTask.round, 'secondary'),
					eq(reviewTask.state, 'pending'),
					sql`${reviewTask.itemId} = any(${idArray(plan.remove)})`
				)
			);
	if (plan.reopen.length)
		await tx.execute(sql`
			insert into ${reviewTask} (item_id, round, excluded_user_id, sort_key)
			select p.item_id, 'secondary', p.done_by, p.sort_key from ${reviewTask} p
			where p.round = 'primary' and p.state = 'done' and p.retired_at is null
				and p.item_id = any(${idArray(plan.reopen)})
			on conflict (item_id, round) where retired_at is null do update
				set state = 'pending', excluded_user_id = excluded.excluded_user_id
				where ${reviewTask}.state = 'cancelled'`);
	const reviewed = await tx
		.selectDistinct({ id: review.itemId })
		.from(review)
		.where(sql`${review.itemId} = any(${idArray([...plan.reopen, ...plan.remove])})`);
	for (const { id } of reviewed) await resolveItemOutcome(tx, id);
}

/** A dataset's sample as the settings page shows it: share, target, achieved, per type. */
export async function sampleSummaries(db: Db) {
	const rows = await db
		.select({
			datasetId: qaItem.datasetId,
			type: qaItem.type,
			total: count(),
			sampled: sql<number>`count(*) filter (where ${qaItem.inSecondarySample})::int`
		})
		.from(qaItem)
		.where(sql`${qaItem.status} <> 'withdrawn'`)
		.groupBy(qaItem.datasetId, qaItem.type)
		.orderBy(qaItem.datasetId, qaItem.type);
	const out = new Map<number, { total: number; sampled: number; perType: typeof rows }>();
	for (const r of rows) {
		const entry = out.get(r.datasetId) ?? { total: 0, sampled: 0, perType: [] };
		entry.total += r.total;
		entry.sampled += r.sampled;
		entry.perType.push(r);
		out.set(r.datasetId, entry);
	}
	return out;
}
