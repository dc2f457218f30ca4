import type { Page } from '@playwright/test';
import type { E2eAccount } from '../support/accounts';
import { MAIN_PAGES_DATABASE, open, ORGANISER_PAGES, type Target } from '../support/pages';
import { expect, loginAs, test } from '../fixtures';

// Every main page of every role loads under the Content-Security-Policy without a violation, and
// hydrates without a mismatch between the server's HTML and the browser's.
test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: MAIN_PAGES_DATABASE });
test.describe.configure({ timeout: 180_000 });

/** Collects what a page reports: CSP violations (as events) and console warnings and errors. */
async function watch(page: Page) {
	const problems: string[] = [];
	page.on('console', (m) => {
		const text = m.text();
		if (/hydration|content security policy|refused to/i.test(text))
			problems.push(`console ${m.type()}: ${text}`);
	});
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (e) =>
			console.error(
				`Refused to load: Content Security Policy ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`
			)
		);
	});
	return problems;
}

/** Opens `path`, checks the policy it was served with, and lets it hydrate. */
async function visit(page: Page, path: string, problems: string[]) {
	const response = page.waitForResponse((r) => new URL(r.url()).pathname === path.split('?')[0]);
	await open(page, path);
	const csp = (await response).headers()['content-security-policy'] ?? '';
	const header = [
		"frame-ancestors 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"object-src 'none'"
	]
		.filter((directive) => !csp.includes(directive))
		.map((directive) => `Content-Security-Policy without ${directive}`);
	if (!/script-src [^;]*'(nonce|sha256)-/.test(csp) || /script-src [^;]*'unsafe-inline'/.test(csp))
		header.push(`scripts not limited to nonces or hashes: ${csp}`);
	// Hydration runs once the page's modules have loaded (`open` waited for the network to rest).
	await page.evaluate(() => new Promise(requestAnimationFrame));
	return [...header, ...problems.splice(0)].map((p) => `${path}: ${p}`);
}

async function walk(page: Page, account: E2eAccount | null, pages: [string, Target][]) {
	const reported = await watch(page);
	if (account) await loginAs(page, account);
	const problems: string[] = [];
	for (const [name, target] of pages) {
		const path = typeof target === 'string' ? target : await target(page);
		reported.splice(0);
		problems.push(...(await visit(page, path, reported)).map((p) => `${name} ${p}`));
	}
	expect(problems, problems.join('\n')).toEqual([]);
}

test('organiser pages: CSP without violations, hydration without mismatches', async ({ page }) => {
	await walk(page, 'organiser', ORGANISER_PAGES);
});

test('sign-in page: CSP without violations, hydration without mismatches', async ({ page }) => {
	await walk(page, null, [['sign in', '/login']]);
});

const startReview = async (page: Page) => {
	await open(page, '/review');
	await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
	return new URL(page.url()).pathname;
};
const startRanking = async (page: Page) => {
	await open(page, '/rank');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: /open/ }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	return new URL(page.url()).pathname;
};

test('reviewer pages: CSP without violations, hydration without mismatches', async ({ page }) => {
	await walk(page, 'reviewer', [
		['home', '/'],
		['review', '/review'],
		['a review task', startReview]
	]);
});

test('physician pages: CSP without violations, hydration without mismatches', async ({ page }) => {
	await walk(page, 'physician', [
		['home', '/'],
		['rank', '/rank'],
		['a ranking question', startRanking]
	]);
});

test('a choice made before the page hydrates is kept, and submitted', async ({ page }) => {
	await loginAs(page, 'organiser');
	// Hold the page's JavaScript back until the organiser has made their choice.
	let release = () => {};
	const released = new Promise<void>((done) => (release = done));
	await page.route('**/_app/immutable/**', async (route) => {
		await released;
		await route.continue();
	});
	await page.goto('/admin/scoring', { waitUntil: 'commit' });
	const mode = page.getByLabel('Mode');
	await mode.selectOption('corrected');
	release();
	await page.waitForLoadState('networkidle');
	await page.evaluate(() => new Promise(requestAnimationFrame));
	await expect(mode).toHaveValue('corrected');
	await page.getByRole('button', { name: 'Start scoring' }).click();
	await expect(page.locator('.badge', { hasText: 'corrected' })).toHaveCount(1);
});
