// An organiser creates a pairwise study through the form at 1366×768: a balanced sample of two
// pairs per question with a given seed, a rubric's aspects and k = 2. A missing p is refused beside
// its field with everything typed kept; the study opens, its design card counts the pairs, and the
// battles export starts with FastChat's columns. The new page states are scanned with axe-core.
// The question set (three models' answers and the reference) and the rubric are written directly
// into the database by the project's own code.
import { readFile } from 'node:fs/promises';
import type { Db } from '../../../src/lib/server/db/client';
import { insertRubric, seedQuestionSet } from '../../../src/lib/server/fixtures/rubric';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const MODELS = ['pw-alpha', 'pw-beta', 'pw-gamma'];

const CONTENT: PrepareDatabase = {
	async prepare(db: Db) {
		await seedQuestionSet(db, { questions: 3, models: MODELS, name: 'Pairwise questions' });
		await insertRubric(db, undefined, 'Aspect rubric');
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: CONTENT });

test('an organiser creates a balanced pairwise study, opens it and downloads its battles', async ({
	page
}) => {
	test.setTimeout(180_000);
	await loginAs(page, 'organiser');
	await page.goto('/admin/studies');
	// Typing before the page has hydrated can be undone by hydration: wait for it.
	await page.waitForLoadState('networkidle');

	const p = page.getByLabel('Pairs per question (p)');
	const seed = page.getByLabel('Seed (optional)');
	const aspects = page.getByLabel('Aspects to compare (optional)');
	const balanced = page.getByRole('radio', { name: 'A balanced sample of p pairs per question' });

	await test.step('choosing the pairwise design shows its fields', async () => {
		await expect(balanced).toBeHidden();
		await page.getByLabel('Name', { exact: true }).fill('Pairwise e2e study');
		await page.getByRole('radio', { name: /^Pairwise/ }).check();
		await expect(balanced).toBeVisible();
		await expect(page.getByLabel('Rubric (rubric studies)')).toBeHidden();
		// p and the seed belong to a sample: hidden while every pair is shown.
		await expect(p).toBeHidden();
		await balanced.check();
		await expect(p).toBeVisible();
		await seed.fill('e2e-seed');
		await aspects.selectOption({ label: 'Aspect rubric (version 1)' });
		await page
			.getByLabel('Questions from')
			.selectOption({ label: 'Question set: Pairwise questions (3 questions)' });
		for (const m of MODELS) await page.getByRole('checkbox', { name: new RegExp(`^${m}`) }).check();
		await page.getByLabel('Physicians per question (k)').fill('2');
		await expect(
			page.getByText(
				'4 answers per question make C(4, 2) = 6 pairs; each question shows p of them.'
			)
		).toBeVisible();
		await expectAccessible(page, 'Create form, pairwise', { settle: true });
	});

	await test.step('a balanced sample without p is refused beside p, keeping what was typed', async () => {
		await page.getByRole('button', { name: /^Create study/ }).click();
		const message = 'Say how many pairs each question gets (p) for a balanced sample.';
		await expect(page.locator('#pairs-per-question-error')).toHaveText(message);
		await expect(p).toHaveAttribute('aria-invalid', 'true');
		await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Pairwise e2e study');
		await expect(page.getByRole('radio', { name: /^Pairwise/ })).toBeChecked();
		await expect(balanced).toBeChecked();
		await expect(seed).toHaveValue('e2e-seed');
		await expect(aspects).toHaveValue(/\d+/);
		for (const m of MODELS)
			await expect(page.getByRole('checkbox', { name: new RegExp(`^${m}`) })).toBeChecked();
		await expect(page.getByLabel('Physicians per question (k)')).toHaveValue('2');
		await expectAccessible(page, 'Create form, refused', { settle: true });
	});

	await test.step('with p = 2 the study is created and its card describes the sample', async () => {
		await p.fill('2');
		await expect(
			page.getByText(
				'4 answers per question make C(4, 2) = 6 pairs; each question shows 2 of them.'
			)
		).toBeVisible();
		await page.getByRole('button', { name: 'Check eligibility' }).click();
		await expect(page.getByText('3 eligible questions. At most 6 pairs to judge.')).toBeVisible();
		await page.getByRole('button', { name: /^Create study/ }).click();
		const anyway = page.getByRole('button', { name: /Create anyway/ });
		if (await anyway.isVisible({ timeout: 2000 }).catch(() => false)) await anyway.click();
		await expect(page.getByRole('heading', { name: 'Pairwise e2e study', level: 1 })).toBeVisible();
		const card = page
			.locator('.card')
			.filter({ has: page.getByRole('heading', { name: 'Design' }) });
		await expect(card).toContainText('Pairwise study');
		await expect(card).toContainText('a balanced sample of p = 2 per question, seed e2e-seed');
		await expect(card).toContainText('planned when the study opens');
		await expect(card).toContainText('its latest version, frozen when the study opens');
		await expect(card).toContainText('k = 2 physicians per pair');
		await expectAccessible(page, 'Pairwise study, draft', { settle: true });
	});

	await test.step('opening plans the pairs: 3 questions × 2, each judged twice', async () => {
		await page.getByRole('button', { name: /^Open/ }).click();
		const openAnyway = page.getByRole('button', { name: /Open anyway/ });
		if (await openAnyway.isVisible({ timeout: 3000 }).catch(() => false)) await openAnyway.click();
		await expect(page.getByText('The study is now open.')).toBeVisible();
		const card = page
			.locator('.card')
			.filter({ has: page.getByRole('heading', { name: 'Design' }) });
		await expect(card).toContainText('6, each judged by k = 2 (12 judgements in all)');
		await expect(card).toContainText('Questions: 3');
		await expect(card).toContainText('version 1 (frozen when the study opened)');
		await expectAccessible(page, 'Pairwise study, open', { settle: true });
	});

	await test.step('the battles export has FastChat’s columns', async () => {
		const downloading = page.waitForEvent('download');
		await page.getByRole('link', { name: 'Battles (CSV)' }).click();
		const download = await downloading;
		expect(download.suggestedFilename()).toMatch(/^study-\d+-battles\.csv$/);
		const text = await readFile((await download.path())!, 'utf8');
		expect(text.split('\r\n')[0]).toBe(
			'question,question_id,model_a,model_b,winner,judge,length_a,length_b'
		);
	});
});
