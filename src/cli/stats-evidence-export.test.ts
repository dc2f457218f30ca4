// The official assessment file an evidence study downloads is the input `cliniq stats evidence`
// reads: a study assessed on PGlite, its export written to a file, the command's figures equal to
// the study page's (the acceptance: the same numbers on the page and from the CLI).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDb } from '$lib/server/db/testing';
import { insertUsers } from '$lib/server/fixtures/ranking';
import { seedAssessedEvidenceStudy } from '$lib/server/fixtures/evidence';
import { evidenceReport, exportEvidenceOfficial } from '$lib/server/domain/studies';
import { main } from './main';

describeEachDb('cliniq stats evidence on a study’s official export', (h) => {
	let organiser: string;
	let assessors: [string, string];

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		assessors = (await insertUsers(h.db, 2, ['physician'])) as [string, string];
	});

	it('cliniq stats evidence on the downloaded file gives the same figures', async () => {
		const { studyId } = await seedAssessedEvidenceStudy(h.db, organiser, assessors, {
			runs: ['run-a', 'run-b'],
			questions: 2
		});
		const path = join(mkdtempSync(join(tmpdir(), 'cliniq-evidence-')), 'assessments.json');
		writeFileSync(path, JSON.stringify(await exportEvidenceOfficial(h.db, studyId), null, 1));
		const out: string[] = [];
		const err: string[] = [];
		const code = await main(['stats', 'evidence', path], {
			stdout: (x) => out.push(x),
			stderr: (x) => err.push(x)
		});
		expect(err).toEqual([]);
		expect(code).toBe(0);
		const printed = JSON.parse(out.join('\n'));
		const report = (await evidenceReport(h.db, studyId))!;
		expect(printed.questions).toBe(2);
		expect(printed.runs).toEqual(report.figures.runs);
		expect(printed.notes).toEqual(report.figures.notes);
	});
});
