import { readFileSync } from 'node:fs';
import type { Browser, Page, Request } from '@playwright/test';
import { E2E_ACCOUNTS, type E2eAccount } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';

// The spec runs on its own copy of the demo data (see ../fixtures.ts). The verification cycle is
// one test in steps, since each step is the state the next one needs.

async function pageFor(browser: Browser, account: E2eAccount): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await loginAs(page, account);
	return page;
}

const TYPE_LABELS =
	/True \/ false|Multiple choice|List|Short answer|Short inverse|Multi-hop inverse|Multi-hop/;

test('one verification cycle: seeded sample, keyboard review, blind secondary, adjudication, snapshot', async ({
	browser
}) => {
	test.setTimeout(120_000);
	await test.step('an organiser sends every item to secondary review with a recorded seed', async () => {
		const page = await pageFor(browser, 'organiser');
		await page.goto('/admin/verification/settings');
		// The import drew the default share: 45 % of the 21 demo items.
		await expect(page.locator('.sample').first()).toContainText('45 % of 21 = 9 items');
		// Typing before the page has hydrated can be undone by hydration: wait for it.
		await page.waitForLoadState('networkidle');
		await page.getByLabel('Secondary review share (%)').first().fill('100');
		await page.getByLabel('Seed', { exact: true }).first().fill('e2e-seed');
		await page.getByRole('button', { name: 'Save settings' }).first().click();
		// Nothing is saved before the organiser has seen what the new share and seed do.
		const preview = page.getByRole('region', {
			name: 'Confirm the change of the secondary sample'
		});
		await expect(preview).toContainText('In the sample now: 9 of 21 items');
		await expect(preview).toContainText('After saving: 21 of 21');
		await expect(preview).toContainText(
			'12 items whose primary review is not in yet join the sample.'
		);
		await expect(preview).not.toContainText('go back to awaiting');
		await preview.getByRole('button', { name: 'Confirm and save' }).click();
		await expect(page.getByText('Settings saved.')).toBeVisible();
		await expect(page.locator('.sample').first()).toContainText('100 % of 21 = 21 items');
		await expect(page.getByText(/with seed e2e-seed/)).toBeVisible();
	});

	await test.step('a reviewer reviews three items of different types using only the keyboard', async () => {
		const page = await pageFor(browser, 'reviewer');
		await page.goto('/review');
		await expect(page.getByRole('button', { name: 'Start reviewing' })).toBeFocused();
		await page.keyboard.press('Enter');
		const reviewed = new Set<string>();
		for (let step = 0; reviewed.size < 3 && step < 20; step++) {
			await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
			await expect(page.getByText('Enter').first()).toBeVisible();
			const url = page.url();
			const type = (await page.locator('.qa .badge').first().textContent())!.trim();
			expect(type).toMatch(TYPE_LABELS);
			if (reviewed.has(type)) {
				await page.keyboard.press('s'); // skip: a type already done
			} else {
				await page.keyboard.press('c');
				await page.keyboard.press('5');
				await expect(page.getByLabel(/Correct/)).toBeChecked();
				await expect(page.getByLabel(/Essential/)).toBeChecked();
				const key = await page.locator('input[name="key"]').first().inputValue();
				// With JavaScript, one request submits the review and brings the next item (the
				// browser's own favicon fetch aside: documents and fetches only).
				const requests: string[] = [];
				const count = (r: Request) => {
					if (!['document', 'fetch', 'xhr'].includes(r.resourceType())) return;
					const u = new URL(r.url());
					requests.push(`${r.method()} ${u.pathname}${u.search}`);
				};
				page.on('request', count);
				await page.keyboard.press('Enter');
				reviewed.add(type);
				await page.waitForURL((u) => u.href !== url);
				await expect(page.locator('input[name="key"]').first()).not.toHaveValue(key);
				page.off('request', count);
				expect(requests).toEqual([`POST ${new URL(url).pathname}?/submit`]);
				// The next item starts with a fresh form.
				await expect(page.getByLabel(/Correct/)).not.toBeChecked();
				await expect(page.getByLabel(/Essential/)).not.toBeChecked();
				continue;
			}
			await page.waitForURL((u) => u.href !== url);
		}
		expect(reviewed.size).toBe(3);
		await page.goto('/review');
		await expect(page.locator('tbody tr')).toHaveCount(3);
		// Whether an item is double-checked is not for its primary reviewer to know.
		await expect(page.locator('main')).not.toContainText(/awaiting secondary|sample/i);
		const history = await page.request.get('/review/__data.json');
		expect(await history.text()).not.toMatch(/awaiting_secondary|inSecondarySample|finalVerdict/);
	});

	await test.step('a second reviewer gets the secondary review blind, and disagrees once', async () => {
		const page = await pageFor(browser, 'reviewer2');
		await page.goto('/review');
		await page.getByRole('button', { name: 'Start reviewing' }).click();
		await expect(page.getByText('Independent second review')).toBeVisible();
		// The keys below need the page hydrated: let its modules load and run.
		await page.waitForLoadState('networkidle');
		await page.evaluate(() => new Promise(requestAnimationFrame));
		// Blind: nothing of the first review or its author is on the page.
		const body = await page.locator('main').textContent();
		expect(body).not.toContain(E2E_ACCOUNTS.reviewer.displayName);
		expect(body).not.toMatch(/first review by|P-[A-Z0-9]{6}/);
		await expect(page.getByLabel(/Correct/)).not.toBeChecked();
		let url = page.url();
		await page.keyboard.press('i');
		await page.keyboard.press('2');
		await page.keyboard.press('Enter');
		await page.waitForURL((u) => u.href !== url);
		await expect(page.getByText('Independent second review')).toBeVisible();
		url = page.url();
		await page.keyboard.press('c');
		await page.keyboard.press('5');
		await page.keyboard.press('Enter');
		await page.waitForURL((u) => u.href !== url);
	});

	await test.step('the disagreement reaches the adjudication queue and is resolved', async () => {
		const page = await pageFor(browser, 'organiser');
		await page.goto('/admin/verification/adjudication');
		const rows = page.locator('tbody tr');
		await expect(rows).toHaveCount(1);
		await rows.first().getByRole('link').click();
		await expect(page.getByRole('heading', { name: 'The two reviews' })).toBeVisible();
		const reviews = page.locator('section.card', { hasText: /First review|Second review/ });
		await expect(reviews).toHaveCount(2);
		await expect(reviews.filter({ hasText: 'Incorrect' })).toHaveCount(1);
		await expect(page.locator('main')).not.toContainText(E2E_ACCOUNTS.reviewer.displayName);
		await page.getByRole('link', { name: 'Show reviewer names' }).click();
		await expect(page.locator('main')).toContainText(E2E_ACCOUNTS.reviewer.displayName);
		await expect(page.locator('main')).toContainText(E2E_ACCOUNTS.reviewer2.displayName);
		await page.getByLabel('Correct', { exact: true }).check();
		await page.getByLabel(/5 — Essential/).check();
		await page.getByLabel('Reason').fill('The passage states it plainly.');
		await page.getByRole('button', { name: 'Record decision' }).click();
		await expect(page).toHaveURL(/\/admin\/verification\/adjudication$/);
		await expect(page.getByText('No disagreements are waiting.')).toBeVisible();
	});

	await test.step("the items table shows each item's state apart from its verdict", async () => {
		const page = await pageFor(browser, 'organiser');
		await page.goto('/admin/items?provenance=adjudicated');
		await expect(page.getByRole('columnheader', { name: 'State' })).toBeVisible();
		await expect(page.getByRole('columnheader', { name: 'Outcome' })).toBeVisible();
		const adjudicated = page.locator('main tbody tr');
		await expect(adjudicated).toHaveCount(1);
		await expect(adjudicated.locator('td.status')).toHaveText('done');
		await expect(adjudicated.locator('td.outcome')).toHaveText('verified correct');
		await expect(adjudicated.locator('td.finalVerdict')).toHaveText('Correct');
		// Three first reviews: one agreed, one adjudicated, one still waiting for its second review.
		await page.goto('/admin/items?status=done');
		await expect(page.getByText(/^2 items/)).toBeVisible();
		await page.goto('/admin/items?status=awaiting_secondary&outcome=pending');
		await expect(page.getByText(/^1 item\b/)).toBeVisible();
		await expect(page.locator('main tbody td.outcome')).toHaveText('no verdict yet');
	});

	await test.step('a snapshot of the verified items is frozen and its export downloads', async () => {
		const page = await pageFor(browser, 'organiser');
		await page.goto('/admin/verification/snapshots');
		const name = `e2e snapshot ${Date.now()}`;
		// Hydration restores the field's default name over text typed before it: wait for it.
		await page.waitForLoadState('networkidle');
		await page.getByLabel('Name').first().fill(name);
		await expect(page.getByLabel('Name').first()).toHaveValue(name);
		await page.getByRole('button', { name: 'Freeze snapshot' }).first().click();
		await expect(page.getByText('Snapshot frozen.')).toBeVisible();
		const card = page.locator('.snap', { hasText: name });
		await expect(card).toContainText(/[1-9]\d* items · no relevance threshold/);
		const downloading = page.waitForEvent('download');
		await card.getByRole('link', { name: 'Download export (JSON)' }).click();
		const download = await downloading;
		expect(download.suggestedFilename()).toMatch(/^e2e-snapshot-\d+\.json$/);
		const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
		expect(exported.snapshot.name).toBe(name);
		expect(exported.composition).toHaveLength(7);
		const records = Object.values(exported.files).flat() as { question: string; type: string }[];
		expect(records.length).toBe(exported.snapshot.itemCount);
		expect(records.every((r) => r.question && r.type)).toBe(true);
		// Each record's outcome sits beside it in the wrapper, file by file.
		for (const [file, list] of Object.entries(exported.files) as [string, unknown[]][])
			expect(exported.outcomes[file]).toHaveLength(list.length);
	});
});

test('a dispute is raised from the review screen and rejected by an organiser', async ({
	browser
}) => {
	// Two people's sessions and a dozen pages: past Playwright's default 30 s on a loaded machine.
	test.setTimeout(90_000);
	const reviewer = await pageFor(browser, 'reviewer3');
	await reviewer.goto('/review');
	await reviewer.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(reviewer).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
	const question = (await reviewer.locator('.qa .question').textContent())!.trim();
	const url = reviewer.url();
	await reviewer.getByLabel(/Incorrect/).check();
	await reviewer.getByLabel(/Rarely relevant/).check();
	await reviewer.getByText('Feedback note or formal dispute').click();
	await reviewer.getByLabel('Formal dispute: category').selectOption('not_supported_by_source');
	await reviewer.getByLabel('Dispute reason').fill('The passage does not mention this (e2e).');
	await reviewer.getByRole('button', { name: /Submit and next/ }).click();
	await reviewer.waitForURL((u) => u.href !== url);

	const page = await pageFor(browser, 'organiser');
	// The open dispute holds the item, whatever its verdict.
	await page.goto('/admin/items?held=yes');
	const heldRow = page.locator('main tbody tr', { hasText: question });
	await expect(heldRow.locator('td.outcome')).toHaveText('held');
	await page.goto('/admin/verification/disputes?status=open&category=not_supported_by_source');
	const row = page.locator('tbody tr', { hasText: question });
	await expect(row).toHaveCount(1);
	await row.getByRole('link').click();
	await expect(page.getByText('The passage does not mention this (e2e).')).toBeVisible();
	await page.getByRole('button', { name: 'Start review' }).click();
	await expect(page.getByRole('heading', { name: /Dispute #\d+ Under review/ })).toBeVisible();
	await page.waitForLoadState('networkidle');
	await page.getByLabel(/Why the dispute is rejected/).fill('Paragraph 2 supports the item.');
	await page.getByRole('button', { name: 'Reject the dispute' }).click();
	await expect(page.getByRole('heading', { name: /Dispute #\d+ Rejected/ })).toBeVisible();
	await expect(page.locator('.thread')).toContainText('set status to Rejected');
	await expect(page.getByRole('button', { name: 'Reject the dispute' })).toHaveCount(0);
	await page.goto('/admin/items?held=yes');
	await expect(page.locator('main tbody tr', { hasText: question })).toHaveCount(0);
});

test('without JavaScript, a submission redirects to the next item', async ({ browser }) => {
	const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
	await loginAs(page, 'reviewer3');
	await page.goto('/review');
	const current = page.getByRole('link', { name: 'Continue your current item' });
	if (await current.count()) await current.click();
	else await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
	const url = page.url();
	const key = await page.locator('input[name="key"]').first().inputValue();
	await page.getByLabel(/Correct/).check();
	await page.getByLabel(/Essential/).check();
	const answer = page.waitForResponse((r) => r.request().method() === 'POST');
	await page.getByRole('button', { name: /Submit and next/ }).click();
	expect((await answer).status()).toBe(303);
	await page.waitForURL((u) => u.href !== url && /\/review\/task\/[a-z2-9]{24}/.test(u.pathname));
	await expect(page.locator('input[name="key"]').first()).not.toHaveValue(key);
	await expect(page.getByLabel(/Correct/)).not.toBeChecked();
});
