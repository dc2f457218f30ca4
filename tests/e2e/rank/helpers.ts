import type { Browser, Page } from '@playwright/test';
import { DEMO_MODELS } from '../../../src/lib/server/demo/demo-data';
import { expect, loginAs } from '../fixtures';

/** Creates and opens a study on the demo content through the organiser pages; returns its id. */
export async function createOpenStudy(
	browser: Browser,
	name: string,
	types: string[] = ['Short answer']
): Promise<number> {
	const context = await browser.newContext();
	const page = await context.newPage();
	await loginAs(page, 'organiser');
	await page.goto('/admin/studies');
	// Ticking boxes before the page has hydrated can be undone by hydration: wait for it.
	await page.waitForLoadState('networkidle');
	await page.getByLabel('Name').fill(name);
	await page
		.getByLabel('Instructions for physicians (Markdown)')
		.fill('Rank the responses **best first**.\n\n- Tag each one\n- Comment when useful');
	for (const model of DEMO_MODELS)
		await page.getByRole('checkbox', { name: new RegExp(`^${model} [(]`) }).check();
	for (const type of types) await page.getByRole('checkbox', { name: type, exact: true }).check();
	// The e2e template has two physician accounts: a study can ask for two per question.
	await page.getByLabel('Physicians per question (k)').fill('2');
	await page.getByRole('button', { name: 'Check eligibility' }).click();
	await expect(page.getByRole('status')).toContainText('eligible questions');
	await page.getByRole('button', { name: 'Create study (draft)' }).click();
	await expect(page).toHaveURL(/\/admin\/studies\/\d+$/);
	const id = Number(new URL(page.url()).pathname.split('/').pop());
	await page.getByRole('button', { name: 'Open (freezes questions)' }).click();
	// The demo models write in recognisable ways: the blinding audit may ask to confirm.
	const opened = page.getByText('The study is now open.');
	const anyway = page.getByRole('button', { name: 'Open anyway' });
	await expect(opened.or(anyway)).toBeVisible();
	if (await anyway.isVisible()) await anyway.click();
	await expect(opened).toBeVisible();
	await context.close();
	return id;
}

/** Signs a new page in and starts (or resumes) the physician's queue in the named study. */
export async function startRanking(
	browser: Browser,
	account: 'physician' | 'physician2',
	study: string
) {
	const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
	const page: Page = await context.newPage();
	await loginAs(page, account);
	await page.goto('/rank');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: study }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	// The shortcuts button is rendered once the page's script runs: a click before that would post
	// the form without the page's checks (on a loaded machine, seconds after the URL changes).
	await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
	return { context, page };
}
