// The organiser's rubric builder: a rubric made from the HDCEval template, one level description
// reworded and saved as version 2, the history showing both versions. Both pages are scanned with
// axe-core.
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

test.beforeEach(async ({ page }) => {
	test.setTimeout(120_000);
	await page.setViewportSize({ width: 1366, height: 768 });
});

test('an organiser builds a rubric from the HDCEval template and saves a second version', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin');
	await page
		.getByRole('navigation', { name: 'Main' })
		.getByRole('link', { name: 'Studies' })
		.click();
	await page.getByRole('main').getByRole('link', { name: 'Rubrics' }).click();
	await expect(page.getByRole('heading', { name: 'Rubrics', level: 1 })).toBeVisible();
	await page.waitForLoadState('networkidle');
	await expectAccessible(page, 'Rubrics page');

	await page.getByLabel('Name').fill('Clinic answers');
	await page.getByLabel(/HDCEval template/).check();
	await page.getByRole('button', { name: 'Create rubric' }).click();

	await expect(page.getByRole('heading', { name: 'Clinic answers', level: 1 })).toBeVisible();
	await expect(page.getByRole('heading', { name: /^Aspect \d/ })).toHaveText([
		/REL Patient Question Relevance/,
		/COR Medical Knowledge Correctness/,
		/EXP Expression/
	]);
	await page.waitForLoadState('networkidle');
	await expectAccessible(page, 'Rubric builder');

	// Score 2 of CONT (the first sub-aspect), reworded.
	const cont = page.getByRole('group', { name: 'Sub-aspect 1.1: CONT' });
	const level = cont.getByLabel('Score 2', { exact: true });
	await level.fill('Uses part of the context; an important detail is missed.');
	await page.getByLabel(/Change note/).fill('CONT level 2 reworded');
	await page.getByRole('button', { name: 'Save as version 2' }).click();

	await expect(page.getByRole('status').filter({ hasText: 'Saved as version 2.' })).toBeVisible();
	const history = page.getByRole('table');
	await expect(history.getByRole('row')).toHaveCount(3);
	await expect(history.getByRole('row').nth(1)).toContainText('CONT level 2 reworded');
	await expect(history.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('2');
	await expect(history.getByRole('row').nth(2).getByRole('cell').first()).toHaveText('1');
	await expect(page.getByText(/keeps the version it opened with/)).toBeVisible();

	// The saved wording is what the builder now starts from.
	await page.reload();
	await expect(
		page.getByRole('group', { name: 'Sub-aspect 1.1: CONT' }).getByLabel('Score 2', { exact: true })
	).toHaveValue('Uses part of the context; an important detail is missed.');
	await expect(page.getByRole('button', { name: 'Save as version 3' })).toBeVisible();
	await expectAccessible(page, 'Rubric builder after a save');

	await page.goto('/admin/rubrics');
	await expect(page.getByRole('row', { name: /Clinic answers/ })).toContainText('2');
});
