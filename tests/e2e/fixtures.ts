import { readFileSync } from 'node:fs';
import { test, type Page } from '@playwright/test';
import { SESSIONS_FILE, type E2eAccount } from './accounts';

export { expect, test } from '@playwright/test';

/** Signs a page in as one of the e2e accounts by setting the session cookie created at setup. */
export async function loginAs(page: Page, account: E2eAccount): Promise<void> {
	const sessions = JSON.parse(readFileSync(SESSIONS_FILE, 'utf8')) as Record<string, string>;
	const url = test.info().project.use.baseURL!;
	await page.context().clearCookies();
	await page
		.context()
		.addCookies([
			{ name: 'session', value: sessions[account], url, httpOnly: true, sameSite: 'Lax' }
		]);
}
