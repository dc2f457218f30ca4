import type { Page } from '@playwright/test';
import { DEMO_MODELS } from '../../../src/lib/server/demo/demo-data';
import { expect, loginAs, test } from '../fixtures';

/** Fills the new-study form on /admin/studies (the template has two physician accounts). */
async function fillStudy(page: Page, name: string, k: number) {
	await page.goto('/admin/studies');
	await page.waitForLoadState('networkidle');
	await page.getByLabel('Name').fill(name);
	for (const model of DEMO_MODELS)
		await page.getByRole('checkbox', { name: new RegExp(`^${model} [(]`) }).check();
	await page.getByRole('checkbox', { name: 'Short answer', exact: true }).check();
	await page.getByLabel('Physicians per question (k)').fill(String(k));
}

test('a study needing more physicians than exist is refused, then created and opened once an invitation covers it and the organiser confirms', async ({
	page
}) => {
	test.setTimeout(90_000);
	await loginAs(page, 'organiser');

	await fillStudy(page, 'Three per question', 3);
	await page.getByRole('button', { name: 'Create study (draft)' }).click();
	await expect(page.getByRole('alert')).toHaveText(
		'This study asks for 3 physicians per question but only 2 physician accounts exist; invite 1 more or lower k.'
	);
	await expect(page).toHaveURL(/\/admin\/studies$/);
	await expect(page.getByRole('button', { name: 'Create anyway' })).toHaveCount(0);

	// Invite a third physician: the shortfall is now covered by a pending invitation.
	await page.goto('/admin/users');
	await page.waitForLoadState('networkidle');
	const invite = page.locator('form[action="?/invite"]');
	await invite.getByLabel('Email').fill('third.physician@test.local');
	await invite.getByLabel('Name').fill('Dr Third');
	await invite.getByRole('checkbox', { name: 'physician' }).check();
	await invite.getByRole('button', { name: 'Create invitation link' }).click();
	await expect(page.getByLabel('Invitation link')).toBeVisible();

	await fillStudy(page, 'Three per question', 3);
	await page.getByRole('button', { name: 'Create study (draft)' }).click();
	const warning = page.getByRole('alert');
	await expect(warning).toContainText('Confirm to create the study anyway');
	await expect(warning).toContainText(
		'only 2 physician accounts exist; it can finish only after 1 of the pending physician invitations (third.physician@test.local) is accepted.'
	);
	await page.getByRole('button', { name: 'Create anyway' }).click();
	await expect(page).toHaveURL(/\/admin\/studies\/\d+$/);

	await page.getByRole('button', { name: 'Open (freezes questions)' }).click();
	await expect(page.getByRole('alert')).toContainText('Confirm to open the study anyway');
	await expect(page.getByRole('alert')).toContainText('third.physician@test.local');
	await expect(page.getByText('The study is now open.')).toHaveCount(0);
	await page.getByRole('button', { name: 'Open anyway' }).click();
	await expect(page.getByText('The study is now open.')).toBeVisible();
	await expect(
		page.getByRole('progressbar', {
			name: /^0 of 9 rankings submitted \(0 %; k = 3 × 3 questions\)/
		})
	).toBeVisible();
	await expect(
		page.getByText(/Estimated finish: no estimate: no rankings since the study opened/)
	).toBeVisible();
});
