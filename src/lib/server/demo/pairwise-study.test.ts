import { and, count, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { assignment, pairwiseJudgement, study, studyQuestion, type User } from '../db/schema';
import { describeEachDb } from '../db/testing';
import { seedUsers } from '../fixtures/review';
import { claimNext } from '../domain/studies/queue';
import { pairwiseReport } from '../domain/studies/designs/pairwise/statistics';
import { DEMO_MODELS, DEMO_QUALITY } from './demo-data';
import { importDemoContent } from './seed';
import {
	DEMO_PAIRWISE_JUDGED,
	DEMO_PAIRWISE_STUDY,
	demoPreference,
	seedPairwiseStudy
} from './pairwise-study';

describe('demoPreference', () => {
	it('is fixed by its key and prefers the better answer on either side', () => {
		expect(demoPreference('p1', 3, 'reference', 'openmed-3b')).toEqual(
			demoPreference('p1', 3, 'reference', 'openmed-3b')
		);
		let better = 0;
		for (let item = 1; item <= 40; item++) {
			if (demoPreference('p1', item, 'reference', 'openmed-3b').outcome === 'left') better++;
			if (demoPreference('p1', item, 'openmed-3b', 'reference').outcome === 'right') better++;
		}
		expect(better).toBeGreaterThan(70);
	});
});

describeEachDb('demo pairwise study', (h) => {
	let org: User;
	let physicians: User[];
	beforeEach(async () => {
		await importDemoContent(h.db);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		physicians = await seedUsers(h.db, 3, ['physician']);
		await seedPairwiseStudy(h.db, {
			organiser: org.id,
			physicians: physicians.map((p) => p.id)
		});
	});

	it('opens every pair of the models and the reference on each QA item, about 70 % judged, work left for each physician', async () => {
		const [s] = await h.db.select().from(study).where(eq(study.name, DEMO_PAIRWISE_STUDY));
		expect([s.design, s.state, s.ratersPerQuestion]).toEqual(['pairwise', 'open', 2]);
		const [{ units }] = await h.db
			.select({ units: count() })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, s.id));
		// 21 QA items × the 6 pairs of 3 models and the reference.
		expect(units).toBe(21 * 6);
		const perPhysician = await h.db
			.select({ physician: assignment.physicianId, n: count() })
			.from(pairwiseJudgement)
			.innerJoin(assignment, eq(assignment.id, pairwiseJudgement.assignmentId))
			.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
			.where(eq(studyQuestion.studyId, s.id))
			.groupBy(assignment.physicianId);
		const judged = perPhysician.reduce((sum, p) => sum + p.n, 0);
		expect(judged).toBe(Math.round(units * 2 * DEMO_PAIRWISE_JUDGED));
		expect(perPhysician).toHaveLength(3);
		for (const p of perPhysician) expect(p.n).toBeGreaterThan(judged / 4);
		const [{ leased }] = await h.db
			.select({ leased: count() })
			.from(assignment)
			.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
			.where(and(eq(studyQuestion.studyId, s.id), eq(assignment.state, 'leased')));
		expect(leased).toBeLessThanOrEqual(3);
		for (const p of physicians) expect((await claimNext(h.db, s.id, p.id)).status).toBe('assigned');
	});

	it('gives a leaderboard in the order of the demo qualities, with ties of both kinds', async () => {
		const [s] = await h.db.select().from(study).where(eq(study.name, DEMO_PAIRWISE_STUDY));
		const report = (await pairwiseReport(h.db, s.id, { resamples: 50, seed: 'demo' }))!;
		const expected = ['reference', ...DEMO_MODELS].sort(
			(a, b) => DEMO_QUALITY[b] - DEMO_QUALITY[a]
		);
		expect(report.leaderboard.rows.map((r) => r.model)).toEqual(expected);
		expect(report.leaderboard.rows.every((r) => r.rating.value !== null)).toBe(true);
		expect(report.outcomes.tieGood).toBeGreaterThan(0);
		expect(report.outcomes.tieBad).toBeGreaterThan(0);
		expect(report.outcomes.left + report.outcomes.right).toBeGreaterThan(report.judgements / 2);
	});
});
