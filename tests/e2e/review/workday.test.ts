import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, loginAs, test } from '../fixtures';

// A reviewer's working day on a laptop screen: five items by keyboard alone with the decision
// in view, the counters, the lease countdown, the shortcuts list, the passage highlighting, and
// the accessibility scans of the review pages. Each test uses a reviewer of its own.

const LAPTOP = { width: 1366, height: 768 };

test.use({ viewport: LAPTOP, timezoneId: 'Europe/Berlin' });

const counter = (page: Page, name: 'today' | 'week' | 'left') =>
	page.locator(`[data-counter="${name}"]`).first();

async function count(page: Page, name: 'today' | 'week' | 'left'): Promise<number> {
	return Number((await counter(page, name).textContent())!.trim());
}

/** Asserts that a control lies wholly inside the 768 px high window, as the reviewer sees it. */
async function expectInView(control: Locator, what: string) {
	const box = await control.boundingBox();
	expect(box, `${what} is rendered`).not.toBeNull();
	expect(box!.y, `${what} starts inside the window`).toBeGreaterThanOrEqual(0);
	expect(box!.y + box!.height, `${what} ends inside the window`).toBeLessThanOrEqual(LAPTOP.height);
}

/** Serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it is now. */
async function seriousViolations(page: Page) {
	const results = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	return results.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('a reviewer reviews five items by keyboard alone, the decision always in view', async ({
	page
}) => {
	test.setTimeout(90_000);
	await loginAs(page, 'reviewer');
	await page.goto('/review');
	await page.waitForLoadState('networkidle');
	// The counters are the browser's own day and week.
	await expect(page.locator('.about').first()).toContainText('Europe/Berlin time');
	const before = { today: await count(page, 'today'), left: await count(page, 'left') };
	await expect(page.getByRole('button', { name: 'Start reviewing' })).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
	await page.waitForLoadState('networkidle');
	// Holding an item takes it out of what is left.
	expect(await count(page, 'today')).toBe(before.today);
	expect(await count(page, 'left')).toBe(before.left - 1);

	await test.step('the lease counts down on screen', async () => {
		const timer = page.getByRole('timer');
		const first = await timer.textContent();
		expect(first).toMatch(/^(29:5\d|30:00)$/);
		await page.waitForTimeout(2_100);
		expect(await timer.textContent()).not.toBe(first);
	});

	await test.step('? lists every shortcut in a dialog that holds focus and closes with Esc', async () => {
		await page.keyboard.press('?');
		const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
		await expect(dialog).toBeVisible();
		for (const action of [
			'Verdict: correct',
			'GP relevance 1 to 5',
			'Submit from anywhere',
			'Skip this item',
			'Highlight key sentences'
		])
			await expect(dialog).toContainText(action);
		// Letters do nothing meanwhile, and Tab stays inside the dialog.
		await page.keyboard.press('c');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Tab');
		await expect(dialog.locator(':focus')).toHaveCount(1);
		await page.keyboard.press('Escape');
		await expect(dialog).toBeHidden();
		await expect(page.getByLabel(/Correct/)).not.toBeChecked();
	});

	await test.step('H turns the passage highlights off and on', async () => {
		const marks = page.locator('.passage mark');
		const toggle = page.getByRole('button', { name: /Highlight key sentences/ });
		await expect(marks.first()).toBeVisible();
		const text = await page.locator('.passage .text').textContent();
		await page.keyboard.press('h');
		await expect(toggle).toHaveAttribute('aria-pressed', 'false');
		await expect(marks).toHaveCount(0);
		// The same words either way.
		expect(await page.locator('.passage .text').textContent()).toBe(text);
		await page.keyboard.press('h');
		await expect(toggle).toHaveAttribute('aria-pressed', 'true');
		await expect(marks.first()).toBeVisible();
	});

	const judgements = [
		['c', '5'],
		['i', '2'],
		['c', '4'],
		['t', '3'],
		['c', '1']
	] as const;
	for (const [n, [verdictKey, relevanceKey]] of judgements.entries()) {
		await test.step(`item ${n + 1}: judged and submitted from the keyboard, controls in view`, async () => {
			const url = page.url();
			const today = await count(page, 'today');
			const left = await count(page, 'left');
			await page.keyboard.press(verdictKey);
			await page.keyboard.press(relevanceKey);
			const verdict = page.getByRole('group', { name: 'Verdict' });
			const relevance = page.getByRole('group', { name: 'GP relevance' });
			await expect(verdict.locator('input:checked')).toHaveCount(1);
			await expect(relevance.locator(`input[value="${relevanceKey}"]`)).toBeChecked();
			const submit = page.getByRole('button', { name: /Submit and next/ });
			await expectInView(verdict, 'the verdict');
			await expectInView(relevance, 'the GP relevance');
			await expectInView(submit, 'the submit button');
			if (n === 2) {
				// A feedback note, typed and sent with Ctrl+Enter from inside the box.
				await page.keyboard.press('f');
				await expect(page.getByLabel('Feedback note')).toBeFocused();
				await page.keyboard.press('Shift+Tab');
				await expect(page.getByLabel('Feedback category')).toBeFocused();
				await page.keyboard.press('ArrowDown');
				await page.keyboard.press('Tab');
				await page.keyboard.type('Step 2 could cite the passage more precisely.');
				await expectInView(submit, 'the submit button with the note open');
				await page.keyboard.press('Control+Enter');
			} else {
				await page.keyboard.press('Enter');
			}
			await page.waitForURL((u) => u.href !== url);
			await expect(counter(page, 'today')).toHaveText(String(today + 1));
			await expect(counter(page, 'left')).toHaveText(String(Math.max(0, left - 1)));
			await expect(
				page.getByRole('group', { name: 'Verdict' }).locator('input:checked')
			).toHaveCount(0);
		});
	}

	await test.step('a reload counts the same on the server', async () => {
		const shown = { today: await count(page, 'today'), left: await count(page, 'left') };
		expect(shown.today).toBe(before.today + 5);
		await page.reload();
		await page.waitForLoadState('networkidle');
		expect(await count(page, 'today')).toBe(shown.today);
		expect(await count(page, 'week')).toBeGreaterThanOrEqual(shown.today);
		expect(await count(page, 'left')).toBe(shown.left);
		await page.goto('/review');
		await expect(page.locator('main tbody tr')).toHaveCount(before.today + 5);
		await expect(page.getByText('Step 2 could cite the passage more precisely.')).toHaveCount(0);
	});
});

test('the countdown warns before the lease ends, and an expired lease can be reclaimed', async ({
	page
}) => {
	await page.clock.install();
	await loginAs(page, 'reviewer2');
	await page.goto('/review');
	await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
	await page.waitForLoadState('networkidle');
	const lease = page.locator('.lease');
	const announced = lease.locator('[aria-live]');
	await expect(announced).toHaveText('');
	// The demo's leases last 30 minutes: the warning starts 6 minutes before the end.
	await page.clock.fastForward('24:30');
	await expect(lease).toContainText('Submit soon, or extend the lease');
	await expect(announced).toHaveText('Your lease ends in 6 minutes.');
	const warned = await announced.textContent();
	await page.clock.fastForward('00:05');
	// Announced at thresholds, not every second.
	await expect(announced).toHaveText(warned!);
	await page.clock.fastForward('06:00');
	await expect(lease).toContainText('Lease expired');
	await expect(lease).toContainText('your submission will be refused');
	await expect(announced).toHaveText(/has expired/);
	await page.getByRole('button', { name: 'Reclaim this item' }).click();
	await expect(page.getByRole('timer')).toHaveText(/^(29:5\d|30:00)$/);
	await expect(lease).not.toContainText('expired');
	// The reclaimed lease still takes the judgement.
	const url = page.url();
	await page.keyboard.press('c');
	await page.keyboard.press('3');
	await page.keyboard.press('Enter');
	await page.waitForURL((u) => u.href !== url);
	await expect(counter(page, 'today')).toHaveText(/^[1-9]\d*$/);
});

test('on a phone the review screen is one column without sideways scrolling', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	await loginAs(page, 'reviewer3');
	await page.goto('/review');
	await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
	const main = page.locator('main');
	const widths = await main.evaluate((m) => ({ scroll: m.scrollWidth, client: m.clientWidth }));
	expect(widths.scroll).toBeLessThanOrEqual(widths.client);
	const item = await page.getByRole('region', { name: 'The question and answer' }).boundingBox();
	const decision = await page.getByRole('region', { name: 'Your judgement' }).boundingBox();
	expect(decision!.y).toBeGreaterThan(item!.y + item!.height);
});

test('the review pages have no serious or critical accessibility violations', async ({ page }) => {
	test.setTimeout(60_000);
	await loginAs(page, 'reviewer3');
	await page.goto('/review');
	await page.waitForLoadState('networkidle');
	expect(await seriousViolations(page), 'the review landing page').toEqual([]);

	// Start, or continue the item this account may hold already.
	await page
		.locator('main')
		.getByText(/^(Start reviewing|Continue your current item)$/)
		.click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
	await page.waitForLoadState('networkidle');
	expect(await seriousViolations(page), 'the review task page').toEqual([]);
	await page.keyboard.press('f');
	expect(await seriousViolations(page), 'the task page with the note open').toEqual([]);
	await page.keyboard.press('Escape');
	await page.locator('main h1').focus();
	await page.keyboard.press('?');
	await expect(page.getByRole('dialog')).toBeVisible();
	expect(await seriousViolations(page), 'the task page with the shortcuts open').toEqual([]);
	await page.keyboard.press('Escape');

	const url = page.url();
	await page.keyboard.press('c');
	await page.keyboard.press('4');
	await page.keyboard.press('Enter');
	await page.waitForURL((u) => u.href !== url);
	await page.goto('/review');
	await page.locator('main tbody tr a').first().click();
	await expect(page).toHaveURL(/\/review\/history\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	expect(await seriousViolations(page), 'the review history page').toEqual([]);
});
