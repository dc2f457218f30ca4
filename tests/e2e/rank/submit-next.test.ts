import type { Page, Request } from '@playwright/test';
import { DEMO_MODELS } from '../../../src/lib/server/demo/demo-data';
import { expect, test } from '../fixtures';
import { createOpenStudy, startRanking } from './helpers';

const LETTERS = ['A', 'B', 'C', 'D'];
const card = (page: Page, letter: string) =>
	page.getByRole('article', { name: `Response ${letter}`, exact: true });

test('a ranking submitted with JavaScript is one request, and the next question comes back fresh', async ({
	browser
}) => {
	test.setTimeout(60_000);
	const name = `E2E submit and next ${Date.now()}`;
	await createOpenStudy(browser, name);
	const { context, page } = await startRanking(browser, 'physician', name);
	await page.waitForLoadState('networkidle');
	const firstUrl = page.url();

	for (const [i, letter] of LETTERS.entries()) {
		await page.getByLabel(`Rank of Response ${letter} (1 is best)`).fill(String(i + 1));
		await page.getByLabel(`Rank of Response ${letter} (1 is best)`).press('Tab');
		await card(page, letter).getByRole('radio', { name: 'Okay' }).check();
	}
	await expect(page.getByLabel('Rank of Response D (1 is best)')).toHaveValue('4');

	// Every document load and every request the page's code makes from the click on (the
	// browser's own fetch of the favicon after the URL changes is neither).
	const requests: Request[] = [];
	page.on('request', (r) => {
		if (['document', 'fetch', 'xhr'].includes(r.resourceType())) requests.push(r);
	});
	const answered = page.waitForResponse((r) => r.url().includes('?/submit'));
	await page.getByRole('button', { name: 'Submit ranking' }).click();
	const response = await answered;

	await expect(page).not.toHaveURL(firstUrl);
	await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	// The next question's controls start empty: no rank, no tag.
	for (const letter of LETTERS) {
		await expect(page.getByLabel(`Rank of Response ${letter} (1 is best)`)).toHaveValue('');
		await expect(card(page, letter).getByRole('radio', { checked: true })).toHaveCount(0);
	}
	await expect(page.getByRole('alert')).toHaveCount(0);
	await page.waitForLoadState('networkidle');
	expect(
		requests.map((r) => `${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`)
	).toEqual([`POST ${new URL(firstUrl).pathname}?/submit`]);
	// The next question arrives blinded, like the page it replaces.
	const body = (await response.text()).toLowerCase();
	for (const word of [...DEMO_MODELS, 'reference', 'isreference', 'modelid'])
		expect(body).not.toContain(word.toLowerCase());

	// The URL is the next question's own: a reload shows the same question, still unranked.
	const shownText = await card(page, 'A').getByRole('region').innerText();
	await page.reload();
	await expect(card(page, 'A').getByRole('region')).toHaveText(shownText);
	await expect(page.getByLabel('Rank of Response A (1 is best)')).toHaveValue('');

	// Without JavaScript the same form is answered with the redirect to the next question.
	const question = new URL(page.url()).pathname;
	const ids = await page
		.locator('input[name^="rank."]')
		.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name.slice('rank.'.length)));
	const form: Record<string, string> = { idempotencyKey: `no-js-${Date.now()}` };
	ids.forEach((id, i) =>
		Object.assign(form, { [`rank.${id}`]: String(i + 1), [`tag.${id}`]: 'okay' })
	);
	const plain = await page.request.post(`${question}?/submit`, {
		form,
		// What a browser sends for a plain form post.
		headers: { origin: new URL(page.url()).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(plain.status()).toBe(303);
	expect(plain.headers().location).toMatch(/^\/rank\/q\/[a-z2-9]{24}$/);
	expect(plain.headers().location).not.toBe(question);
	await context.close();
});
