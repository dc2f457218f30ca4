import { asc } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import {
	ITEM_OUTCOMES,
	ITEM_STATUSES,
	QA_TYPES,
	type ItemOutcome,
	type ItemStatus,
	type Provenance,
	type QaType,
	type Verdict
} from '../../constants';
import { adjudication, dispute, feedbackNote, qaItem, review, type User } from '../db/schema';
import { describeEachDb } from '../db/testing';
import { reviewItem } from '../fixtures/review-flow';
import { seedUsers } from '../fixtures/review';
import { exportItems, itemsCsv, listItems, parseItemQuery } from '../domain/items/items';
import { adminOverview } from '../domain/items/overview';
import { adjudicate } from '../domain/verification/adjudication';
import { verificationProgress } from '../domain/verification/progress';
import { freezeSnapshot, listSnapshots, snapshotExport } from '../domain/verification/snapshots';
import { importDemoContent } from './seed';

interface Expected {
	type: QaType;
	status: ItemStatus;
	outcome: ItemOutcome;
	finalVerdict: Verdict | null;
	finalRelevance: number | null;
	provenance: Provenance | null;
	held: boolean;
	reviews: number;
}

const CAUTION: Record<Verdict, number> = { correct: 0, cannot_tell: 1, incorrect: 2 };

describeEachDb('demo data: table, overview, snapshot and export agree with the reviews', (h) => {
	let alice: User;
	let bob: User;
	let org: User;
	beforeEach(async () => {
		await importDemoContent(h.db);
		[alice, bob] = await seedUsers(h.db, 2);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		await h.db.update(qaItem).set({ inSecondarySample: false });
	});

	it('shows the same outcome everywhere, as counted from the review rows', async () => {
		const items = await h.db
			.select({ id: qaItem.id, type: qaItem.type })
			.from(qaItem)
			.orderBy(asc(qaItem.id));
		expect(items).toHaveLength(21);
		// A mix of every path through verification, by position in the demo data.
		for (const [i, { id }] of items.entries()) {
			const kind = i % 7;
			if (kind === 0) {
				await reviewItem(h.db, alice.id, id, 'primary', {
					verdict: 'correct',
					relevance: 5,
					sampled: true
				});
				await reviewItem(h.db, bob.id, id, 'secondary', { verdict: 'correct', relevance: 4 });
			} else if (kind === 1) {
				await reviewItem(h.db, alice.id, id, 'primary', {
					verdict: 'correct',
					relevance: 5,
					sampled: true
				});
				await reviewItem(h.db, bob.id, id, 'secondary', { verdict: 'incorrect', relevance: 5 });
				if (i < 14)
					await adjudicate(h.db, org.id, {
						itemId: id,
						verdict: i === 1 ? 'correct' : 'cannot_tell',
						relevance: 5,
						reason: 'decided'
					});
			} else if (kind === 2) {
				await reviewItem(h.db, alice.id, id, 'primary', { verdict: 'incorrect', relevance: 3 });
			} else if (kind === 3) {
				await reviewItem(h.db, bob.id, id, 'primary', { verdict: 'cannot_tell', relevance: 2 });
			} else if (kind === 4) {
				await reviewItem(h.db, alice.id, id, 'primary', { verdict: 'correct', relevance: 4 });
			} else if (kind === 5) {
				await reviewItem(h.db, alice.id, id, 'primary', {
					verdict: 'correct',
					relevance: 5,
					...(i === 5 ? { disputeCategory: 'outdated', disputeReason: 'old' } : {}),
					...(i === 12 ? { feedbackCategory: 'wording', feedback: 'typo' } : {})
				});
			} else if (i === 6) {
				await reviewItem(h.db, bob.id, id, 'primary', {
					verdict: 'correct',
					relevance: 5,
					sampled: true
				});
			}
		}

		// What should be true of each item, worked out here from the rows the reviews left.
		const [reviews, adjudications, disputes, notes, flags] = await Promise.all([
			h.db.select().from(review),
			h.db.select().from(adjudication),
			h.db.select().from(dispute),
			h.db.select().from(feedbackNote),
			h.db.select({ id: qaItem.id, sampled: qaItem.inSecondarySample }).from(qaItem)
		]);
		const expected = new Map<number, Expected>();
		for (const { id, type } of items) {
			const mine = reviews.filter((r) => r.itemId === id);
			const latest = (round: string) =>
				mine.filter((r) => r.round === round).sort((a, b) => b.revision - a.revision)[0];
			const [p, s] = [latest('primary'), latest('secondary')];
			const adj = adjudications.filter((a) => a.itemId === id).at(-1);
			const sampled = flags.find((f) => f.id === id)!.sampled;
			const held =
				disputes.some((d) => d.itemId === id && ['open', 'under_review'].includes(d.status)) ||
				notes.some((n) => n.itemId === id && n.resolvedAt === null);
			let e: Pick<Expected, 'status' | 'finalVerdict' | 'finalRelevance' | 'provenance'>;
			if (adj)
				e = {
					status: 'done',
					finalVerdict: adj.verdict,
					finalRelevance: adj.relevance,
					provenance: 'adjudicated'
				};
			else if (!p)
				e = {
					status: 'awaiting_primary',
					finalVerdict: null,
					finalRelevance: null,
					provenance: null
				};
			else if (!sampled)
				e = {
					status: 'done',
					finalVerdict: p.verdict,
					finalRelevance: p.relevance,
					provenance: 'single'
				};
			else if (!s)
				e = {
					status: 'awaiting_secondary',
					finalVerdict: null,
					finalRelevance: null,
					provenance: null
				};
			else if (p.verdict !== s.verdict || Math.abs(p.relevance - s.relevance) >= 2)
				e = {
					status: 'awaiting_adjudication',
					finalVerdict: null,
					finalRelevance: null,
					provenance: null
				};
			else
				e = {
					status: 'done',
					finalVerdict: CAUTION[p.verdict] >= CAUTION[s.verdict] ? p.verdict : s.verdict,
					finalRelevance: Math.min(p.relevance, s.relevance),
					provenance: 'agreed'
				};
			const outcome: ItemOutcome = held
				? 'held'
				: e.status !== 'done'
					? 'pending'
					: e.finalVerdict === 'correct'
						? 'verified'
						: e.finalVerdict!;
			expected.set(id, {
				type,
				...e,
				held,
				outcome,
				reviews: mine.filter((r) => r.revision === 1).length
			});
		}
		const count = (keep: (e: Expected) => boolean) => [...expected.values()].filter(keep).length;
		// The mix covers every outcome but withdrawn, and every state but withdrawn.
		for (const o of ITEM_OUTCOMES.filter((o) => o !== 'withdrawn'))
			expect(count((e) => e.outcome === o)).toBeGreaterThan(0);

		// 1. The items table.
		const table = await listItems(h.db, parseItemQuery(new URLSearchParams('size=200')));
		expect(table.total).toEqual({ kind: 'exact', n: 21 });
		const shown = new Map(
			table.rows.map((r) => [
				r.id,
				{
					type: r.type,
					status: r.status,
					outcome: r.outcome,
					finalVerdict: r.finalVerdict,
					finalRelevance: r.finalRelevance,
					provenance: r.provenance,
					held: r.held,
					reviews: r.reviews
				}
			])
		);
		expect(shown).toEqual(expected);

		// 2. The overview and the progress page.
		const overview = await adminOverview(h.db);
		const progress = await verificationProgress(h.db);
		const byState = ITEM_STATUSES.map((status) => ({
			status,
			n: count((e) => e.status === status)
		}));
		const byOutcome = ITEM_OUTCOMES.map((outcome) => ({
			outcome,
			n: count((e) => e.outcome === outcome)
		}));
		expect(overview.byState).toEqual(byState);
		expect(overview.byOutcome).toEqual(byOutcome);
		expect(progress.byState).toEqual(byState);
		expect(progress.byOutcome).toEqual(byOutcome);
		expect(progress.disagreementsWaiting).toBe(count((e) => e.status === 'awaiting_adjudication'));

		// 3. A snapshot at threshold 4: its composition in the Table 1 layout.
		const [{ datasetId }] = await h.db.select({ datasetId: qaItem.datasetId }).from(qaItem);
		const snap = await freezeSnapshot(h.db, org.id, { datasetId, name: 'demo', threshold: 4 });
		const chosen = [...expected.entries()].filter(
			([, e]) => e.outcome === 'verified' && e.finalRelevance! >= 4
		);
		expect(snap.itemCount).toBe(chosen.length);
		expect(chosen.length).toBeGreaterThanOrEqual(4); // high and low, single and double
		const composition = QA_TYPES.map((type) => {
			const ofType = chosen.filter(([, e]) => e.type === type).map(([, e]) => e);
			const double = ofType.filter((e) => e.provenance !== 'single').length;
			const high = ofType.filter((e) => e.finalRelevance === 5).length;
			return {
				type,
				relevance: [1, 2, 3, 4, 5].map((g) => ofType.filter((e) => e.finalRelevance === g).length),
				high,
				low: ofType.length - high,
				single: ofType.length - double,
				double,
				total: ofType.length
			};
		});
		const exported = await snapshotExport(h.db, snap.id);
		expect(exported!.composition).toEqual(composition);
		expect((await listSnapshots(h.db))[0].composition).toEqual(composition);
		const outcomes = Object.values(exported!.outcomes).flat();
		expect(outcomes.map((o) => o.itemId).sort((a, b) => a - b)).toEqual(
			chosen.map(([id]) => id).sort((a, b) => a - b)
		);
		for (const o of outcomes)
			expect(o).toMatchObject({
				finalRelevance: expected.get(o.itemId)!.finalRelevance,
				provenance: expected.get(o.itemId)!.provenance
			});

		// 4. The items export: the same rows, all of them, and its filters are the table's.
		const rows = await exportItems(h.db, parseItemQuery(new URLSearchParams()));
		expect(rows).toHaveLength(21);
		for (const r of rows)
			expect({
				state: r.state,
				outcome: r.outcome,
				finalVerdict: r.finalVerdict,
				finalRelevance: r.finalRelevance,
				provenance: r.provenance,
				held: r.held,
				reviews: r.reviews,
				reviewedWithoutPassage: r.reviewedWithoutPassage
			}).toEqual({
				state: expected.get(r.itemId as number)!.status,
				outcome: expected.get(r.itemId as number)!.outcome,
				finalVerdict: expected.get(r.itemId as number)!.finalVerdict,
				finalRelevance: expected.get(r.itemId as number)!.finalRelevance,
				provenance: expected.get(r.itemId as number)!.provenance,
				held: expected.get(r.itemId as number)!.held,
				reviews: expected.get(r.itemId as number)!.reviews,
				// Every demo item's passage is imported before its reviews.
				reviewedWithoutPassage: false
			});
		const held = await exportItems(h.db, parseItemQuery(new URLSearchParams('held=yes')));
		expect(held.map((r) => r.itemId)).toEqual(
			[...expected].filter(([, e]) => e.held).map(([id]) => id)
		);
		const csv = itemsCsv(rows).trimEnd().split('\r\n');
		expect(csv[0]).toBe(
			'itemId,itemKey,type,paragraphId,state,outcome,finalVerdict,finalRelevance,provenance,held,reviewedWithoutPassage,reviews,amendments,version'
		);
		expect(csv).toHaveLength(22);
	});
});
