import { expect, it } from 'vitest';
import { parseCsv } from '../../csv';
import { describeEachDb } from '../../db/testing';
import { insertUsers } from '../../fixtures/ranking';
import { seedAssessedEvidenceStudy } from '../../fixtures/evidence';
import { evidenceReport } from '../studies';
import { dashboardReports, readDashboardQuery } from './dashboard';
import { agreementBundleFiles } from './export';

describeEachDb('an evidence study on the agreement dashboard', (h) => {
	it('shows the report evidenceReport gives, and bundles its file and tables', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const assessors = (await insertUsers(h.db, 2, ['physician'])) as [string, string];
		const { studyId } = await seedAssessedEvidenceStudy(h.db, organiser, assessors, {
			runs: ['run-a', 'run-b'],
			questions: 5
		});
		const page = await dashboardReports(
			h.db,
			readDashboardQuery(new URLSearchParams({ study: String(studyId) }))
		);
		expect(page.study).toBeNull();
		const direct = (await evidenceReport(h.db, studyId))!;
		expect(page.evidence!.result.figures).toEqual(direct.figures);
		expect(page.evidence!.result.intervals).toEqual(JSON.parse(JSON.stringify(direct.intervals)));
		// Cached: the second read computes nothing.
		const again = await dashboardReports(
			h.db,
			readDashboardQuery(new URLSearchParams({ study: String(studyId) }))
		);
		expect(again.evidence!.fresh).toBe(false);

		const files = await agreementBundleFiles(h.db, {
			verification: null,
			study: null,
			evidence: { studyId, report: page.evidence!.result }
		});
		const byName = Object.fromEntries(files.map((f) => [f.name, f.content]));
		expect(JSON.parse(byName['biogen_assessments.json'])).toHaveLength(5);
		const [header, ...rows] = parseCsv(byName['tables/evidence_figures.csv']).filter(
			(r) => r.length > 1
		);
		expect(header.slice(0, 5)).toEqual(['run', 'figure', 'value', 'low', 'high']);
		// Two runs × ten figures; the count has no interval.
		expect(rows).toHaveLength(20);
		const accuracy = rows.find((r) => r[0] === 'run-a' && r[1] === 'accuracy')!;
		expect(Number(accuracy[2])).toBe(direct.figures.runs['run-a'].accuracy);
		expect(accuracy[3]).not.toBe('');
		expect(rows.find((r) => r[1] === 'acceptable_answers')![3]).toBe('');
		expect(byName['tables/evidence_agreement.csv']).toMatch(/span_token_f1_mean/);
		expect(JSON.parse(byName['settings.json'])).toMatchObject({
			studyId,
			seed: `evidence-${studyId}`
		});
	});
});
