// A physician's working day on the ranking screen at 1366×768, by keyboard alone: rank and tag
// every answer, mark an error type, compare two answers, read the shortcuts, submit; the organiser
// finds the error type counted for the right model. Accessibility scans on each page on the way.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, loginAs, test } from '../fixtures';
import { createOpenStudy } from './helpers';

/** Serious and critical accessibility violations of the page as it is now. */
async function seriousViolations(page: Page) {
	const result = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	return result.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function noHorizontalOverflow(page: Page) {
	const { scroll, client } = await page.evaluate(() => ({
		scroll: document.documentElement.scrollWidth,
		client: document.documentElement.clientWidth
	}));
	expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
}

/** Presses Tab until `target` has focus (keyboard only), failing after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 40) {
	for (let i = 0; i < max; i++) {
		if (await target.evaluate((el) => el === document.activeElement)) return;
		await page.keyboard.press('Tab');
	}
	throw new Error('Tab never reached the control');
}

test('a physician ranks, tags and marks an error type by keyboard alone; the organiser sees it counted for the right model', async ({
	browser
}) => {
	test.setTimeout(120_000);
	const name = `E2E workday ${Date.now()}`;
	const studyId = await createOpenStudy(browser, name);

	const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
	const page = await context.newPage();
	await loginAs(page, 'physician');
	await page.goto('/rank');
	await page.waitForLoadState('networkidle');
	expect(await seriousViolations(page), '/rank').toEqual([]);
	const start = page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name }) })
		.getByRole('button');
	await tabTo(page, start);
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	const firstUrl = page.url();

	await expect(page.getByLabel('Your progress')).toContainText('Question 1 of');
	await noHorizontalOverflow(page);
	// "Response D" stays on one line in the sidebar.
	const line = page.locator('.rank-list .handle').filter({ hasText: 'Response D' });
	const height = await line.evaluate((el) => el.getBoundingClientRect().height);
	const lineHeight = await line.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
	expect(height).toBeLessThan(lineHeight * 1.9);
	expect(await seriousViolations(page), 'ranking screen').toEqual([]);

	const card = (letter: string) =>
		page.getByRole('article', { name: `Response ${letter}`, exact: true });
	const letters = ['A', 'B', 'C', 'D'];
	// Ranked in display order; tags agree with the order, so no confirmation is asked.
	const plan: Record<string, { tag: string; errorKey?: string; error?: string }> = {
		A: { tag: 'g' },
		B: { tag: 'o', errorKey: 'm', error: 'Omission' },
		C: { tag: 'b', errorKey: 'i', error: 'Intrinsic hallucination' },
		D: { tag: 'b' }
	};
	for (const [i, letter] of letters.entries()) {
		await page.keyboard.press(i === 0 ? 'j' : 'j');
		await expect(card(letter)).toBeFocused();
		await page.keyboard.press(String(i + 1));
		await page.keyboard.press(plan[letter].tag);
		if (plan[letter].errorKey) await page.keyboard.press(plan[letter].errorKey!);
	}
	for (const [i, letter] of letters.entries())
		await expect(card(letter).getByText(`Rank ${i + 1} of 4`, { exact: true })).toBeVisible();
	await expect(card('A').getByRole('radio', { name: 'Good' })).toBeChecked();
	await expect(card('B').getByRole('radio', { name: 'Okay' })).toBeChecked();
	await expect(card('C').getByRole('radio', { name: 'Bad' })).toBeChecked();
	await expect(card('C').getByRole('checkbox', { name: 'Intrinsic hallucination' })).toBeChecked();
	await expect(card('B').getByRole('checkbox', { name: 'Omission' })).toBeChecked();
	// A good answer has no error types to mark.
	await expect(card('A').getByRole('checkbox')).toHaveCount(0);
	// Letter keys type in a text field: the comment gets "gob", the tags stay.
	await card('D').getByText('Comment (optional)').focus();
	await page.keyboard.press('Enter');
	await page.keyboard.press('Tab');
	await page.keyboard.type('gob');
	await expect(card('D').getByRole('textbox')).toHaveValue('gob');
	await expect(card('D').getByRole('radio', { name: 'Bad' })).toBeChecked();
	await expect(card('D').getByRole('radio', { name: 'Good' })).not.toBeChecked();

	// Compare C and D side by side, by keyboard; C goes below D from there; Esc returns.
	await page.keyboard.press('Shift+Tab');
	await page.keyboard.press('k');
	await expect(card('C')).toBeFocused();
	await page.keyboard.press('c');
	await page.keyboard.press('j');
	await page.keyboard.press('c');
	const compare = page.getByRole('dialog', { name: 'Compare Response C and Response D' });
	await expect(compare).toBeVisible();
	await expect(
		compare.getByRole('region', { name: 'Text of Response C (compared)' })
	).toBeVisible();
	await noHorizontalOverflow(page);
	expect(await seriousViolations(page), 'compare mode').toEqual([]);
	await tabTo(page, compare.getByRole('button', { name: 'Rank Response D above Response C' }));
	await page.keyboard.press('Enter');
	await expect(compare.getByText('Rank 3 of 4', { exact: true })).toBeVisible();
	await page.keyboard.press('Escape');
	await expect(compare).toBeHidden();
	await expect(card('D').getByText('Rank 3 of 4', { exact: true })).toBeVisible();
	await expect(card('C').getByText('Rank 4 of 4', { exact: true })).toBeVisible();

	// The shortcuts overlay lists every key, traps focus, closes with Esc.
	await page.keyboard.press('?');
	const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
	await expect(overlay).toBeVisible();
	for (const key of ['G', 'O', 'B', 'I', 'E', 'M', 'X', 'J', 'K', 'C', 'Ctrl+Enter', 'Esc'])
		await expect(
			overlay.locator('kbd', { hasText: new RegExp(`^${key.replace('+', '\\+')}$`) })
		).toHaveCount(1);
	for (let i = 0; i < 4; i++) {
		await page.keyboard.press('Tab');
		expect(await overlay.evaluate((d) => d.contains(document.activeElement))).toBe(true);
	}
	expect(await seriousViolations(page), 'shortcuts overlay').toEqual([]);
	await page.keyboard.press('Escape');
	await expect(overlay).toBeHidden();

	const textOf = async (letter: string) =>
		(await card(letter).getByRole('region').innerText()).trim();
	const omissionText = await textOf('B');
	const intrinsicText = await textOf('C');
	await page.keyboard.press('Control+Enter');
	await expect(page).not.toHaveURL(firstUrl);
	await expect(page.getByLabel('Your progress')).toContainText('1 ranked so far');
	await context.close();

	// The organiser's study page counts the error types for the right models.
	const organiser = await browser.newContext({ viewport: { width: 1366, height: 768 } });
	const admin = await organiser.newPage();
	await loginAs(admin, 'organiser');
	// Which model wrote the answers shown as B and C: the export says, with their error types.
	const exported = (await (
		await admin.request.get(`/admin/studies/${studyId}/export/json`)
	).json()) as { shown_text: string; model: string; error_types: string[] }[];
	const rowOf = (text: string) => exported.find((r) => r.shown_text.trim() === text)!;
	expect(rowOf(omissionText).error_types).toEqual(['omission']);
	expect(rowOf(intrinsicText).error_types).toEqual(['intrinsic_hallucination']);
	const omissionModel = rowOf(omissionText).model;
	const intrinsicModel = rowOf(intrinsicText).model;
	await admin.goto(`/admin/studies/${studyId}`);
	const table = admin.getByRole('region', { name: 'Tags and error types per model', exact: true });
	const headers = await table.getByRole('columnheader').allInnerTexts();
	const cell = async (model: string, column: string) =>
		(
			await table
				.getByRole('row')
				.filter({ has: admin.getByRole('rowheader', { name: model, exact: true }) })
				.getByRole('cell')
				.nth(headers.indexOf(column) - 1)
				.innerText()
		).trim();
	expect(await cell(intrinsicModel, 'Intrinsic hallucination')).toBe('1');
	expect(await cell(omissionModel, 'Omission')).toBe('1');
	expect(await cell(intrinsicModel, 'Ranked answers')).toBe('1');
	expect(await cell(omissionModel, 'Okay')).toMatch(/^1\b/);
	await noHorizontalOverflow(admin);
	expect(await seriousViolations(admin), 'study page').toEqual([]);
	await organiser.close();
});
