// What every spec imports instead of @playwright/test: `test` runs against a portal of the spec
// file's own (a fresh copy of the template database, see support/portal.ts), and `loginAs` signs a
// page in with a session made directly in that database.
import { test as base, type Page } from '@playwright/test';
import type { E2eAccount } from './support/accounts';
import { startPortal, type Portal, type PrepareDatabase } from './support/portal';
import { readTemplate } from './support/template';

export { expect } from '@playwright/test';

// The portal of the spec file this worker is running; a worker runs one file's tests together.
let current: { file: string; portal: Portal } | null = null;

export const test = base.extend<
	{ portal: Portal; prepareDatabase: PrepareDatabase | null; portalEnv: Record<string, string> },
	{ portalCleanup: void }
>({
	// A spec file's extra state (`test.use({ prepareDatabase })`), written before its portal starts.
	prepareDatabase: [null, { option: true }],
	// A spec file's extra server environment (`test.use({ portalEnv })`), e.g. ADDRESS_HEADER.
	portalEnv: [{}, { option: true }],
	portalCleanup: [
		// Playwright reads a fixture's dependencies from its destructuring: none here.
		// eslint-disable-next-line no-empty-pattern
		async ({}, use) => {
			await use();
			await current?.portal.stop();
			current = null;
		},
		{ scope: 'worker', auto: true }
	],
	portal: async ({ prepareDatabase, portalEnv }, use, testInfo) => {
		if (current?.file !== testInfo.file) {
			await current?.portal.stop();
			current = null;
			current = {
				file: testInfo.file,
				portal: await startPortal(readTemplate(), prepareDatabase, portalEnv)
			};
		}
		await use(current.portal);
	},
	baseURL: async ({ portal }, use) => use(portal.url)
});

/** Signs a page in as one of the e2e accounts by setting the session cookie created at setup. */
export async function loginAs(page: Page, account: E2eAccount): Promise<void> {
	const token = readTemplate().sessions[account];
	if (!current)
		throw new Error('loginAs runs inside a test of ../fixtures (it needs the spec portal)');
	const url = current.portal.url;
	await page.context().clearCookies();
	await page
		.context()
		.addCookies([{ name: 'session', value: token, url, httpOnly: true, sameSite: 'Lax' }]);
}
