import { expect, loginAs, test } from '../fixtures';
import { seedJudgementsByNewAccounts } from '../support/judgements';

// A report that is not ready in time shows how far it has got, and the page asks again until it
// is: here no report is waited for (REPORT_WAIT_MS=0), so each is first shown as its progress.
// With JavaScript the page asks by itself; without, the browser reloads it. The demo judgements
// are written into this spec's copy of the template by the demo's own seed.
test.use({
	viewport: { width: 1366, height: 768 },
	portalEnv: { REPORT_WAIT_MS: '0' },
	prepareDatabase: {
		async prepare(db) {
			await seedJudgementsByNewAccounts(db, 'progress');
		}
	}
});

const RANKED = /Computed (just now|\d+ s ago) from \d+ rankings by\s+3 physicians/;

test('a report being computed shows its progress, then itself, with JavaScript', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	// Resamples no other test asks for: nothing of this page is in the cache.
	await page.goto('/admin/agreement?resamples=1001');
	const computing = page.getByRole('status').filter({ hasText: /^Computing/ });
	await expect(computing.first()).toBeVisible();
	await expect(computing.first()).toContainText(/s so far/);
	await expect(computing.first().getByRole('progressbar')).toBeVisible();
	if (process.env.SHOTS_DIR)
		await page.screenshot({ path: `${process.env.SHOTS_DIR}/agreement-progress.png` });
	// Without a reload, the reports replace their progress as they are computed.
	await expect(page.getByText(RANKED)).toBeVisible({ timeout: 30_000 });
	await expect(page.getByText(/Computed (just now|\d+ s ago) from \d+ reviews of/)).toBeVisible();
	await expect(computing).toHaveCount(0, { timeout: 30_000 });
	await expect(page.locator('svg[role="img"][aria-label^="Expert leaderboard"]')).toBeVisible();
});

test('without JavaScript the browser asks again until the reports are there', async ({
	browser
}) => {
	const context = await browser.newContext({
		javaScriptEnabled: false,
		viewport: { width: 1366, height: 768 }
	});
	const page = await context.newPage();
	await loginAs(page, 'organiser');
	await page.goto('/admin/agreement?resamples=999');
	await expect(
		page
			.getByRole('status')
			.filter({ hasText: /^Computing/ })
			.first()
	).toBeVisible();
	await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(1);
	await expect(page.getByText(RANKED)).toBeVisible({ timeout: 30_000 });
	// Everything computed: the page stops asking.
	await expect(page.getByRole('status').filter({ hasText: /^Computing/ })).toHaveCount(0);
	await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
	await context.close();
});
