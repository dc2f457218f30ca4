import { expect, loginAs, test } from '../fixtures';

test.use({ viewport: { width: 1366, height: 768 } });

test('the workload page counts a reviewer’s review and skip of today, and sorts by it', async ({
	page
}) => {
	await loginAs(page, 'reviewer');
	await page.goto('/review');
	await page.waitForLoadState('networkidle');
	await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	// One skip, then one review.
	let url = page.url();
	await page.keyboard.press('s');
	await page.waitForURL((u) => u.href !== url);
	await page.waitForLoadState('networkidle');
	url = page.url();
	await page.keyboard.press('c');
	await page.keyboard.press('4');
	await expect(page.getByLabel(/Correct/)).toBeChecked();
	await page.keyboard.press('Enter');
	await page.waitForURL((u) => u.href !== url);

	await loginAs(page, 'organiser');
	await page.goto('/admin/workload');
	await expect(page.getByRole('heading', { level: 1, name: 'Workload' })).toBeVisible();
	await expect(page.getByText(/this week is ISO week \d{4}-W\d{2}/)).toBeVisible();
	const rob = page.getByRole('row', { name: /Rob Reviewer/ });
	await expect(rob.locator('td.r-today')).toHaveText('1');
	await expect(rob.locator('td.r-week')).toHaveText('1');
	await expect(rob.locator('td.r-median')).toHaveText(/^\s*\d+ (min \d{2} )?s\s*$/);
	// 1 skip ÷ (1 skip + 1 review).
	await expect(rob.locator('td.r-skipped')).toContainText('50 %');
	await expect(rob.locator('td.r-skipped')).toContainText('1 of 2');
	// Their item has no second review yet.
	await expect(rob.locator('td.r-checked')).toContainText('0 of 1');
	// Someone who did nothing says why there is no figure.
	const rita = page.getByRole('row', { name: /Rita Reviewer/ });
	await expect(rita.locator('td.r-median')).toHaveText('— no reviews this week');
	await expect(rita.locator('td.r-skipped')).toHaveText('— nothing reviewed or skipped this week');

	// Sorting by reviews today, most first, puts the one reviewer who worked on top.
	const header = page.getByRole('columnheader', { name: /Reviews today/ });
	await header.getByRole('link').click();
	await expect(header).toHaveAttribute('aria-sort', 'ascending');
	await page
		.getByRole('columnheader', { name: /Reviews today/ })
		.getByRole('link')
		.click();
	await expect(page.getByRole('columnheader', { name: /Reviews today/ })).toHaveAttribute(
		'aria-sort',
		'descending'
	);
	await expect(
		page.locator('section', { hasText: 'Reviewers' }).locator('tbody tr').first()
	).toContainText('Rob Reviewer');
});
