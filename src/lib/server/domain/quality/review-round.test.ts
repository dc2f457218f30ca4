import { eq, sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { auditEvent, reviewGold, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { validRecord } from '../../fixtures/records';
import { seedItems, seedUsers } from '../../fixtures/review';
import { QA_TYPES, type Verdict } from '../../../constants';
import { claimNext } from '../review/queue';
import { listGrants } from './grants';
import {
	answerReviewGold,
	grantReviewerAttempts,
	importReviewGold,
	listReviewGold,
	reviewerRoundResults,
	reviewerRoundStatus,
	reviewGoldFeedback,
	updateReviewerRound
} from './review-round';

/** Six gold pairs, one of each of six types, with known verdicts and relevances. */
const GOLD = QA_TYPES.slice(0, 6).map((type, i) => ({
	item: validRecord(type, 900 + i),
	passage: `Source passage ${i}.`,
	verdict: (['correct', 'incorrect', 'cannot_tell'] as const)[i % 3],
	relevance: (i % 5) + 1,
	explanation: `Why pair ${i} is what it is.`
}));

describeEachDb('the reviewers’ qualification round', (h) => {
	let organiser: User;
	let ann: User;
	let ben: User;
	beforeEach(async () => {
		[organiser] = await seedUsers(h.db, 1, ['organiser']);
		[ann, ben] = await seedUsers(h.db, 2, ['reviewer']);
	});

	/** The gold of a pair, read back from the database. */
	async function goldOf(goldId: number) {
		const [g] = await h.db.select().from(reviewGold).where(eq(reviewGold.id, goldId));
		return g;
	}
	const otherVerdict = (v: Verdict): Verdict => (v === 'correct' ? 'incorrect' : 'correct');

	/**
	 * The reviewer answers the pair they are given: the verdict right or wrong, the relevance
	 * right or one off. Returns the pair's id.
	 */
	async function answer(reviewer: User, verdictRight: boolean, relevanceRight: boolean) {
		const status = await reviewerRoundStatus(h.db, reviewer.id);
		if (!status.next) throw new Error(`no pair: ${status.blocked}`);
		const g = await goldOf(status.next.goldId);
		await answerReviewGold(h.db, reviewer.id, {
			goldId: g.id,
			verdict: verdictRight ? g.verdict : otherVerdict(g.verdict),
			relevance: relevanceRight ? g.relevance : g.relevance === 5 ? 4 : g.relevance + 1,
			timeOnTaskMs: 40_000
		});
		return g.id;
	}

	it('admits a reviewer to live review only after a passed attempt, with feedback after each pair and attempts limited', async () => {
		await seedItems(h.db, 1);
		expect(await importReviewGold(h.db, JSON.stringify(GOLD), organiser.id)).toEqual({
			imported: 6
		});
		await updateReviewerRound(
			h.db,
			{ required: true, passMark: 0.75, questionsPerAttempt: 2, maxAttempts: 2 },
			organiser.id
		);
		// The queue refuses with the reason, and the database function itself gives nothing.
		await expect(claimNext(h.db, ann.id)).rejects.toMatchObject({ code: 'forbidden' });
		const raw = rowsOf(
			await h.db.execute(sql`select * from review_claim_next(${ann.id}, now(), 'tok', 'pub', true)`)
		);
		expect(raw).toEqual([]);

		// Attempt 1: verdicts right, relevances wrong — 2 of 4 labels, below 75 %.
		const first = await answer(ann, true, false);
		const feedback = (await reviewGoldFeedback(h.db, ann.id, first))!;
		const gold = await goldOf(first);
		expect(feedback).toMatchObject({
			given: { verdict: gold.verdict },
			gold: { verdict: gold.verdict, relevance: gold.relevance },
			explanation: gold.explanation,
			attempt: 1,
			finished: null
		});
		expect(feedback.given.relevance).not.toBe(gold.relevance);
		// Sending the same answer again changes nothing; a pair not given is refused.
		await answerReviewGold(h.db, ann.id, { goldId: first, verdict: 'correct', relevance: 1 });
		expect((await reviewGoldFeedback(h.db, ann.id, first))!.given).toEqual(feedback.given);
		const next = (await reviewerRoundStatus(h.db, ann.id)).next!.goldId;
		const other = (await listReviewGold(h.db)).find((g) => g.id !== first && g.id !== next)!;
		await expect(
			answerReviewGold(h.db, ann.id, { goldId: other.id, verdict: 'correct', relevance: 3 })
		).rejects.toMatchObject({ code: 'conflict' });
		// Another reviewer's feedback on a pair is not theirs to read.
		expect(await reviewGoldFeedback(h.db, ben.id, first)).toBeNull();

		const second = await answer(ann, true, false);
		expect((await reviewGoldFeedback(h.db, ann.id, second))!.finished).toMatchObject({
			attempt: 1,
			score: 0.5,
			questions: 2,
			passed: false
		});
		let status = await reviewerRoundStatus(h.db, ann.id);
		expect(status).toMatchObject({ passed: false, attemptsLeft: 1, inAttempt: 0, blocked: null });
		await expect(claimNext(h.db, ann.id)).rejects.toMatchObject({ code: 'forbidden' });

		// Attempt 2: 3 of 4 labels, exactly the pass mark; on pairs not asked before.
		const third = await answer(ann, true, true);
		const fourth = await answer(ann, true, false);
		expect(new Set([first, second, third, fourth]).size).toBe(4);
		status = await reviewerRoundStatus(h.db, ann.id);
		expect(status.attempts.map((a) => [a.attempt, a.score, a.passed])).toEqual([
			[1, 0.5, false],
			[2, 0.75, true]
		]);
		expect(status).toMatchObject({ passed: true, attemptsLeft: 0, next: null, blocked: 'passed' });
		expect(await claimNext(h.db, ann.id)).not.toBeNull();
		await expect(
			answerReviewGold(h.db, ann.id, { goldId: first, verdict: 'correct', relevance: 3 })
		).resolves.toEqual({ finished: null });

		// Ben fails both attempts and has none left.
		for (let i = 0; i < 4; i++) await answer(ben, false, false);
		status = await reviewerRoundStatus(h.db, ben.id);
		expect(status).toMatchObject({ passed: false, attemptsLeft: 0, blocked: 'attempts_used' });
		await expect(claimNext(h.db, ben.id)).rejects.toMatchObject({ code: 'forbidden' });

		const results = await reviewerRoundResults(h.db);
		expect(results.map((r) => [r.raterId, r.submitted, r.passed, r.attemptsLeft]).sort()).toEqual(
			[
				[ann.id, 4, true, 0],
				[ben.id, 4, false, 0]
			].sort()
		);
		const attempts = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'reviewer_round.attempt'));
		expect(attempts).toHaveLength(4);

		// Not required: everyone reviews again.
		await updateReviewerRound(
			h.db,
			{ required: false, passMark: 0.75, questionsPerAttempt: 2, maxAttempts: 2 },
			organiser.id
		);
		expect(await claimNext(h.db, ben.id)).not.toBeNull();
	});

	it('refuses a gold file with problems, listing each and saving nothing, and a round too small to require', async () => {
		await expect(
			updateReviewerRound(
				h.db,
				{ required: true, passMark: 0.8, questionsPerAttempt: 2, maxAttempts: 1 },
				organiser.id
			)
		).rejects.toMatchObject({ code: 'invalid', field: 'required' });
		const bad = [
			{ ...GOLD[0], verdict: 'maybe' },
			{ ...GOLD[1], relevance: 7 },
			{ ...GOLD[2], explanation: '   ' },
			{ ...GOLD[3], item: { question: 'No type or answer' } },
			GOLD[4],
			GOLD[4],
			'not an object'
		];
		const refused = await importReviewGold(h.db, JSON.stringify(bad), organiser.id).catch(
			(e: unknown) => e
		);
		expect(refused).toMatchObject({ code: 'invalid' });
		const problems = (refused as { problems: string[] }).problems;
		expect(problems).toEqual([
			expect.stringMatching(/^Record 1: verdict must be one of correct, incorrect, cannot_tell/),
			expect.stringMatching(/^Record 2: relevance must be a whole number from 1 to 5/),
			expect.stringMatching(/^Record 3: explanation is empty/),
			expect.stringMatching(/^Record 4: item\.type is missing/),
			expect.stringMatching(/^Record 6: item repeats record 5/),
			expect.stringMatching(/^Record 7 must be a JSON object/)
		]);
		await expect(importReviewGold(h.db, '[{"item":', organiser.id)).rejects.toMatchObject({
			code: 'invalid'
		});
		await expect(importReviewGold(h.db, '{}', organiser.id)).rejects.toMatchObject({
			code: 'invalid'
		});
		// Hostile input: nesting deep enough to exhaust a recursive check, and NUL in the text.
		const deep = `[{"item": ${'['.repeat(200_000)}${']'.repeat(200_000)}}]`;
		await expect(importReviewGold(h.db, deep, organiser.id)).rejects.toMatchObject({
			code: 'invalid',
			message: expect.stringMatching(/nests deeper than/)
		});
		const nul = JSON.stringify([{ ...GOLD[0], explanation: 'Because\u0000' }]);
		await expect(importReviewGold(h.db, nul, organiser.id)).rejects.toMatchObject({
			problems: [expect.stringMatching(/^Record 1: passage or explanation contains a NUL/)]
		});
		expect(await listReviewGold(h.db)).toEqual([]);

		await importReviewGold(h.db, JSON.stringify(GOLD.slice(0, 2)), organiser.id);
		await expect(
			importReviewGold(h.db, JSON.stringify(GOLD.slice(1, 3)), organiser.id)
		).rejects.toMatchObject({
			problems: [expect.stringMatching(/^Record 1: item is already a gold pair of the round/)]
		});
		expect(await listReviewGold(h.db)).toHaveLength(2);
		await updateReviewerRound(
			h.db,
			{ required: true, passMark: 0.8, questionsPerAttempt: 2, maxAttempts: 1 },
			organiser.id
		);
	});

	it('gives a reviewer who used every attempt another, on pairs they have not answered, and no more than the round holds', async () => {
		await seedItems(h.db, 1);
		await importReviewGold(h.db, JSON.stringify(GOLD.slice(0, 5)), organiser.id);
		await updateReviewerRound(
			h.db,
			{ required: true, passMark: 1, questionsPerAttempt: 2, maxAttempts: 1 },
			organiser.id
		);
		for (let i = 0; i < 2; i++) await answer(ann, false, false);
		expect(await reviewerRoundStatus(h.db, ann.id)).toMatchObject({ blocked: 'attempts_used' });
		// Three pairs left: room for one attempt of two, not two.
		const grant = (attempts: number) =>
			grantReviewerAttempts(
				h.db,
				{ raterId: ann.id, attempts, reason: 'Went through the relevance anchors again' },
				organiser.id
			);
		await expect(grant(2)).rejects.toMatchObject({
			code: 'invalid',
			field: 'attempts',
			message: expect.stringContaining('has not answered 3 of the round')
		});
		const status = await grant(1);
		expect(status).toMatchObject({ maxAttempts: 2, granted: 1, attemptsLeft: 1, blocked: null });
		// Ben keeps the round's single attempt.
		expect(await reviewerRoundStatus(h.db, ben.id)).toMatchObject({ maxAttempts: 1, granted: 0 });
		expect(await listGrants(h.db, null)).toMatchObject([
			{ raterId: ann.id, attempts: 1, reason: 'Went through the relevance anchors again' }
		]);
		await answer(ann, true, true);
		await answer(ann, true, true);
		expect(await reviewerRoundStatus(h.db, ann.id)).toMatchObject({ passed: true, granted: 1 });
		expect(await claimNext(h.db, ann.id)).not.toBeNull();
		await expect(grant(1)).rejects.toMatchObject({ code: 'conflict' });
		const results = await reviewerRoundResults(h.db);
		expect(results.find((r) => r.raterId === ann.id)).toMatchObject({ granted: 1, passed: true });
	});
});
