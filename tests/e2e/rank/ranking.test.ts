import type { Page } from '@playwright/test';
import { demoResponses } from '../../../src/lib/server/demo/demo-data';
import { expect, loginAs, test } from '../fixtures';
import { createOpenStudy, startRanking } from './helpers';

/** The model whose demo response has this text, or "reference" (the blinded gold answer). */
function modelOfText(text: string): string {
	return demoResponses.find((r) => r.response.trim() === text.trim())?.model ?? 'reference';
}

const card = (page: Page, letter: string) =>
	page.getByRole('article', { name: `Response ${letter}`, exact: true });

async function textOf(page: Page, letter: string) {
	return (await card(page, letter).getByRole('region').innerText()).trim();
}

test('two physicians rank by keyboard and by drag and drop; the export has both with the right models', async ({
	browser
}) => {
	test.setTimeout(90_000);
	const name = `E2E ranking ${Date.now()}`;
	const studyId = await createOpenStudy(browser, name);

	// Physician 1: keyboard only.
	const one = await startRanking(browser, 'physician', name);
	let page = one.page;
	await expect(page.getByRole('heading', { name: 'Response D', exact: true })).toBeVisible();
	const firstUrl = page.url();
	await page.getByRole('button', { name: 'Add Response A as rank 1' }).focus();
	for (let i = 0; i < 4; i++) {
		await page.keyboard.press('Enter');
		if (i < 3) await page.keyboard.press('ArrowDown');
	}
	// Response D has focus at rank 4: move it up twice, then give it rank 1 with a digit.
	await page.keyboard.press('Alt+ArrowUp');
	await page.keyboard.press('Alt+ArrowUp');
	await expect(
		page.getByRole('status').filter({ hasText: 'Response D is now rank 2 of 4.' })
	).toBeAttached();
	await page.keyboard.press('1');
	// Type a rank into Response B's card: D, B, A, C.
	await page.getByLabel('Rank of Response B (1 is best)').focus();
	await page.keyboard.press('Control+a');
	await page.keyboard.type('2');
	await page.keyboard.press('Tab');
	await expect(page.getByLabel('Rank of Response B (1 is best)')).toHaveValue('2');
	await expect(page.getByLabel('Rank of Response C (1 is best)')).toHaveValue('4');
	// Tags by keyboard: Space picks "Good", arrows move within the group.
	const tagWith = async (letter: string, rights: number) => {
		await card(page, letter).getByRole('radio', { name: 'Good' }).focus();
		await page.keyboard.press('Space');
		for (let i = 0; i < rights; i++) await page.keyboard.press('ArrowRight');
	};
	await tagWith('D', 0);
	await tagWith('B', 1);
	await tagWith('A', 1);
	await tagWith('C', 2);
	await card(page, 'C').getByText('Comment (optional)').focus();
	await page.keyboard.press('Enter');
	await page.keyboard.press('Tab');
	await page.keyboard.type('keyboard physician comment');
	const keyboardRanks = { D: 1, B: 2, A: 3, C: 4 };
	const keyboardTexts = Object.fromEntries(
		await Promise.all(['A', 'B', 'C', 'D'].map(async (l) => [l, await textOf(page, l)]))
	);
	await page.getByRole('button', { name: 'Submit ranking' }).focus();
	await page.keyboard.press('Enter');
	await expect(page).not.toHaveURL(firstUrl);
	await one.context.close();

	// Physician 2: drag and drop, with an inconsistent tag confirmed.
	const two = await startRanking(browser, 'physician2', name);
	page = two.page;
	const secondUrl = page.url();
	// An incomplete ranking is refused before anything is sent.
	await page.getByRole('button', { name: 'Submit ranking' }).click();
	await expect(page.getByRole('alert')).toContainText('4 of 4 not ranked yet');
	await expect(page).toHaveURL(secondUrl);
	const dropLast = page.locator('ol.ranked li.empty');
	for (let i = 0; i < 4; i++) await page.locator('ul.unranked li').first().dragTo(dropLast);
	await expect(page.getByLabel('Rank of Response D (1 is best)')).toHaveValue('4');
	await page
		.locator('ol.ranked li', { hasText: 'Response D' })
		.dragTo(page.locator('ol.ranked li', { hasText: 'Response A' }));
	await expect(page.getByLabel('Rank of Response D (1 is best)')).toHaveValue('1');
	await expect(page.getByLabel('Rank of Response A (1 is best)')).toHaveValue('2');
	await card(page, 'D').getByRole('radio', { name: 'Bad' }).check();
	for (const l of ['A', 'B', 'C']) await card(page, l).getByRole('radio', { name: 'Okay' }).check();
	await card(page, 'A').getByText('Comment (optional)').click();
	await card(page, 'A').getByRole('textbox').fill('drag physician comment');
	const dragFirstText = await textOf(page, 'D');
	await page.getByRole('button', { name: 'Submit ranking' }).click();
	await expect(page.locator('.alert.warn')).toContainText('Response D is ranked above Response A');
	await page.getByRole('button', { name: 'Submit anyway' }).click();
	await expect(page).not.toHaveURL(secondUrl);
	const dragRanks = { D: 1, A: 2, B: 3, C: 4 };
	await two.context.close();

	// Organiser: the export holds both rankings, each candidate mapped to its model.
	const context = await browser.newContext();
	const organiser = await context.newPage();
	await loginAs(organiser, 'organiser');
	await organiser.goto(`/admin/studies/${studyId}`);
	const response = await organiser.request.get(`/admin/studies/${studyId}/export/json`);
	expect(response.status()).toBe(200);
	const rows = (await response.json()) as Record<string, string | number | null>[];
	expect(rows).toHaveLength(8);
	const byComment = (c: string) => {
		const physician = rows.find((r) => r.comment === c)!.physician;
		return rows.filter((r) => r.physician === physician);
	};
	const keyboardRows = byComment('keyboard physician comment');
	expect(keyboardRows).toHaveLength(4);
	for (const [letter, rank] of Object.entries(keyboardRanks)) {
		const row = keyboardRows.find((r) => r.rank === rank)!;
		// The text shown at that letter is the row's shown text; its raw text is the model's response.
		expect(row.shown_text, `rank ${rank}`).toBe(keyboardTexts[letter]);
		expect(row.model, `rank ${rank}`).toBe(modelOfText(String(row.candidate_text)));
		expect(row.display_position).toBe(letter.charCodeAt(0) - 64);
	}
	expect(keyboardRows.map((r) => r.tag)).toEqual(['okay', 'okay', 'bad', 'good']);
	const dragRows = byComment('drag physician comment');
	expect(dragRows).toHaveLength(4);
	const dragFirst = dragRows.find((r) => r.rank === dragRanks.D)!;
	expect(dragFirst).toMatchObject({ tag: 'bad', display_position: 4, shown_text: dragFirstText });
	expect(dragFirst.model).toBe(modelOfText(String(dragFirst.candidate_text)));
	expect(dragRows.find((r) => r.rank === dragRanks.A)).toMatchObject({ display_position: 1 });
	expect(new Set(dragRows.map((r) => r.model))).toEqual(
		new Set(['clinic-gpt-7b', 'medllama-13b', 'openmed-3b', 'reference'])
	);
	const csv = await (await organiser.request.get(`/admin/studies/${studyId}/export/csv`)).text();
	expect(csv.split('\r\n')[0]).toContain('study,study_id,question_id');
	expect(csv.split('\r\n').filter(Boolean)).toHaveLength(9);
	await context.close();
});
