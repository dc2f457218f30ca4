import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { dispute, qaItem } from '../../../src/lib/server/db/schema';
import { createUser } from '../../../src/lib/server/domain/people/users';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

// An organiser corrects demo items through the correction form: a multiple-choice item by
// keyboard alone, a list item without JavaScript (row editing and errors are round trips), and an
// item under dispute, which the correction upholds.
const SHOTS = process.env.SHOTS_DIR;
const DISPUTE_REASON = 'The question names the wrong drug class.';

test.use({
	prepareDatabase: {
		async prepare(db) {
			const raiser = await createUser(db, {
				email: 'disputer@corrections.test',
				displayName: 'Dana Disputer',
				roles: ['reviewer'],
				password: 'corrections-e2e-password'
			});
			const [item] = await db
				.select({ id: qaItem.id, versionId: qaItem.currentVersionId })
				.from(qaItem)
				.where(eq(qaItem.type, 'short_answer'))
				.orderBy(qaItem.id)
				.limit(1);
			await db.insert(dispute).values({
				itemId: item.id,
				itemVersionId: item.versionId!,
				raisedBy: raiser.id,
				category: 'factually_wrong',
				reason: DISPUTE_REASON
			});
		}
	}
});

async function shoot(page: Page, name: string) {
	if (!SHOTS) return;
	for (const [width, height] of [
		[1366, 768],
		[1920, 1080]
	]) {
		await page.setViewportSize({ width, height });
		await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
	}
	await page.setViewportSize({ width: 1366, height: 768 });
}

/** The first demo item of a type, from the items table. */
async function firstItemOf(page: Page, type: string) {
	await page.goto(`/admin/items?type=${type}&sort=id&dir=asc`);
	const href = await page
		.locator('main tbody tr a[href^="/admin/items/"]')
		.first()
		.getAttribute('href');
	return href!;
}

test.beforeEach(async ({ page }) => {
	// Accessibility scans and several round trips: more than the default 30 s on a busy machine.
	test.setTimeout(120_000);
	await page.setViewportSize({ width: 1366, height: 768 });
	await loginAs(page, 'organiser');
});

test('an organiser corrects a multiple-choice item by keyboard alone and sees the new version', async ({
	page
}) => {
	const href = await firstItemOf(page, 'multiple_choice');
	await page.goto(href);
	await page.waitForLoadState('networkidle');
	await expectAccessible(page);
	const correctLink = page.getByRole('link', { name: 'Correct this item' });
	await correctLink.focus();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('heading', { name: /Correct item/ })).toBeVisible();
	await page.waitForLoadState('networkidle');
	await expectAccessible(page);
	await shoot(page, 'correction-form-mc');

	// The question: select its text and type the new one.
	const question = page.getByLabel('Question', { exact: true });
	await question.focus();
	await page.keyboard.press('Control+A');
	await page.keyboard.type('Which option is the right one, as corrected?');
	// The correct option: the chosen radio, then the arrow key moves the choice to the next option.
	const options = page.getByRole('radio', { name: /is the correct answer/ });
	const checked = await options.evaluateAll((radios) =>
		radios.findIndex((r) => (r as HTMLInputElement).checked)
	);
	expect(checked).toBeGreaterThanOrEqual(0);
	const next = (checked + 1) % 4;
	const nextText = await page.locator(`#f-options-${next}`).inputValue();
	await options.nth(checked).focus();
	await page.keyboard.press(next === 0 ? 'ArrowUp' : 'ArrowDown');
	if (next === 0) for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowUp');
	await expect(options.nth(next)).toBeChecked();
	await page.getByRole('button', { name: 'Preview changes' }).focus();
	await page.keyboard.press('Enter');

	// The preview: the changed fields before → after, the unchanged ones folded away.
	const diff = page.locator('table.diff');
	await expect(page.getByRole('heading', { name: 'Check the changes' })).toBeFocused();
	await expect(diff.getByRole('row', { name: /^Question/ })).toContainText('as corrected');
	await expect(diff.locator('ins', { hasText: 'corrected' }).first()).toBeVisible();
	// The text as seen (the "added"/"removed" words for screen readers left out).
	const seen = await diff
		.getByRole('row', { name: /^Correct option/ })
		.locator('td.after')
		.evaluate((cell) => {
			const copy = cell.cloneNode(true) as HTMLElement;
			copy.querySelectorAll('.sr-only').forEach((n) => n.remove());
			return copy.textContent;
		});
	expect(seen).toBe(`${String.fromCharCode(65 + next)}. ${nextText}`);
	await expect(page.getByText('4 unchanged fields')).toBeVisible();
	await expectAccessible(page);
	await shoot(page, 'correction-preview-mc');

	await page.getByLabel(/Reason for the correction/).focus();
	await page.keyboard.type('The passage supports the other option.');
	await page.keyboard.press('Tab');
	await expect(page.getByRole('button', { name: 'Save version 2' })).toBeFocused();
	await page.keyboard.press('Enter');

	await expect(page).toHaveURL(new RegExp(`${href}\\?corrected=2$`));
	await expect(page.getByRole('status')).toContainText('version 2 is now the item');
	await expect(page.locator('main')).toContainText('Which option is the right one, as corrected?');
	await expect(
		page.getByRole('row', { name: /The passage supports the other option/ })
	).toContainText('correction');

	// The organiser finds the correction on the audit log, by the item it changed.
	const itemId = href.split('/').pop()!;
	await page.goto(`/admin/audit?objectType=qa_item&objectId=${itemId}`);
	const rows = page.locator('main tbody tr');
	await expect(rows.filter({ hasText: 'Item corrected' })).toHaveCount(1);
	await expect(rows.filter({ hasText: 'Item corrected' })).toContainText('Eve Organiser');
	await expect(rows.filter({ hasText: 'Item corrected' })).toContainText('as corrected');
	await expectAccessible(page);
});

test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false });

	test('a list item: rows are added and removed by round trips; an error names the field and keeps the values', async ({
		page
	}) => {
		const href = await firstItemOf(page, 'list');
		await page.goto(`${href}/correct`);
		const answers = page.locator('input[name="answers"]');
		const before = await answers.count();
		await page
			.getByLabel('Question', { exact: true })
			.fill('Which of these are listed, corrected?');
		// A new, empty answer row (the server adds it and returns the form as typed).
		await page.getByRole('button', { name: 'Add answer' }).click();
		await expect(answers).toHaveCount(before + 1);
		await expect(page.getByLabel('Question', { exact: true })).toHaveValue(
			'Which of these are listed, corrected?'
		);
		await answers.nth(before).fill('Not an option at all');
		await page.getByRole('button', { name: 'Preview changes' }).click();

		const error = page.locator(`#f-answers-${before}-error`);
		await expect(error).toHaveText(`Correct answer ${before + 1} is not among the options.`);
		await expect(answers.nth(before)).toHaveAttribute('aria-invalid', 'true');
		await expect(answers.nth(before)).toHaveValue('Not an option at all');
		await expect(page.getByLabel('Question', { exact: true })).toHaveValue(
			'Which of these are listed, corrected?'
		);
		await shoot(page, 'correction-form-error');

		// Removing the bad row makes the form valid; the preview shows the question changed.
		await page.getByRole('button', { name: `Remove Correct answer ${before + 1}` }).click();
		await expect(answers).toHaveCount(before);
		await page.getByRole('button', { name: 'Preview changes' }).click();
		await expect(page.locator('table.diff').getByRole('row', { name: /^Question/ })).toContainText(
			'corrected'
		);
		// Saving without a reason is refused beside the reason (blanks are no reason).
		await page.getByLabel(/Reason for the correction/).fill('   ');
		await page.getByRole('button', { name: 'Save version 2' }).click();
		await expect(page.locator('#reason-error')).toHaveText('Give the reason.');
		await page.getByLabel(/Reason for the correction/).fill('Clearer wording.');
		await page.getByRole('button', { name: 'Save version 2' }).click();
		await expect(page).toHaveURL(/\?corrected=2$/);
		await expect(page.locator('main')).toContainText('Which of these are listed, corrected?');
	});
});

test('a correction from a dispute upholds it, with the reason as its decision', async ({
	page
}) => {
	await page.goto('/admin/verification/disputes');
	await page
		.getByRole('link', { name: /^#\d+$/ })
		.first()
		.click();
	await expect(page.locator('blockquote')).toHaveText(DISPUTE_REASON);
	await page.getByRole('button', { name: 'Start review' }).click();
	await page.waitForLoadState('networkidle');
	await expectAccessible(page);
	await page.getByRole('link', { name: 'Uphold with a correction…' }).click();
	await expect(page.getByText(/Saving upholds dispute #\d+/)).toBeVisible();
	await page.waitForLoadState('networkidle');
	const answer = page.getByLabel('Answer', { exact: true });
	const original = await answer.inputValue();
	// An empty answer is refused beside the field, the other values kept, focus on the field.
	await answer.fill('');
	await page.getByRole('button', { name: 'Preview changes' }).click();
	await expect(page.locator('#f-answer-error')).toHaveText('Answer must not be empty.');
	await expect(answer).toBeFocused();
	await expectAccessible(page);
	await answer.fill(`${original} (corrected after the dispute)`);
	await page.getByRole('button', { name: 'Preview changes' }).click();
	await expect(page.locator('table.diff ins')).toContainText('corrected after the dispute');
	await page.getByLabel(/Reason for the correction/).fill('Upheld: the answer needed its context.');
	await page.getByRole('button', { name: 'Save and uphold the dispute' }).click();

	await expect(page).toHaveURL(/\/admin\/verification\/disputes\/\d+$/);
	await expect(page.locator('h1')).toContainText('Upheld');
	await expect(page.locator('main')).toContainText('Upheld: the answer needed its context.');
	await expect(page.locator('main')).toContainText('(corrected after the dispute)');
	await expectAccessible(page);
});
