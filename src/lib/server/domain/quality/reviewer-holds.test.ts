// Holds on a reviewer in the QA review queue: a pause or a retraining gives the pair (or hidden
// check) they hold back at once and refuses them work with the reason until it is lifted — a pause
// by an organiser only, a retraining by the reviewer once they have gone through the checks they
// missed (which the retraining lists with the gold labels beside theirs).
import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, reviewCheck, reviewGold, reviewTask, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { seedItems, reviewGoldFile, seedUsers } from '../../fixtures/review';
import type { Verdict } from '../../../constants';
import { claimWork, startWork, submitWork } from '../review';
import { holdRater, liftHold, listHolds, reviewerHold, reviewRetraining } from './holds';
import { importReviewGold, updateReviewerRound } from './review-round';

describeEachDb('holds on reviewers in the review queue', (h) => {
	let organiser: User;
	let ann: User;
	let physician: User;
	beforeEach(async () => {
		[organiser] = await seedUsers(h.db, 1, ['organiser']);
		[ann] = await seedUsers(h.db, 1, ['reviewer']);
		[physician] = await seedUsers(h.db, 1, ['physician']);
		await seedItems(h.db, 2);
	});

	it('a pause gives the held pair back, refuses work with its reason, and only an organiser lifts it', async () => {
		const lease = (await claimWork(h.db, ann.id))!;
		expect(lease.taskId).not.toBeNull();
		const hold = await holdRater(
			h.db,
			{ studyId: null, raterId: ann.id, kind: 'pause', reason: 'Too fast on Monday.' },
			organiser.id
		);
		const [task] = await h.db.select().from(reviewTask).where(eq(reviewTask.id, lease.taskId!));
		expect(task.state).toBe('pending');
		expect(task.leasedBy).toBeNull();
		await expect(claimWork(h.db, ann.id)).rejects.toMatchObject({
			code: 'forbidden',
			message: expect.stringContaining('paused')
		});
		expect(await reviewerHold(h.db, ann.id)).toMatchObject({ kind: 'pause' });
		// One at a time; only reviewers; the reviewer cannot end a pause.
		await expect(
			holdRater(
				h.db,
				{ studyId: null, raterId: ann.id, kind: 'retrain', reason: 'Again.' },
				organiser.id
			)
		).rejects.toMatchObject({ code: 'conflict' });
		await expect(
			holdRater(
				h.db,
				{ studyId: null, raterId: physician.id, kind: 'pause', reason: 'No.' },
				organiser.id
			)
		).rejects.toMatchObject({ code: 'invalid' });
		await expect(liftHold(h.db, hold.id, ann.id, { by: 'rater' })).rejects.toMatchObject({
			code: 'forbidden'
		});
		expect(await reviewRetraining(h.db, ann.id)).toBeNull();

		await liftHold(h.db, hold.id, organiser.id, { by: 'organiser', note: 'Talked it through.' });
		expect(await reviewerHold(h.db, ann.id)).toBeNull();
		expect(await claimWork(h.db, ann.id)).not.toBeNull();
		const holds = await listHolds(h.db, null);
		expect(holds).toHaveLength(1);
		expect(holds[0]).toMatchObject({ kind: 'pause', liftNote: 'Talked it through.' });
		const events = await h.db
			.select({ action: auditEvent.action })
			.from(auditEvent)
			.where(eq(auditEvent.objectType, 'rater_hold'));
		expect(events.map((e) => e.action).sort()).toEqual(['rater_hold.create', 'rater_hold.lift']);
	});

	it('a retraining lists the missed checks with the gold labels, and the reviewer lifts it', async () => {
		await importReviewGold(h.db, reviewGoldFile(6, 3000), organiser.id);
		await updateReviewerRound(
			h.db,
			{ required: false, passMark: 0.75, questionsPerAttempt: 2, maxAttempts: 2, checkEvery: 2 },
			organiser.id
		);
		// Work the queue: checks alternate right and wrong on the verdict.
		const answered: { checkId: number; right: boolean; gold: Verdict }[] = [];
		let { shown } = await startWork(h.db, ann.id);
		for (let i = 0; i < 8 && shown; i++) {
			let verdict: Verdict = 'correct';
			let relevance = 3;
			if (shown.lease.checkId !== null) {
				const [g] = await h.db
					.select({ verdict: reviewGold.verdict, relevance: reviewGold.relevance })
					.from(reviewCheck)
					.innerJoin(reviewGold, eq(reviewGold.id, reviewCheck.goldId))
					.where(eq(reviewCheck.id, shown.lease.checkId));
				const right = answered.length % 2 === 0;
				verdict = right ? g.verdict : g.verdict === 'correct' ? 'incorrect' : 'correct';
				relevance = g.relevance;
				answered.push({ checkId: shown.lease.checkId, right, gold: g.verdict });
			}
			shown = (
				await submitWork(h.db, ann.id, {
					publicId: shown.lease.publicId,
					key: shown.lease.leaseToken,
					verdict,
					relevance
				})
			).shown;
		}
		expect(answered.length).toBeGreaterThanOrEqual(2);
		// The next lease is a check or a live pair; either way the hold closes it.
		const held = shown!.lease;
		const hold = await holdRater(
			h.db,
			{ studyId: null, raterId: ann.id, kind: 'retrain', reason: 'Gold accuracy below the mark.' },
			organiser.id
		);
		if (held.checkId !== null) {
			const [c] = await h.db.select().from(reviewCheck).where(eq(reviewCheck.id, held.checkId));
			expect(c.state).toBe('released');
		} else {
			const [t] = await h.db.select().from(reviewTask).where(eq(reviewTask.id, held.taskId!));
			expect(t.state).toBe('pending');
		}
		await expect(claimWork(h.db, ann.id)).rejects.toMatchObject({
			code: 'forbidden',
			message: expect.stringContaining('Retraining')
		});

		const r = (await reviewRetraining(h.db, ann.id))!;
		expect(r.checks).toBe(answered.length);
		const wrong = answered.filter((a) => !a.right);
		expect(r.missed).toHaveLength(wrong.length);
		expect(r.missed.map((m) => m.gold.verdict)).toEqual(wrong.map((a) => a.gold));
		for (const m of r.missed) {
			expect(m.given.verdict).not.toBe(m.gold.verdict);
			expect(m.explanation).toMatch(/^Why pair \d+/);
			expect(m.version.question.length).toBeGreaterThan(0);
		}
		await liftHold(h.db, hold.id, ann.id, { by: 'rater' });
		expect(await reviewRetraining(h.db, ann.id)).toBeNull();
		expect(await claimWork(h.db, ann.id)).not.toBeNull();
	});
});
