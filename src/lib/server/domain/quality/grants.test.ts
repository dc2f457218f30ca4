import { and, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { assignment, auditEvent, qualificationGrant } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { goldStudies, submitGoldRanking } from '../../fixtures/gold';
import { insertUsers } from '../../fixtures/ranking';
import { claimNext } from '../studies/queue';
import { grantAttempts, listGrants } from './grants';
import { qualificationStatus, roundResults, scoreAttempts } from './qualification';

describeEachDb('attempts granted at a qualification round', (h) => {
	let organiser: string;
	let doctors: string[];
	let goldStudy: ReturnType<typeof goldStudies>;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		doctors = await insertUsers(h.db, 3, ['physician']);
		goldStudy = goldStudies(h.db, organiser);
	});

	/** The rater works one attempt of `perAttempt` questions, tagging m1 `tag`, and it is scored. */
	async function attempt(studyId: number, rater: string, perAttempt: number, tag: 'good' | 'bad') {
		for (let i = 0; i < perAttempt; i++) {
			const claim = await claimNext(h.db, studyId, rater);
			if (claim.status !== 'assigned') throw new Error(`expected a question, got ${claim.reason}`);
			await submitGoldRanking(h.db, claim.publicId, rater, tag);
		}
		return scoreAttempts(h.db, studyId, rater);
	}

	it('gives a rater who used every attempt another, on new questions, and records who and why', async () => {
		// Seven gold questions, two to an attempt, one attempt allowed: room for three more.
		const round = await goldStudy(7, 7, {
			purpose: 'qualification',
			passMark: 0.75,
			questionsPerAttempt: 2,
			maxAttempts: 1
		});
		const live = await goldStudy(7, 0, { qualificationStudyId: round.studyId });
		const [doctor, other] = doctors;
		await attempt(round.studyId, doctor, 2, 'bad');
		expect(await claimNext(h.db, round.studyId, doctor)).toEqual({
			status: 'none',
			reason: 'attempts_used'
		});

		const { grant, status } = await grantAttempts(
			h.db,
			{ studyId: round.studyId, raterId: doctor, attempts: 1, reason: 'Retrained on 3 March' },
			organiser
		);
		expect(status).toMatchObject({ maxAttempts: 2, granted: 1, attemptsLeft: 1, passed: false });
		// Only this rater: the other keeps the round's single attempt.
		expect(await qualificationStatus(h.db, round.studyId, other)).toMatchObject({
			maxAttempts: 1,
			granted: 0,
			attemptsLeft: 1
		});
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(
				and(eq(auditEvent.action, 'qualification.grant'), eq(auditEvent.objectId, String(grant.id)))
			);
		expect(event).toMatchObject({
			actorId: organiser,
			before: { maxAttempts: 1, attemptsLeft: 0 },
			after: { raterId: doctor, attempts: 1, reason: 'Retrained on 3 March', maxAttempts: 2 }
		});
		expect(await listGrants(h.db, round.studyId)).toMatchObject([
			{ raterId: doctor, attempts: 1, reason: 'Retrained on 3 March' }
		]);

		// The new attempt draws questions the rater has not had; passing it opens live work.
		const claim = await claimNext(h.db, round.studyId, doctor);
		if (claim.status !== 'assigned') throw new Error(`expected a question, got ${claim.reason}`);
		await submitGoldRanking(h.db, claim.publicId, doctor, 'good');
		const second = await claimNext(h.db, round.studyId, doctor);
		if (second.status !== 'assigned') throw new Error(`expected a question, got ${second.reason}`);
		await submitGoldRanking(h.db, second.publicId, doctor, 'good');
		const attempts = await scoreAttempts(h.db, round.studyId, doctor);
		expect(attempts.map((a) => [a.attempt, a.score, a.passed])).toEqual([
			[1, 0.5, false],
			[2, 1, true]
		]);
		const held = await h.db
			.select({ q: assignment.studyQuestionId })
			.from(assignment)
			.where(eq(assignment.physicianId, doctor));
		expect(new Set(held.map((x) => x.q)).size).toBe(4);
		expect(await claimNext(h.db, live.studyId, doctor)).toMatchObject({ status: 'assigned' });
		const results = await roundResults(h.db, round.studyId);
		expect(results.find((r) => r.raterId === doctor)).toMatchObject({
			passed: true,
			granted: 1,
			attemptsLeft: 0
		});

		// A rater who passed needs no grant.
		await expect(
			grantAttempts(
				h.db,
				{ studyId: round.studyId, raterId: doctor, attempts: 1, reason: 'again' },
				organiser
			)
		).rejects.toMatchObject({ code: 'conflict' });
	});

	it('refuses more attempts than the round has new questions for, and bad input, saving nothing', async () => {
		// Four gold questions, two to an attempt, one allowed: after it, room for one more attempt.
		const round = await goldStudy(4, 4, {
			purpose: 'qualification',
			passMark: 1,
			questionsPerAttempt: 2,
			maxAttempts: 1
		});
		const [doctor] = doctors;
		await attempt(round.studyId, doctor, 2, 'bad');
		const grant = (attempts: number, reason = 'Second chance') =>
			grantAttempts(h.db, { studyId: round.studyId, raterId: doctor, attempts, reason }, organiser);
		await expect(grant(2)).rejects.toMatchObject({
			code: 'invalid',
			field: 'attempts',
			message: expect.stringContaining('has not had 2 of the round')
		});
		await expect(grant(0)).rejects.toMatchObject({ code: 'invalid', field: 'attempts' });
		await expect(grant(11)).rejects.toMatchObject({ code: 'invalid', field: 'attempts' });
		await expect(grant(1, '   ')).rejects.toMatchObject({ code: 'invalid', field: 'reason' });
		await expect(
			grantAttempts(
				h.db,
				{ studyId: round.studyId, raterId: 'nobody', attempts: 1, reason: 'x' },
				organiser
			)
		).rejects.toMatchObject({ code: 'not_found' });
		const benchmark = await goldStudy(4, 0);
		await expect(
			grantAttempts(
				h.db,
				{ studyId: benchmark.studyId, raterId: doctor, attempts: 1, reason: 'x' },
				organiser
			)
		).rejects.toMatchObject({ code: 'invalid', field: 'studyId' });
		expect(await h.db.select().from(qualificationGrant)).toEqual([]);

		// One attempt fits; the rater uses it and fails again; nothing is left to grant.
		await grant(1);
		await attempt(round.studyId, doctor, 2, 'bad');
		expect(await claimNext(h.db, round.studyId, doctor)).toMatchObject({ reason: 'attempts_used' });
		await expect(grant(1)).rejects.toMatchObject({
			code: 'invalid',
			message: expect.stringContaining('has not had 0 of the round')
		});
	});
});
