import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { study } from '../db/schema';
import { describeEachDb } from '../db/testing';
import { insertUsers } from '../fixtures/ranking';
import { evidenceReport } from '../domain/studies';
import { DEMO_EVIDENCE_STUDY, seedEvidenceStudy } from './evidence-study';

describeEachDb('the demo evidence study', (h) => {
	it('imports its content, opens, and leaves one of twelve assessments to do', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const physicians = await insertUsers(h.db, 3, ['physician']);
		await seedEvidenceStudy(h.db, { organiser, physicians });
		const [s] = await h.db.select().from(study).where(eq(study.name, DEMO_EVIDENCE_STUDY));
		expect(s.state).toBe('open');
		const report = (await evidenceReport(h.db, s.id))!;
		expect(report.counts).toMatchObject({ answers: 6, assessed: 6 });
		expect(Object.keys(report.figures.runs).sort()).toEqual(['demo-run-A', 'demo-run-B']);
		// Run B's third answer tells everyone to start a drug: it does not answer the question.
		expect(report.figures.runs['demo-run-B'].acceptable_answers).toBe(2);
	});
});
