// Hidden gold checks in the live review queue: served at exactly the set rate (one in every block
// of N claims, over 2,000 claims), only while live work is left, never the same pair twice nor a
// pair of the reviewer's qualification round; shown in the same shape as a live item under the
// round and lease length of the task it stood in for; answered, skipped and renewed like one; never
// a review, an outcome or a figure; scored on whole labels with the flag below the pass mark.
import { count, eq, sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { rowsOf, type Db } from '../../db/client';
import { qaItem, review, reviewCheck, reviewGold, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, seedPassages, reviewGoldFile, seedUsers } from '../../fixtures/review';
import type { Verdict } from '../../../constants';
import { reviewJudgements } from '../agreement/extract';
import {
	importReviewGold,
	reviewCheckResults,
	reviewerRoundStatus,
	updateReviewerRound
} from '../quality/review-round';
import { leasedWork, renewWork, returnWork, startWork, submitWork, type ShownWork } from './checks';
import { claimNext } from './queue';
import { reviewerWorkday } from './workday';

/** The keys and value types of a value, all the way down, values dropped. */
function shape(value: unknown): unknown {
	if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
	if (value instanceof Date) return 'date';
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value)
				.filter(([k]) => !['taskId', 'checkId', 'itemId'].includes(k))
				.sort(([a], [b]) => (a < b ? -1 : 1))
				.map(([k, v]) => [k, shape(v)])
		);
	return value === null ? 'null' : typeof value;
}

async function goldOf(db: Db, checkId: number) {
	const [g] = await db
		.select({ verdict: reviewGold.verdict, relevance: reviewGold.relevance })
		.from(reviewCheck)
		.innerJoin(reviewGold, eq(reviewGold.id, reviewCheck.goldId))
		.where(eq(reviewCheck.id, checkId));
	return g;
}
const other = (v: Verdict): Verdict => (v === 'correct' ? 'incorrect' : 'correct');

describeEachDb('hidden gold checks in the review queue', (h) => {
	let organiser: User;
	let ann: User;
	let ben: User;
	beforeEach(async () => {
		[organiser] = await seedUsers(h.db, 1, ['organiser']);
		[ann, ben] = await seedUsers(h.db, 2, ['reviewer']);
	});

	async function turnOn(every: number, pairs: number) {
		await importReviewGold(h.db, reviewGoldFile(pairs), organiser.id);
		await updateReviewerRound(
			h.db,
			{
				required: false,
				passMark: 0.75,
				questionsPerAttempt: 2,
				maxAttempts: 2,
				checkEvery: every
			},
			organiser.id
		);
	}

	/** Answers the work on screen: a check right or wrong on both labels, a live item "correct, 4". */
	async function answer(shown: ShownWork, right = true) {
		let verdict: Verdict = 'correct';
		let relevance = 4;
		if (shown.lease.checkId !== null) {
			const g = await goldOf(h.db, shown.lease.checkId);
			verdict = right ? g.verdict : other(g.verdict);
			relevance = right ? g.relevance : g.relevance === 5 ? 4 : g.relevance + 1;
		}
		return submitWork(h.db, ann.id, {
			publicId: shown.lease.publicId,
			key: shown.lease.leaseToken,
			verdict,
			relevance
		});
	}

	it('serves exactly one check in every block of N claims over 2,000 claims, at drawn places', async () => {
		await seedItems(h.db, 1);
		await turnOn(20, 100);
		const checks: number[] = [];
		for (let claim = 0; claim < 2000; claim++) {
			const { shown } = await startWork(h.db, ann.id);
			expect(shown).not.toBeNull();
			if (shown!.lease.checkId !== null) {
				checks.push(claim);
				await answer(shown!);
			} else
				await returnWork(h.db, ann.id, {
					publicId: shown!.lease.publicId,
					token: shown!.lease.leaseToken,
					skip: false
				});
		}
		// 100 of 2,000 claims: 5.00 %, within a point of the rate (one in 20), one per block.
		expect(checks.length).toBe(100);
		expect(Math.abs(checks.length / 2000 - 1 / 20)).toBeLessThanOrEqual(0.01);
		const blocks = checks.map((c) => Math.floor(c / 20));
		expect(new Set(blocks).size).toBe(100);
		// The place in the block is drawn: not always the same.
		expect(new Set(checks.map((c) => c % 20)).size).toBeGreaterThan(5);
		// Never the same pair twice.
		const pairs = await h.db
			.select({ gold: reviewCheck.goldId })
			.from(reviewCheck)
			.where(eq(reviewCheck.reviewerId, ann.id));
		expect(new Set(pairs.map((p) => p.gold)).size).toBe(100);
		// Out of pairs, the queue goes on with live work only.
		for (let claim = 0; claim < 40; claim++) {
			const { shown } = await startWork(h.db, ann.id);
			expect(shown!.lease.checkId).toBeNull();
			await returnWork(h.db, ann.id, {
				publicId: shown!.lease.publicId,
				token: shown!.lease.leaseToken,
				skip: false
			});
		}
	}, 180_000); // 2,000 claims and their answers, one at a time: under a minute on an idle machine

	it('shows a check in the shape of a live item, with the round and lease of the task it stood in for', async () => {
		await seedItems(h.db, 2);
		// The gold pairs' paragraphs have imported passages, as the live items' have.
		await seedPassages(h.db, 10, 1000);
		await turnOn(2, 10);
		const seen: ShownWork[] = [];
		let { shown } = await startWork(h.db, ann.id);
		while (shown && seen.length < 12) {
			const again = await leasedWork(h.db, ann.id, shown.lease.publicId);
			expect(again).toEqual(shown);
			seen.push(shown);
			shown = (await answer(shown)).shown;
		}
		const checks = seen.filter((s) => s.lease.checkId !== null);
		const live = seen.filter((s) => s.lease.checkId === null);
		expect(checks.length).toBe(6);
		// The version's fields take the types of the QA type; its keys are the same for every type.
		const outline = (s: ShownWork) =>
			JSON.stringify(shape({ ...s, version: Object.keys(s.version).sort().join() }));
		const liveShapes = new Set(live.map(outline));
		expect(liveShapes.size).toBe(1);
		for (const c of checks) {
			expect([...liveShapes]).toContain(outline(c));
			expect(c.lease.publicId).toMatch(/^[a-z2-9]{24}$/);
			// The dataset's lease length.
			expect(+c.lease.leaseExpiresAt - +c.lease.leasedAt).toBe(
				+live[0].lease.leaseExpiresAt - +live[0].lease.leasedAt
			);
		}
		for (const l of live) expect(l.lease.publicId).toMatch(/^[a-z2-9]{24}$/);
		// Another reviewer cannot open, answer, renew or skip ann's check.
		const check = checks.at(-1)!;
		expect(await leasedWork(h.db, ben.id, check.lease.publicId)).toBeNull();
		await expect(
			renewWork(h.db, ben.id, { publicId: check.lease.publicId, token: check.lease.leaseToken })
		).rejects.toThrow(/no longer leased/);
	});

	it('counts the checks to come into the items left: the count falls by one for every item shown', async () => {
		await seedItems(h.db, 2);
		await turnOn(3, 10);
		const left: number[] = [];
		let checks = 0;
		let { shown } = await startWork(h.db, ann.id);
		while (shown) {
			left.push((await reviewerWorkday(h.db, ann.id, undefined)).left);
			if (shown.lease.checkId !== null) checks++;
			shown = (await answer(shown)).shown;
		}
		expect(checks).toBeGreaterThan(2);
		// Fourteen live items and the checks among them, counted down to none left.
		expect(left.length).toBe(14 + checks);
		expect(left).toEqual(left.map((_, i) => left.length - 1 - i));
	});

	it('never becomes a review: items, outcomes and figures are untouched', async () => {
		await seedItems(h.db, 1);
		const datasetId = (await h.db.select({ d: qaItem.datasetId }).from(qaItem).limit(1))[0].d;
		await turnOn(2, 20);
		let { shown } = await startWork(h.db, ann.id);
		let answered = 0;
		while (shown) {
			if (shown.lease.checkId !== null) answered++;
			shown = (await answer(shown)).shown;
		}
		expect(answered).toBeGreaterThan(0);
		// Seven live items, seven reviews; the checks are nowhere among them.
		const [{ reviews }] = await h.db.select({ reviews: count() }).from(review);
		expect(reviews).toBe(7);
		expect(await reviewJudgements(h.db, datasetId)).toHaveLength(7);
		const statuses = await h.db.select({ s: qaItem.status }).from(qaItem);
		expect(statuses.every((x) => x.s !== 'awaiting_primary')).toBe(true);
		// The screen's counters count every item shown.
		const [{ n }] = rowsOf<{ n: number }>(
			await h.db.execute(sql`select count(*)::int as n from review_check where state = 'done'`)
		);
		expect(Number(n)).toBe(answered);
	});

	it('scores whole labels and flags a reviewer below the pass mark', async () => {
		await seedItems(h.db, 2);
		await turnOn(2, 10);
		let { shown } = await startWork(h.db, ann.id);
		let checks = 0;
		while (shown && checks < 4) {
			const isCheck = shown.lease.checkId !== null;
			// The first check right, the others wrong on both labels.
			shown = (await answer(shown, !isCheck || checks === 0)).shown;
			if (isCheck) checks++;
		}
		const [row] = await reviewCheckResults(h.db);
		expect(row).toMatchObject({ raterId: ann.id, checks: 4, matched: 2, total: 8, flagged: true });
		expect(row.accuracy).toBe(0.25);
		expect(row.interval[0]).toBeLessThan(0.25);
		expect(row.interval[1]).toBeGreaterThan(0.25);
	});

	it('answers a check once, like a review: a retry is a duplicate, a stale key changes nothing', async () => {
		await seedItems(h.db, 2);
		await turnOn(2, 10);
		let { shown } = await startWork(h.db, ann.id);
		while (shown && shown.lease.checkId === null) shown = (await answer(shown)).shown;
		const check = shown!;
		const first = await answer(check);
		expect(first.duplicate).toBe(false);
		const retry = await answer(check);
		expect(retry.duplicate).toBe(true);
		await expect(
			submitWork(h.db, ann.id, {
				publicId: check.lease.publicId,
				key: 'not-the-lease-key',
				verdict: 'correct',
				relevance: 1
			})
		).rejects.toThrow(/no longer leased/);
		const [{ n }] = await h.db
			.select({ n: count() })
			.from(reviewCheck)
			.where(eq(reviewCheck.state, 'done'));
		expect(n).toBe(1);
	});

	it('stays off until set, and the domain claim used by imports and tools never serves one', async () => {
		await seedItems(h.db, 1);
		await importReviewGold(h.db, reviewGoldFile(10), organiser.id);
		for (let i = 0; i < 6; i++) {
			const { shown } = await startWork(h.db, ann.id);
			expect(shown!.lease.checkId).toBeNull();
			await answer(shown!);
		}
		await updateReviewerRound(
			h.db,
			{ required: false, passMark: 0.75, questionsPerAttempt: 2, maxAttempts: 2, checkEvery: 2 },
			organiser.id
		);
		const lease = await claimNext(h.db, ben.id);
		expect(lease?.taskId).toBeGreaterThan(0);
		const [{ n }] = await h.db.select({ n: count() }).from(reviewCheck);
		expect(n).toBe(0);
	});

	it('never asks a pair in the qualification round that the reviewer met as a check', async () => {
		await seedItems(h.db, 1);
		await turnOn(2, 4);
		const met = new Set<number>();
		let { shown } = await startWork(h.db, ann.id);
		while (shown && met.size < 2) {
			if (shown.lease.checkId !== null)
				met.add(
					(
						await h.db
							.select({ g: reviewCheck.goldId })
							.from(reviewCheck)
							.where(eq(reviewCheck.id, shown.lease.checkId))
					)[0].g
				);
			shown = (await answer(shown)).shown;
		}
		expect(met.size).toBe(2);
		const status = await reviewerRoundStatus(h.db, ann.id);
		expect(status.next).not.toBeNull();
		expect(met.has(status.next!.goldId)).toBe(false);
	});
});
