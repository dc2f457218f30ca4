import { and, eq, sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { assignment, studyQuestion } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { goldStudies, submitGoldRanking } from '../../fixtures/gold';
import { insertUsers } from '../../fixtures/ranking';
import { claimNext, getAssignmentView } from '../studies/queue';
import { importGold } from './gold';
import {
	assignmentFeedback,
	goldAccuracy,
	qualificationStatus,
	scoreAttempts
} from './qualification';
const LEASE = 30 * 60_000;

describeEachDb('gold questions and qualification rounds', (h, kind) => {
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

	it('serves one hidden gold check in every block of N claims, at an unpredictable place', async () => {
		// 2,000 claims (Postgres; 400 on the embedded database, which is slower): each rater claims
		// until the study runs out, every lease left to expire so the next claim takes a new one.
		const raters = kind === 'postgres' ? 20 : 4;
		const live = 95;
		const { studyId, goldIds } = await goldStudy(live + 10, 10, { goldEvery: 20 }, raters);
		let gold = 0;
		let claims = 0;
		const places = new Set<number>();
		const perRater: number[] = [];
		for (const d of doctors.slice(0, raters)) {
			let mine = 0;
			let now = Date.parse('2026-01-05T09:00:00Z');
			for (let i = 0; i < 100; i++) {
				const claim = await claimNext(h.db, studyId, d, new Date(now));
				now += LEASE + 1000;
				expect(claim.status).toBe('assigned');
				if (claim.status !== 'assigned') break;
				claims++;
				const [a] = await h.db
					.select()
					.from(assignment)
					.where(eq(assignment.publicId, claim.publicId));
				if (goldIds.has(a.studyQuestionId)) {
					gold++;
					mine++;
					places.add(i % 20);
				}
			}
			perRater.push(mine);
		}
		expect(claims).toBe(raters * 100);
		const rate = gold / claims;
		expect(Math.abs(rate - 0.05)).toBeLessThanOrEqual(0.01);
		// Exactly one in every block of 20: each rater met 5 gold checks in 100 claims.
		expect(perRater).toEqual(doctors.slice(0, raters).map(() => 5));
		// The place in the block changes from block to block and rater to rater.
		expect(places.size).toBeGreaterThan(2);
	}, 600_000);

	it('shows a gold question exactly as an ordinary one and counts its accuracy', async () => {
		const { studyId, goldIds } = await goldStudy(6, 2, { goldEvery: 2 }, 3);
		const [doctor] = doctors;
		const views = [];
		for (let i = 0; i < 6; i++) {
			const claim = await claimNext(h.db, studyId, doctor);
			if (claim.status !== 'assigned') break;
			const view = (await getAssignmentView(h.db, claim.publicId, doctor))!;
			const [a] = await h.db
				.select()
				.from(assignment)
				.where(eq(assignment.publicId, claim.publicId));
			views.push({ gold: goldIds.has(a.studyQuestionId), view });
			await submit(claim.publicId, doctor, goldIds.has(a.studyQuestionId) ? 'okay' : 'good');
		}
		expect(views.filter((v) => v.gold)).toHaveLength(2);
		// The same keys, all the way down, for gold and ordinary questions.
		const shape = (v: unknown): unknown =>
			Array.isArray(v)
				? v.map(shape)
				: v && typeof v === 'object' && !(v instanceof Date)
					? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
					: typeof v;
		const shapes = new Set(views.map((v) => JSON.stringify(shape({ ...v.view, progress: null }))));
		expect(shapes.size).toBe(1);
		// m1 tagged okay (gold: good), m2 bad (gold: bad): half the gold labels matched.
		const [acc] = await goldAccuracy(h.db, studyId);
		expect(acc).toMatchObject({ raterId: doctor, checks: 2, matched: 2, total: 4, accuracy: 0.5 });
		expect(acc.flagged).toBe(true);
		expect(acc.interval[0]).toBeLessThan(0.5);
		expect(acc.interval[1]).toBeGreaterThan(0.5);
		// A hidden check never shows its gold to the rater.
		const goldView = views.find((v) => v.gold)!;
		expect(await assignmentFeedback(h.db, goldView.view.assignment.publicId, doctor)).toBeNull();
	});

	it('admits to live work only after a passed attempt, with attempts limited and recorded', async () => {
		const round = await goldStudy(6, 6, {
			purpose: 'qualification',
			passMark: 0.75,
			questionsPerAttempt: 2,
			maxAttempts: 2
		});
		const live = await goldStudy(6, 0, { qualificationStudyId: round.studyId });
		const [doctor, other] = doctors;
		expect(await claimNext(h.db, live.studyId, doctor)).toEqual({
			status: 'none',
			reason: 'not_qualified'
		});

		// Attempt 1: m1 tagged okay on both questions — 2 of 4 gold labels, below 0.75.
		for (let i = 0; i < 2; i++) {
			const claim = await claimNext(h.db, round.studyId, doctor);
			if (claim.status !== 'assigned') throw new Error(`expected a question, got ${claim.reason}`);
			await submit(claim.publicId, doctor, 'okay');
			const feedback = (await assignmentFeedback(h.db, claim.publicId, doctor))!;
			// Answers are named by the letter the rater saw, never by model.
			for (const line of feedback.lines) expect(line.key).toMatch(/^Response [A-D]\/tag$/);
			expect(
				feedback.lines
					.map(({ gold, given, matched }) => ({ gold, given, matched }))
					.sort((a, b) => a.gold.localeCompare(b.gold))
			).toEqual([
				{ gold: 'bad', given: 'bad', matched: true },
				{ gold: 'good', given: 'okay', matched: false }
			]);
			expect(feedback.explanation).toMatch(/^Why /);
		}
		// Showing the last question's gold scored the finished attempt.
		const afterFirst = (await qualificationStatus(h.db, round.studyId, doctor))!;
		expect(afterFirst.attempts.map((a) => [a.attempt, a.score, a.passed])).toEqual([
			[1, 0.5, false]
		]);
		expect(afterFirst.attemptsLeft).toBe(1);
		expect(await claimNext(h.db, live.studyId, doctor)).toMatchObject({ reason: 'not_qualified' });

		// Attempt 2: all right.
		for (let i = 0; i < 2; i++) {
			const claim = await claimNext(h.db, round.studyId, doctor);
			if (claim.status !== 'assigned') throw new Error(`expected a question, got ${claim.reason}`);
			await submit(claim.publicId, doctor, 'good');
		}
		const passed = await scoreAttempts(h.db, round.studyId, doctor);
		expect(passed.map((a) => [a.attempt, a.score, a.passed])).toEqual([
			[1, 0.5, false],
			[2, 1, true]
		]);
		expect(await claimNext(h.db, round.studyId, doctor)).toEqual({
			status: 'none',
			reason: 'qualified'
		});
		expect(await claimNext(h.db, live.studyId, doctor)).toMatchObject({ status: 'assigned' });

		// Another rater fails both attempts and has none left.
		for (let attempt = 0; attempt < 2; attempt++) {
			for (let i = 0; i < 2; i++) {
				const claim = await claimNext(h.db, round.studyId, other);
				if (claim.status !== 'assigned')
					throw new Error(`expected a question, got ${claim.reason}`);
				await submit(claim.publicId, other, 'bad');
			}
			// A finished attempt nobody scored yet holds the next one back until it is scored.
			if (attempt === 0)
				expect(await claimNext(h.db, round.studyId, other)).toEqual({
					status: 'none',
					reason: 'attempt_finished'
				});
			await scoreAttempts(h.db, round.studyId, other);
		}
		expect(await claimNext(h.db, round.studyId, other)).toEqual({
			status: 'none',
			reason: 'attempts_used'
		});
		const status = (await qualificationStatus(h.db, round.studyId, other))!;
		expect(status).toMatchObject({ passed: false, attemptsLeft: 0 });
		// The round's questions hold no slots: both raters worked the same questions.
		const shared = rowsOf<{ n: number }>(
			await h.db.execute(sql`select count(distinct study_question_id)::int as n from assignment a
				join study_question q on q.id = a.study_question_id where q.study_id = ${round.studyId}`)
		);
		expect(Number(shared[0].n)).toBeLessThanOrEqual(6);
		const taken = await h.db
			.select()
			.from(assignment)
			.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
			.where(and(eq(studyQuestion.studyId, round.studyId), eq(assignment.physicianId, other)));
		expect(taken).toHaveLength(4);
	});

	it('refuses a gold file with unknown questions, keys or labels, saving nothing', async () => {
		const { studyId } = await goldStudy(2, 0);
		const [q] = await h.db
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, studyId))
			.limit(1);
		const bad = [
			{ question_id: q.id, labels: { 'm1/tag': 'great', 'm9/tag': 'good', 'm2/rank': 7 } },
			{ question_id: 999_999, labels: { 'm1/tag': 'good' } }
		];
		await expect(importGold(h.db, studyId, JSON.stringify(bad), organiser)).rejects.toMatchObject({
			code: 'invalid',
			problems: [
				expect.stringContaining('"m1/tag" must be one of good, okay, bad'),
				expect.stringContaining('"m9/tag" is not a label'),
				expect.stringContaining('"m2/rank" must be a whole number from 1 to'),
				expect.stringContaining('999999 is not a question of this study')
			]
		});
		await expect(importGold(h.db, studyId, '[{"question_id": 1,', organiser)).rejects.toMatchObject(
			{
				code: 'invalid'
			}
		);
		const gold = await h.db.select().from(studyQuestion).where(eq(studyQuestion.gold, true));
		expect(gold).toHaveLength(0);
	});
});
