// The screenshots of README.md and the role guides in docs/: each role's main screens at the
// laptop size most users have, on the demo judgements (support/pages.ts), written to docs/images/.
// Each screen is checked for what the guides say it shows before it is photographed.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { firstLink, MAIN_PAGES_DATABASE, open } from '../support/pages';
import { expect, loginAs, test } from '../fixtures';

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: MAIN_PAGES_DATABASE });

// The first test also starts this file's portal with the demo judgements and a scoring run.
test.describe.configure({ timeout: 120_000 });

const IMAGES = join(import.meta.dirname, '../../../docs/images');

/** Writes the viewport (not the full page) to docs/images/<name>.png. */
async function shoot(page: Page, name: string) {
	// No caret or hover state may differ from one run to the next.
	await page.mouse.move(0, 0);
	await page.screenshot({
		path: join(IMAGES, `${name}.png`),
		animations: 'disabled',
		caret: 'hide'
	});
}

test('reviewer: the queue and a review task', async ({ page }) => {
	await loginAs(page, 'reviewer');
	await open(page, '/review');
	await expect(page.getByRole('heading', { level: 1, name: 'Review QA pairs' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Start reviewing' })).toBeVisible();
	await shoot(page, 'reviewer-queue');

	await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	await expect(
		page.getByRole('heading', { level: 1, name: /^(First review|Independent second review)$/ })
	).toBeVisible();
	await expect(page.getByRole('region', { name: 'The question and answer' })).toBeVisible();
	const judgement = page.getByRole('region', { name: 'Your judgement' });
	await expect(judgement.getByRole('group', { name: 'Verdict' })).toBeVisible();
	await expect(judgement.getByRole('button', { name: /Submit/ })).toBeVisible();
	await shoot(page, 'reviewer-task');
});

test('physician: the studies and a ranking question', async ({ page }) => {
	await loginAs(page, 'physician');
	await open(page, '/rank');
	await expect(page.getByRole('heading', { level: 1, name: 'Your studies' })).toBeVisible();
	const openStudy = page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: /open/ }) });
	await expect(openStudy.getByRole('button')).toBeVisible();
	await shoot(page, 'physician-studies');

	await openStudy.getByRole('button').click();
	await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	await expect(page.getByLabel('Your progress')).toContainText(/Question \d+ of \d+/);
	await expect(page.getByRole('heading', { name: 'Your ranking' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Submit ranking' })).toBeAttached();
	await shoot(page, 'physician-ranking');
});

test('physician: a rubric question', async ({ page }) => {
	await loginAs(page, 'physician');
	await open(page, '/rank');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: /rubric study/ }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/rubric\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	await expect(page.getByRole('radio', { name: 'Two side by side' })).toBeVisible();
	await page.getByRole('radio', { name: 'Two side by side' }).check();
	await expect(page.getByRole('button', { name: 'Submit scores' })).toBeInViewport();
	await shoot(page, 'physician-rubric');
});

test('organiser: overview, imports, verification, a study and agreement', async ({ page }) => {
	await loginAs(page, 'organiser');
	await open(page, '/admin');
	await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Items per type' })).toBeVisible();
	await shoot(page, 'organiser-overview');

	await open(page, '/admin/imports');
	await expect(page.getByRole('heading', { level: 1, name: 'Imports' })).toBeVisible();
	await expect(page.getByRole('heading', { name: 'QA pairs' })).toBeVisible();
	await shoot(page, 'organiser-imports');

	await open(page, '/admin/verification');
	await expect(page.getByRole('heading', { level: 1, name: 'Verification' })).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Items per workflow state' })).toBeVisible();
	await shoot(page, 'organiser-verification');

	const study = await firstLink(page, '/admin/studies', /^\/admin\/studies\/\d+$/);
	await open(page, study);
	await expect(page.getByRole('heading', { level: 1, name: /Demo study/ })).toBeVisible();
	await expect(page.getByRole('heading', { name: 'Design' })).toBeVisible();
	await shoot(page, 'organiser-study');

	await open(page, '/admin/agreement');
	await expect(page.getByRole('heading', { level: 1, name: 'Agreement' })).toBeVisible();
	await expect(
		page.getByRole('heading', { name: 'Reviewers: primary against secondary review' })
	).toBeVisible();
	await shoot(page, 'organiser-agreement');

	const rubric = await firstLink(page, '/admin/rubrics', /^\/admin\/rubrics\/\d+$/);
	await open(page, rubric);
	await expect(page.getByRole('heading', { level: 1, name: /HDCEval/ })).toBeVisible();
	await shoot(page, 'organiser-rubric');

	await open(page, '/admin/studies');
	const rubricStudy = await page
		.getByRole('link', { name: /Demo rubric study/ })
		.getAttribute('href');
	await open(page, `/admin/agreement?study=${rubricStudy!.split('/').at(-1)}`);
	const section = page.locator('section[id^="study-"]');
	await expect(section.getByRole('heading', { name: /Automatic judges/ })).toBeVisible();
	await section.getByRole('heading', { name: /Automatic judges/ }).scrollIntoViewIfNeeded();
	await shoot(page, 'organiser-rubric-agreement');
});
