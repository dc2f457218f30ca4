import type { Page } from '@playwright/test';
import { expect, loginAs, test } from '../fixtures';

// Tables page, sort and filter on the server through plain links and GET forms: all of it must
// work with JavaScript off. The demo content has 21 items, 3 of each type.
test.use({ javaScriptEnabled: false });

const rows = (page: Page) => page.locator('main tbody tr');
const column = (page: Page, id: string) => page.locator(`main tbody td.${id}`).allInnerTexts();

test('the items table pages, sorts and filters without JavaScript', async ({ page }) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/items?size=10');
	await expect(page.getByText('21 items · 1–10')).toBeVisible();
	await expect(rows(page)).toHaveCount(10);
	const firstPage = await column(page, 'id');

	// Pages follow on from the last row shown (keyset), in links that survive a reload.
	await page.getByRole('link', { name: 'Next →' }).first().click();
	await expect(page).toHaveURL(/after=/);
	await expect(page.getByText('21 items · 10 shown')).toBeVisible();
	const secondPage = await column(page, 'id');
	expect(secondPage).toHaveLength(10);
	expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
	await page.reload();
	expect(await column(page, 'id')).toEqual(secondPage);
	// The last page is the last ten rows; previous goes back from its first row.
	await page.getByRole('link', { name: 'Last page' }).first().click();
	await expect(page).toHaveURL(/page=last/);
	await expect(page.getByText('21 items · 12–21', { exact: true })).toBeVisible();
	const lastPage = (await column(page, 'id')).map(Number);
	expect(lastPage).toHaveLength(10);
	await expect(page.getByRole('link', { name: 'Next →' })).toHaveCount(0);
	await page.getByRole('link', { name: '← Previous' }).first().click();
	await expect(page).toHaveURL(/before=/);
	const beforeLast = (await column(page, 'id')).map(Number);
	expect(beforeLast).toHaveLength(10);
	expect(Math.max(...beforeLast)).toBeLessThan(Math.min(...lastPage));
	await page.getByRole('link', { name: 'First page' }).first().click();
	expect(await column(page, 'id')).toEqual(firstPage);
	await expect(page.getByRole('link', { name: '← Previous' })).toHaveCount(0);

	// Sorting by question: ascending first, then descending; back to page 1.
	await page.getByRole('link', { name: 'Question' }).click();
	await expect(page).toHaveURL(/sort=question&dir=asc/);
	await expect(page).not.toHaveURL(/page=|after=|before=/);
	await expect(page.getByRole('columnheader', { name: /Question/ })).toHaveAttribute(
		'aria-sort',
		'ascending'
	);
	const ascending = await column(page, 'question');
	const byText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });
	expect(ascending[0].localeCompare(ascending[9], 'en', { sensitivity: 'base' })).toBeLessThan(0);
	await page.getByRole('link', { name: /Question/ }).click();
	await expect(page).toHaveURL(/sort=question&dir=desc/);
	const descending = await column(page, 'question');
	const all = [...ascending, ...descending].sort(byText);
	// The first row descending is the last question of all; the first ascending the first.
	expect(descending[0]).toBe(all.at(-1));
	expect(ascending[0]).toBe(all[0]);

	// A filter keeps the sort, starts at page 1, and "Clear" removes it.
	await page.getByLabel('Type').selectOption({ label: 'List' });
	await page.getByRole('button', { name: 'Apply' }).click();
	await expect(page).toHaveURL(/type=list/);
	await expect(page).toHaveURL(/sort=question&dir=desc/);
	await expect(page.getByText(/^3 items/)).toBeVisible();
	expect(await column(page, 'type')).toEqual(['List', 'List', 'List']);
	await page.getByRole('link', { name: 'Clear' }).click();
	await expect(page).not.toHaveURL(/type=/);
	await expect(page.getByText(/^21 items/)).toBeVisible();
});

test('the disputes table filters by status without JavaScript and says when nothing matches', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/verification/disputes');
	await expect(page.getByText('0 disputes')).toBeVisible();
	await expect(page.getByRole('cell', { name: 'No disputes match.' })).toBeVisible();
	await page.getByLabel('Status').selectOption({ label: 'Under review' });
	await page.getByRole('button', { name: 'Apply' }).click();
	await expect(page).toHaveURL(/status=under_review/);
	await expect(page.getByLabel('Status')).toHaveValue('under_review');
	await expect(page.getByRole('link', { name: 'Disputes', exact: true })).toHaveAttribute(
		'aria-current',
		'page'
	);
});
