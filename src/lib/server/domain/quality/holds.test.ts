import { and, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { assignment, auditEvent } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { GOLD_MODELS, goldStudies, submitGoldRanking } from '../../fixtures/gold';
import { insertUsers } from '../../fixtures/ranking';
import { claimNext } from '../studies/queue';
import { holdRater, liftHold, listHolds, retraining, standingHolds } from './holds';

describeEachDb('holds on a rater: pause and retraining', (h) => {
	let organiser: string;
	let doctors: string[];
	let goldStudy: ReturnType<typeof goldStudies>;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		// Enough physicians for any k below (a study refuses a k no account can fill).
		doctors = await insertUsers(h.db, 20, ['physician']);
		goldStudy = goldStudies(h.db, organiser);
	});

	const submit = (publicId: string, rater: string, m1Tag: 'good' | 'okay' | 'bad') =>
		submitGoldRanking(h.db, publicId, rater, m1Tag);

	const refusal = (e: unknown) => (e instanceof DomainError ? e.code : String(e));

	it('a pause gives the held question back at once, refuses new work, and ends only when an organiser lifts it', async () => {
		const { studyId } = await goldStudy(4, 0, {}, 1);
		const [doctor, other] = doctors;
		const first = await claimNext(h.db, studyId, doctor);
		if (first.status !== 'assigned') throw new Error('expected a question');
		// k = 1: while the doctor holds the question, the other physician cannot have it.
		const [held] = await h.db
			.select()
			.from(assignment)
			.where(eq(assignment.publicId, first.publicId));

		const hold = await holdRater(
			h.db,
			{ studyId, raterId: doctor, kind: 'pause', reason: 'Implausibly fast judgements' },
			organiser
		);
		expect(await claimNext(h.db, studyId, doctor)).toEqual({ status: 'none', reason: 'paused' });
		// The question the doctor held is free again: the other physician's claims reach it.
		const taken: number[] = [];
		for (let i = 0; i < 4; i++) {
			const c = await claimNext(h.db, studyId, other);
			if (c.status !== 'assigned') break;
			const [a] = await h.db.select().from(assignment).where(eq(assignment.publicId, c.publicId));
			taken.push(a.studyQuestionId);
			await submit(c.publicId, other, 'good');
		}
		expect(taken).toContain(held.studyQuestionId);

		// One hold at a time; the rater cannot end a pause themselves.
		await expect(
			holdRater(h.db, { studyId, raterId: doctor, kind: 'retrain', reason: 'x' }, organiser).catch(
				refusal
			)
		).resolves.toBe('conflict');
		await expect(liftHold(h.db, hold.id, doctor, { by: 'rater' }).catch(refusal)).resolves.toBe(
			'forbidden'
		);
		expect((await standingHolds(h.db, doctor)).get(studyId)?.kind).toBe('pause');

		await liftHold(h.db, hold.id, organiser, { by: 'organiser', note: 'Talked it through' });
		expect(await standingHolds(h.db, doctor)).toEqual(new Map());
		const [listed] = await listHolds(h.db, studyId);
		expect(listed).toMatchObject({ kind: 'pause', liftNote: 'Talked it through' });
		expect(listed.liftedAt).toBeInstanceOf(Date);
		await expect(
			liftHold(h.db, hold.id, organiser, { by: 'organiser' }).catch(refusal)
		).resolves.toBe('conflict');
		const actions = await h.db
			.select({ action: auditEvent.action })
			.from(auditEvent)
			.where(
				and(eq(auditEvent.objectType, 'rater_hold'), eq(auditEvent.objectId, String(hold.id)))
			);
		expect(actions.map((a) => a.action).sort()).toEqual(['rater_hold.create', 'rater_hold.lift']);
		// Lifted, the study has nothing left for the doctor only because the other physician took
		// every question (k = 1); the refusal is no longer the pause.
		expect(await claimNext(h.db, studyId, doctor)).toEqual({ status: 'none', reason: 'exhausted' });
	});

	it('retraining shows the rater each gold check they missed, by letter, and they resume once through it', async () => {
		const { studyId } = await goldStudy(8, 2, { goldEvery: 3 }, 3);
		const [doctor] = doctors;
		// The doctor tags m1 okay everywhere: each gold check is half matched (gold: m1 good, m2 bad).
		for (let i = 0; i < 4; i++) {
			const c = await claimNext(h.db, studyId, doctor);
			if (c.status !== 'assigned') break;
			await submit(c.publicId, doctor, 'okay');
		}
		expect(await retraining(h.db, studyId, doctor)).toBeNull();
		const hold = await holdRater(
			h.db,
			{ studyId, raterId: doctor, kind: 'retrain', reason: 'Gold accuracy 50 %' },
			organiser
		);
		expect(await claimNext(h.db, studyId, doctor)).toEqual({
			status: 'none',
			reason: 'retraining'
		});
		const r = (await retraining(h.db, studyId, doctor))!;
		expect(r.reason).toBe('Gold accuracy 50 %');
		expect(r.checks).toBeGreaterThan(0);
		expect(r.missed).toHaveLength(r.checks);
		for (const m of r.missed) {
			expect(m).toMatchObject({ matched: 1, total: 2 });
			expect(m.explanation).toMatch(/^Why \d+$/);
			expect(m.candidates.length).toBe(GOLD_MODELS.length + 1);
			// Answers by the letter the rater saw; no model's name anywhere in what the page gets.
			for (const line of m.lines) expect(line.key).toMatch(/^Response [A-D]\/tag$/);
			expect(JSON.stringify(m)).not.toMatch(/\bm[123]\b|reference/);
		}
		// Another rater cannot end it; the rater can.
		await expect(liftHold(h.db, hold.id, doctors[1], { by: 'rater' }).catch(refusal)).resolves.toBe(
			'not_found'
		);
		await liftHold(h.db, hold.id, doctor, { by: 'rater' });
		expect(await retraining(h.db, studyId, doctor)).toBeNull();
		expect((await claimNext(h.db, studyId, doctor)).status).toBe('assigned');
	});

	it('refuses a hold without a reason, on a qualification round, or on an unknown rater', async () => {
		const { studyId } = await goldStudy(4, 0, {}, 1);
		const round = await goldStudy(4, 4, { purpose: 'qualification' }, 1);
		const [doctor] = doctors;
		await expect(
			holdRater(h.db, { studyId, raterId: doctor, kind: 'pause', reason: '  ' }, organiser).catch(
				refusal
			)
		).resolves.toBe('invalid');
		await expect(
			holdRater(
				h.db,
				{ studyId: round.studyId, raterId: doctor, kind: 'pause', reason: 'x' },
				organiser
			).catch(refusal)
		).resolves.toBe('invalid');
		await expect(
			holdRater(h.db, { studyId, raterId: 'nobody', kind: 'pause', reason: 'x' }, organiser).catch(
				refusal
			)
		).resolves.toBe('not_found');
		await expect(
			holdRater(
				h.db,
				{ studyId, raterId: doctor, kind: 'sleep' as never, reason: 'x' },
				organiser
			).catch(refusal)
		).resolves.toBe('invalid');
		expect(await listHolds(h.db, studyId)).toEqual([]);
	});
});
