import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { dispute, qaItem, qaItemVersion } from '../../../src/lib/server/db/schema';
import { seedDemoJudgements } from '../../../src/lib/server/demo/judgements';
import { createUser } from '../../../src/lib/server/domain/people/users';
import type { E2eAccount } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';

// axe-core on every main page of every role, at the laptop size most users have. The spec's copy
// of the template holds the demo judgements (reviews, adjudications, a closed and an open study,
// a scoring run) and one open dispute, so every detail page has something to show.
test.use({
	viewport: { width: 1366, height: 768 },
	prepareDatabase: {
		async prepare(db) {
			const make = (name: string, role: 'organiser' | 'reviewer' | 'physician') =>
				createUser(db, {
					email: `${name}@a11y.test`,
					displayName: name,
					roles: [role],
					password: 'a11y-e2e-password'
				}).then((u) => u.id);
			const reviewers: [string, string] = [
				await make('a11y-r1', 'reviewer'),
				await make('a11y-r2', 'reviewer')
			];
			await seedDemoJudgements(db, {
				organiser: await make('a11y-organiser', 'organiser'),
				reviewers,
				physicians: [
					await make('a11y-p1', 'physician'),
					await make('a11y-p2', 'physician'),
					await make('a11y-p3', 'physician')
				]
			});
			const [item] = await db
				.select({ id: qaItem.id, versionId: qaItemVersion.id })
				.from(qaItem)
				.innerJoin(qaItemVersion, eq(qaItemVersion.itemId, qaItem.id))
				.limit(1);
			await db.insert(dispute).values({
				itemId: item.id,
				itemVersionId: item.versionId,
				raisedBy: reviewers[0],
				category: 'ambiguous',
				reason: 'The question allows two readings.'
			});
		}
	}
});

// The first test also starts this file's portal, whose database gets the demo judgements and a
// scoring run first: on a busy machine that alone can take most of the default 30 s.
test.describe.configure({ timeout: 120_000 });

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Fails listing every serious or critical violation: rule, impact, element and what to do. */
async function expectAccessible(page: Page, label: string) {
	const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
	const found = results.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.flatMap((v) =>
			v.nodes.map((n) => `${v.id} [${v.impact}] ${n.target.join(' > ')} — ${v.help} (${v.helpUrl})`)
		);
	expect(found, `axe on ${label}:\n${found.join('\n')}`).toEqual([]);
}

/** Opens a page that must exist (a missing route fails here, it is never skipped). */
async function open(page: Page, path: string) {
	const response = await page.goto(path);
	expect(response?.status(), `${path} answers`).toBe(200);
	await page.waitForLoadState('networkidle');
	await expect(page.locator('h1'), `${path} has one h1`).toHaveCount(1);
	await expect(page.locator('main'), `${path} has one main`).toHaveCount(1);
}

/** The first link on `listPath` whose address matches `pattern` (there must be one). */
async function firstLink(page: Page, listPath: string, pattern: RegExp): Promise<string> {
	await open(page, listPath);
	const hrefs = await page
		.locator('main a[href]')
		.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
	const href = hrefs.find((h) => pattern.test(h));
	expect(href, `${listPath} links to a page like ${pattern}`).toBeTruthy();
	return href!;
}

type Target = string | ((page: Page) => Promise<string>);
const ORGANISER_PAGES: [string, Target][] = [
	['home', '/'],
	['overview', '/admin'],
	['items list', '/admin/items'],
	['an item', (p) => firstLink(p, '/admin/items', /^\/admin\/items\/\d+$/)],
	['imports', '/admin/imports'],
	['verification overview', '/admin/verification'],
	['verification settings', '/admin/verification/settings'],
	['adjudication list', '/admin/verification/adjudication'],
	[
		'an adjudication',
		(p) =>
			firstLink(p, '/admin/verification/adjudication', /^\/admin\/verification\/adjudication\/\d+$/)
	],
	['disputes list', '/admin/verification/disputes'],
	[
		'a dispute',
		(p) => firstLink(p, '/admin/verification/disputes', /^\/admin\/verification\/disputes\/\d+$/)
	],
	['feedback', '/admin/verification/feedback'],
	['snapshots', '/admin/verification/snapshots'],
	['agreement', '/admin/agreement'],
	['scoring list', '/admin/scoring'],
	['a scoring run', (p) => firstLink(p, '/admin/scoring', /^\/admin\/scoring\/\d+$/)],
	['studies list', '/admin/studies'],
	['a study', (p) => firstLink(p, '/admin/studies', /^\/admin\/studies\/\d+$/)],
	['people', '/admin/users'],
	['workload', '/admin/workload'],
	['audit log', '/admin/audit']
];

for (const [name, target] of ORGANISER_PAGES) {
	test(`organiser: ${name} has no serious accessibility violation`, async ({ page }) => {
		await loginAs(page, 'organiser');
		const path = typeof target === 'string' ? target : await target(page);
		await open(page, path);
		await expectAccessible(page, `organiser ${name} (${path})`);
	});
}

test('sign-in page has no serious accessibility violation', async ({ page }) => {
	await open(page, '/login');
	await expectAccessible(page, 'login');
});

for (const account of ['reviewer', 'physician'] as E2eAccount[]) {
	test(`${account}: home has no serious accessibility violation`, async ({ page }) => {
		await loginAs(page, account);
		await open(page, '/');
		await expectAccessible(page, `${account} home`);
	});
}

test('reviewer: the landing page and a review task have no serious accessibility violation', async ({
	page
}) => {
	await loginAs(page, 'reviewer');
	await open(page, '/review');
	await expectAccessible(page, 'reviewer landing');
	await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/\d+$/);
	await page.waitForLoadState('networkidle');
	await expectAccessible(page, `review task (${new URL(page.url()).pathname})`);
});

test('physician: the landing page and a ranking question have no serious accessibility violation', async ({
	page
}) => {
	await loginAs(page, 'physician');
	await open(page, '/rank');
	await expectAccessible(page, 'physician landing');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: /open/ }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	await expectAccessible(page, 'ranking question');
});

test('the keyboard reaches main content through the skip link and always shows where it is', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await open(page, '/admin');
	/** The focused element's description and whether it draws a focus indicator. */
	const focused = () =>
		page.evaluate(() => {
			const el = document.activeElement as HTMLElement | null;
			if (!el || el === document.body) return null;
			const style = getComputedStyle(el);
			const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
			return {
				what: `${el.tagName.toLowerCase()} “${(el.textContent ?? '').trim().slice(0, 40)}”`,
				text: (el.textContent ?? '').trim(),
				inMain: Boolean(el.closest('main')),
				visible: outline || style.boxShadow !== 'none'
			};
		});

	await page.keyboard.press('Tab');
	const skip = await focused();
	expect(skip?.text).toBe('Skip to main content');
	expect(skip?.visible, 'the skip link shows its focus').toBe(true);
	await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeInViewport();
	await page.keyboard.press('Enter');
	await page.keyboard.press('Tab');
	const first = await focused();
	expect(first?.inMain, `after the skip link, focus is in main content (${first?.what})`).toBe(
		true
	);

	// Every stop from the top of the page on: the header's links, then main content.
	await page.goto('/admin');
	await page.waitForLoadState('networkidle');
	const missing: string[] = [];
	let stops = 0;
	for (let i = 0; i < 40; i++) {
		await page.keyboard.press('Tab');
		const now = await focused();
		if (!now) break;
		stops++;
		if (!now.visible) missing.push(now.what);
	}
	expect(stops).toBeGreaterThan(10);
	expect(missing, `focused without a visible indicator: ${missing.join(', ')}`).toEqual([]);
});
