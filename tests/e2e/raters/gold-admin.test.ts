// An organiser sets up raters' quality through the forms at 1366×768: a qualification round
// (pass mark, attempts), then a benchmark study that requires it with a hidden gold rate. On the
// round's gold page they download the gold template, fill two questions in and upload it, see the
// gold list, have a bad file refused with its problems (nothing saved) and remove one gold
// question. The new pages are scanned with axe-core. The questions and the models' answers
// (a question set) are written directly into the database by the project's own fixture.
import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import type { Db } from '../../../src/lib/server/db/client';
import { seedQuestionSet } from '../../../src/lib/server/fixtures/rubric';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const MODELS = ['gold-alpha', 'gold-beta'];
const SHOTS = process.env.SHOTS_DIR;

const CONTENT: PrepareDatabase = {
	async prepare(db: Db) {
		await seedQuestionSet(db, { questions: 4, models: MODELS, name: 'Gold questions' });
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: CONTENT });

/** Presses a button and, when the page asks to confirm warnings, confirms. */
async function pressConfirming(page: Page, button: RegExp, anyway: RegExp) {
	await page.getByRole('button', { name: button }).click();
	const confirm = page.getByRole('button', { name: anyway });
	if (await confirm.isVisible({ timeout: 3000 }).catch(() => false)) await confirm.click();
}

async function fillCommon(page: Page, name: string) {
	await page.goto('/admin/studies');
	// Typing before the page has hydrated can be undone by hydration: wait for it.
	await page.waitForLoadState('networkidle');
	await page.getByLabel('Name', { exact: true }).fill(name);
	await page
		.getByLabel('Questions from')
		.selectOption({ label: 'Question set: Gold questions (4 questions)' });
	for (const m of MODELS) await page.getByRole('checkbox', { name: new RegExp(`^${m}`) }).check();
}

test('an organiser sets up a qualification round, a study requiring it and the round’s gold', async ({
	page
}) => {
	test.setTimeout(240_000);
	await loginAs(page, 'organiser');
	let roundUrl = '';

	await test.step('a qualification round: pass mark and attempts, no k', async () => {
		await fillCommon(page, 'Round e2e');
		const k = page.getByLabel('Physicians per question (k)');
		await expect(k).toBeVisible();
		await expect(page.getByLabel('Pass mark (%)')).toBeHidden();
		await page.getByRole('radio', { name: /^Qualification round/ }).check();
		await expect(k).toBeHidden();
		await expect(page.getByText('k does not apply to a qualification round')).toBeVisible();
		await expect(
			page.getByLabel('Hidden gold rate: 1 gold check in every N questions')
		).toBeHidden();
		await page.getByLabel('Pass mark (%)').fill('75');
		await page.getByLabel('Questions per attempt').fill('2');
		await page.getByLabel('Attempts allowed').fill('3');
		await page.getByRole('group', { name: "Raters' quality" }).scrollIntoViewIfNeeded();
		if (SHOTS) await page.screenshot({ path: `${SHOTS}/gold-form-round.png` });
		await expectAccessible(page, 'Create form, round', { settle: true });
		await pressConfirming(page, /^Create study/, /Create anyway/);
		await expect(page.getByRole('heading', { name: 'Round e2e', level: 1 })).toBeVisible();
		roundUrl = new URL(page.url()).pathname;
		const section = page.getByRole('region', { name: 'Gold and qualification' });
		await expect(section).toContainText('Qualification round');
		await expect(section).toContainText('attempts of 2 questions, 3 allowed · pass mark 75 %');
		await pressConfirming(page, /^Open/, /Open anyway/);
		await expect(page.getByText('The study is now open.')).toBeVisible();
	});

	await test.step('a benchmark study requiring the round, with a gold rate', async () => {
		await fillCommon(page, 'Live e2e');
		await expect(page.locator('table').getByText('Qualification round')).toBeVisible();
		await page.getByLabel('Physicians per question (k)').fill('2');
		await page.getByLabel('Qualification round required').selectOption({ label: 'Round e2e' });
		const rate = page.getByLabel('Hidden gold rate: 1 gold check in every N questions');
		await rate.fill('1');
		// The browser refuses N = 1 itself; past it (no validation), the server refuses it too.
		expect(await rate.evaluate((e) => (e as HTMLInputElement).validity.rangeUnderflow)).toBe(true);
		await page.locator('form[action="?/create"]').evaluate((f) => f.setAttribute('novalidate', ''));
		await pressConfirming(page, /^Create study/, /Create anyway/);
		// Refused beside its field, everything typed kept.
		await expect(page.locator('#gold-every-error')).toContainText(
			'The gold rate must be a whole number from 2 to 1000'
		);
		await expect(rate).toHaveAttribute('aria-invalid', 'true');
		await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Live e2e');
		await rate.fill('10');
		await page.getByLabel('Flag mark (%)').fill('70');
		await page.getByRole('group', { name: "Raters' quality" }).scrollIntoViewIfNeeded();
		if (SHOTS) await page.screenshot({ path: `${SHOTS}/gold-form-benchmark.png` });
		await pressConfirming(page, /^Create study/, /Create anyway/);
		await expect(page.getByRole('heading', { name: 'Live e2e', level: 1 })).toBeVisible();
		const section = page.getByRole('region', { name: 'Gold and qualification' });
		await expect(section).toContainText('gold rate 1 in every 10 questions');
		await expect(section).toContainText('round required: Round e2e');
		await expect(section).toContainText('0 raters below the flag mark (70 %)');
	});

	let template: { question_id: number; _question: string; labels: Record<string, null> }[] = [];
	await test.step('the round’s gold template lists every question with its labels', async () => {
		await page.goto(`${roundUrl}/gold`);
		await expect(
			page.getByRole('heading', { name: /Gold and qualification/, level: 1 })
		).toBeVisible();
		const download = page.waitForEvent('download');
		await page.getByRole('link', { name: 'Download gold template (JSON)' }).click();
		template = JSON.parse(await readFile(await (await download).path(), 'utf8'));
		expect(template).toHaveLength(4);
		expect(Object.keys(template[0].labels)).toContain('gold-alpha/tag');
		expect(Object.keys(template[0].labels)).toContain('reference/rank');
		expect(template[0]._question.length).toBeGreaterThan(0);
	});

	await test.step('a filled template imports: two gold questions listed', async () => {
		const filled = template.map((r, i) => ({
			...r,
			labels: i < 2 ? { ...r.labels, 'gold-alpha/tag': 'good', 'gold-beta/tag': 'bad' } : r.labels,
			explanation: i < 2 ? `Alpha is right on ${r.question_id}.` : ''
		}));
		await page.getByLabel('Gold file').setInputFiles({
			name: 'gold.json',
			mimeType: 'application/json',
			buffer: Buffer.from(JSON.stringify(filled))
		});
		await page.getByRole('button', { name: 'Import gold' }).click();
		await expect(page.getByText('2 questions made gold.')).toBeVisible();
		await expect(page.getByRole('heading', { name: '2 gold questions' })).toBeVisible();
		await expect(page.getByText(`Alpha is right on ${template[0].question_id}.`)).toBeVisible();
		await expectAccessible(page, 'Gold page, round', { settle: true });
	});

	await test.step('a bad file shows its problems and saves nothing', async () => {
		await page.getByLabel('Or paste the gold JSON').fill(
			JSON.stringify([
				{ question_id: template[2].question_id, labels: { 'gold-alpha/tag': 'great' } },
				{ question_id: 999999, labels: { 'gold-alpha/tag': 'good' } }
			])
		);
		await page.getByRole('button', { name: 'Import gold' }).click();
		const alert = page.getByRole('alert').filter({ hasText: 'nothing was saved' });
		await expect(alert).toContainText('The gold file has 2 problem(s); nothing was saved.');
		await expect(alert).toContainText('"gold-alpha/tag" must be one of good, okay, bad');
		await expect(alert).toContainText('999999 is not a question of this study');
		await page.reload();
		await expect(page.getByRole('heading', { name: '2 gold questions' })).toBeVisible();
		await expectAccessible(page, 'Gold page, refused file', { settle: true });
		if (SHOTS) await page.screenshot({ path: `${SHOTS}/gold-page.png`, fullPage: true });
	});

	await test.step('removing gold asks first, then the question is ordinary again', async () => {
		const first = template[0].question_id;
		await page.getByText('Remove gold').first().click();
		await page.getByRole('button', { name: `Yes, remove gold from question ${first}` }).click();
		await expect(page.getByText(`Question ${first} is no longer gold.`)).toBeVisible();
		await expect(page.getByRole('heading', { name: '1 gold question' })).toBeVisible();
	});

	await test.step('the settings of the round change on its gold page', async () => {
		await page.getByLabel('Attempts allowed').fill('11');
		// Past the browser's own check, the server refuses 11 beside the field.
		await page
			.locator('form[action="?/settings"]')
			.evaluate((f) => f.setAttribute('novalidate', ''));
		await page.getByRole('button', { name: 'Save settings' }).click();
		await expect(page.locator('#max-attempts-error')).toHaveText(
			'Attempts must be a whole number from 1 to 10.'
		);
		await page.getByLabel('Attempts allowed').fill('4');
		await page.getByRole('button', { name: 'Save settings' }).click();
		await expect(page.getByText('The settings are saved.')).toBeVisible();
		await page.goto(roundUrl);
		await expect(page.getByRole('region', { name: 'Gold and qualification' })).toContainText(
			'4 allowed'
		);
	});
});
