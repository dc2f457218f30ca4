// An assessed evidence study as an organiser reads it at 1366×768: the BioGen figures on the
// agreement page (a table per run with intervals, a chart per figure, agreement between
// assessors), the official assessment file and the long table from the study page, axe-core on
// both pages. Six questions answered by two runs, every answer finished by two assessors, written
// by the project's own fixture.
import { readFileSync } from 'node:fs';
import { parseCsv } from '../../../src/lib/server/csv';
import { insertUsers } from '../../../src/lib/server/fixtures/ranking';
import { seedAssessedEvidenceStudy } from '../../../src/lib/server/fixtures/evidence';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const STUDY = 'Evidence e2e study';
const ASSESSED: PrepareDatabase = {
	async prepare(db) {
		const [organiser] = await insertUsers(db, 1, ['organiser']);
		const assessors = (await insertUsers(db, 2, ['physician'])) as [string, string];
		await seedAssessedEvidenceStudy(db, organiser, assessors, {
			questions: 6,
			runs: ['biogen-run-a', 'biogen-run-b'],
			name: STUDY
		});
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: ASSESSED });
test.describe.configure({ timeout: 120_000 });

test('an organiser reads an evidence study’s figures and downloads its assessments', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/agreement');
	const studyId = await page
		.locator('select[name=study] option', { hasText: STUDY })
		.getAttribute('value');
	await page.goto(`/admin/agreement?study=${studyId}`);
	const section = page.locator(`section#study-${studyId}`);

	await test.step('the figures table of each run, with intervals', async () => {
		await expect(section.getByRole('heading', { name: `Evidence study “${STUDY}”` })).toBeVisible();
		await expect(section).toContainText('12 answers of 12 assessed, 12 by two or more assessors');
		for (const run of ['biogen-run-a', 'biogen-run-b']) {
			const table = section.locator('table', {
				has: page.locator('caption', { hasText: `Run ${run}` })
			});
			await expect(table.locator('tbody tr')).toHaveCount(10);
		}
		const runA = section.locator('table', {
			has: page.locator('caption', { hasText: 'Run biogen-run-a' })
		});
		await expect(
			runA.getByRole('row', { name: /^Accuracy 100\.00 \[100\.00, 100\.00\]$/ })
		).toBeVisible();
		await expect(runA.getByRole('row', { name: /^Citation support rate 75\.00 / })).toBeVisible();
		await expect(section.locator('figure svg')).toHaveCount(9);
		await expect(
			section.getByRole('row', { name: /^Sentence relevance, rolled up/ })
		).toContainText(/-?\d\.\d{3}/);
		expect(await page.locator('main').innerText()).not.toMatch(/undefined|NaN/);
	});

	await test.step('passes axe-core on the agreement page', async () => {
		await expectAccessible(page, 'agreement page');
	});

	await test.step('photographs the figures', async () => {
		await section.screenshot({ path: '/tmp/evidence-figures.png', animations: 'disabled' });
	});

	await test.step('the study page: design card, exports, axe-core', async () => {
		await page.goto(`/admin/studies/${studyId}`);
		await expect(page.getByText('12 × k = 2 (24 assessments in all)')).toBeVisible();
		await expectAccessible(page, 'study page');

		const downloading = page.waitForEvent('download');
		await page.getByRole('link', { name: 'BioGen assessments (JSON)', exact: true }).click();
		const download = await downloading;
		expect(download.suggestedFilename()).toBe(`study-${studyId}-biogen-assessments.json`);
		const official = JSON.parse(readFileSync((await download.path())!, 'utf8'));
		expect(official).toHaveLength(6);
		expect(Object.keys(official[0].machine_generated_answers)).toEqual([
			'biogen-run-a',
			'biogen-run-b'
		]);
		const answer = official[0].machine_generated_answers['biogen-run-a'];
		expect(answer.is_answer_accurate).toBe('yes');
		expect(Object.keys(answer.answer_sentences[0])).toEqual([
			'answer_sentence_id',
			'answer_sentence',
			'answer_sentence_relevance',
			'citation_assessment'
		]);

		const csv = await page.request.get(`/admin/studies/${studyId}/export/csv`);
		expect(csv.ok()).toBe(true);
		const rows = parseCsv(await csv.text()).filter((r) => r.length > 1);
		expect(rows[0].slice(0, 4)).toEqual(['question_id', 'run', 'assessor', 'assessment_order']);
		// Per question: 7 + 5 rows by the first assessor, 5 + 5 by the second (see evidencePlan).
		expect(rows).toHaveLength(1 + 6 * 22);
	});
});
