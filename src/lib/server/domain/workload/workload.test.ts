import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { Db } from '../../db/client';
import {
	assignment,
	qaItemVersion,
	study as studyTable,
	ranking,
	review,
	reviewTask,
	studyQuestion,
	taskSkip,
	type User
} from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, seedUsers } from '../../fixtures/review';
import { randomId } from '../../ids';
import { workload } from './workload';

// Wednesday 25 November 2026, 15:00 UTC: today is the 25th from 00:00 UTC, and ISO week
// 2026-W48 runs from Monday 23rd 00:00 UTC to Monday 30th 00:00 UTC.
const NOW = new Date('2026-11-25T15:00:00Z');
const at = (iso: string) => new Date(iso);

interface ItemRef {
	itemId: number;
	versionId: number;
	primaryTaskId: number;
}

async function items(db: Db): Promise<ItemRef[]> {
	await seedItems(db, 1);
	const rows = await db
		.select({ itemId: qaItemVersion.itemId, versionId: qaItemVersion.id, taskId: reviewTask.id })
		.from(qaItemVersion)
		.innerJoin(
			reviewTask,
			and(eq(reviewTask.itemId, qaItemVersion.itemId), eq(reviewTask.round, 'primary'))
		)
		.orderBy(qaItemVersion.itemId);
	return rows.map((r) => ({ itemId: r.itemId, versionId: r.versionId, primaryTaskId: r.taskId }));
}

async function secondaryTask(db: Db, item: ItemRef): Promise<number> {
	const [task] = await db
		.insert(reviewTask)
		.values({ itemId: item.itemId, round: 'secondary', state: 'done' })
		.returning({ id: reviewTask.id });
	return task.id;
}

async function addReview(
	db: Db,
	who: User,
	item: ItemRef,
	r: {
		at: string;
		ms: number | null;
		round?: 'primary' | 'secondary';
		taskId?: number;
		revision?: number;
	}
) {
	await db.insert(review).values({
		taskId: r.taskId ?? item.primaryTaskId,
		itemId: item.itemId,
		itemVersionId: item.versionId,
		round: r.round ?? 'primary',
		reviewerId: who.id,
		revision: r.revision ?? 1,
		verdict: 'correct',
		relevance: 4,
		timeOnTaskMs: r.ms,
		idempotencyKey: randomId(),
		submittedAt: at(r.at)
	});
}

describeEachDb('workload', (h) => {
	it('counts each reviewer’s reviews in the UTC day and ISO week, their median time, skipped share and double-checked items', async () => {
		const [a, b, c] = await seedUsers(h.db, 3);
		await seedUsers(h.db, 1, ['organiser']);
		const it = await items(h.db);
		// A's primary reviews: midnight today, the last moment of yesterday, the first moment of
		// the week, the last moment of last week (outside), and one today without a recorded time.
		await addReview(h.db, a, it[0], { at: '2026-11-25T00:00:00.000Z', ms: 10_000 });
		await addReview(h.db, a, it[1], { at: '2026-11-24T23:59:59.999Z', ms: 30_000 });
		await addReview(h.db, a, it[2], { at: '2026-11-23T00:00:00.000Z', ms: 20_000 });
		await addReview(h.db, a, it[3], { at: '2026-11-22T23:59:59.999Z', ms: 1_000_000 });
		await addReview(h.db, a, it[4], { at: '2026-11-25T10:00:00.000Z', ms: null });
		// An amendment is not another review done.
		await addReview(h.db, a, it[0], { at: '2026-11-25T11:00:00.000Z', ms: 5_000, revision: 2 });
		// Skips: one this week, one a millisecond before it began.
		await h.db.insert(taskSkip).values([
			{ taskId: it[5].primaryTaskId, userId: a.id, createdAt: at('2026-11-24T08:00:00Z') },
			{ taskId: it[6].primaryTaskId, userId: a.id, createdAt: at('2026-11-22T23:59:59.999Z') }
		]);
		// Second looks at A's items: item 1 by B (counts), item 2 by A itself (does not), item 3
		// sampled but not reviewed yet (does not), item 4 by C last week (counts: all time).
		const s1 = await secondaryTask(h.db, it[0]);
		const s2 = await secondaryTask(h.db, it[1]);
		await secondaryTask(h.db, it[2]);
		const s4 = await secondaryTask(h.db, it[3]);
		await addReview(h.db, b, it[0], {
			at: '2026-11-25T12:00:00Z',
			ms: 40_000,
			round: 'secondary',
			taskId: s1
		});
		await addReview(h.db, a, it[1], {
			at: '2026-11-10T12:00:00Z',
			ms: 40_000,
			round: 'secondary',
			taskId: s2
		});
		await addReview(h.db, c, it[3], {
			at: '2026-11-20T12:00:00Z',
			ms: 40_000,
			round: 'secondary',
			taskId: s4
		});
		// B's own primary review today.
		await addReview(h.db, b, it[5], { at: '2026-11-25T13:00:00Z', ms: 60_000 });

		const { reviewers, physicians, windows } = await workload(h.db, NOW);
		expect(windows.isoWeek).toBe('2026-W48');
		expect(physicians).toEqual([]);
		const byId = new Map(reviewers.map((r) => [r.userId, r]));
		// The organiser neither holds the reviewer role nor has reviews: not listed.
		expect(reviewers).toHaveLength(3);
		expect(byId.get(a.id)).toMatchObject({
			today: 2, // midnight today and 10:00 today
			week: 4, // those two, the 24th 23:59:59.999 and the 23rd 00:00
			medianMs: 20_000, // of 10, 30 and 20 s (odd count); the untimed one left out
			untimed: 1,
			skips: 1,
			skippedShare: 1 / 5, // 1 skip ÷ (1 skip + 4 reviews)
			primaryItems: 5,
			doubleChecked: 2, // items 1 (by B) and 4 (by C)
			checkedShare: 2 / 5
		});
		expect(byId.get(b.id)).toMatchObject({
			today: 2,
			week: 2,
			medianMs: 50_000, // of 40 and 60 s (even count)
			untimed: 0,
			skips: 0,
			skippedShare: 0,
			primaryItems: 1,
			doubleChecked: 0
		});
		expect(byId.get(c.id)).toMatchObject({
			today: 0,
			week: 0,
			medianMs: null,
			untimed: 0,
			skippedShare: null,
			primaryItems: 0,
			doubleChecked: 0,
			checkedShare: null
		});
	});

	it('counts each physician’s rankings in the UTC day and ISO week, the median lease-to-submission time and lapsed leases', async () => {
		const [org] = await seedUsers(h.db, 1, ['organiser']);
		const [p1, p2] = await seedUsers(h.db, 2, ['physician']);
		const it = await items(h.db);
		const [study] = await h.db
			.insert(studyTable)
			.values({ name: 'Workload study', createdBy: org.id, state: 'open' })
			.returning();
		const questions = await h.db
			.insert(studyQuestion)
			.values(
				it.map((i) => ({
					studyId: study.id,
					itemId: i.itemId,
					itemVersionId: i.versionId,
					openSlots: 0
				}))
			)
			.returning();
		async function lease(
			who: User,
			q: number,
			leasedAt: string,
			end: { submitted: string } | { state: 'expired' | 'leased'; expires: string }
		) {
			const [row] = await h.db
				.insert(assignment)
				.values({
					studyQuestionId: questions[q].id,
					physicianId: who.id,
					publicId: randomId(),
					seed: 'seed',
					state: 'submitted' in end ? 'submitted' : end.state,
					createdAt: at(leasedAt),
					leaseExpiresAt: 'expires' in end ? at(end.expires) : null,
					submittedAt: 'submitted' in end ? at(end.submitted) : null
				})
				.returning();
			if ('submitted' in end)
				await h.db.insert(ranking).values({
					assignmentId: row.id,
					physicianId: who.id,
					idempotencyKey: randomId(),
					displayedOrder: [],
					submittedAt: at(end.submitted)
				});
		}
		await lease(p1, 0, '2026-11-25T09:00:00Z', { submitted: '2026-11-25T09:02:00Z' }); // 120 s
		await lease(p1, 1, '2026-11-24T23:59:00Z', { submitted: '2026-11-25T00:00:00Z' }); // 60 s, today
		await lease(p1, 2, '2026-11-23T00:00:00Z', { submitted: '2026-11-23T00:04:00Z' }); // 240 s
		await lease(p1, 3, '2026-11-22T23:00:00Z', { submitted: '2026-11-22T23:59:59.999Z' }); // last week
		await lease(p1, 4, '2026-11-24T09:30:00Z', {
			state: 'expired',
			expires: '2026-11-24T10:00:00Z'
		});
		await lease(p1, 5, '2026-11-22T09:30:00Z', {
			state: 'expired',
			expires: '2026-11-22T10:00:00Z'
		});
		await lease(p1, 6, '2026-11-25T14:50:00Z', {
			state: 'leased',
			expires: '2026-11-25T15:20:00Z'
		});
		await lease(p2, 0, '2026-11-25T10:00:00Z', { submitted: '2026-11-25T10:01:00Z' }); // 60 s
		await lease(p2, 1, '2026-11-25T10:00:00Z', { submitted: '2026-11-25T10:01:40Z' }); // 100 s
		// A ranking stamped before its lease (clock trouble): counted as done, left out of the median.
		await lease(p2, 2, '2026-11-25T12:00:00Z', { submitted: '2026-11-25T11:00:00Z' });

		const { physicians, reviewers } = await workload(h.db, NOW);
		expect(reviewers).toEqual([]);
		const byId = new Map(physicians.map((p) => [p.userId, p]));
		expect(physicians).toHaveLength(2);
		expect(byId.get(p1.id)).toMatchObject({
			today: 2,
			week: 3,
			medianMs: 120_000, // of 120, 60 and 240 s
			untimed: 0,
			lapsed: 1, // the lease that ran out on the 24th; the one in hand is not counted
			lapsedShare: 1 / 4
		});
		expect(byId.get(p2.id)).toMatchObject({
			today: 3,
			week: 3,
			medianMs: 80_000, // of 60 and 100 s (even count)
			untimed: 1,
			lapsed: 0,
			lapsedShare: 0
		});
	});
});
