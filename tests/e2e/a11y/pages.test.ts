import { eq } from 'drizzle-orm';
import { user } from '../../../src/lib/server/db/schema';
import { openEvidenceStudy, seedEvidenceSet } from '../../../src/lib/server/fixtures/evidence';
import { E2E_ACCOUNTS, type E2eAccount } from '../support/accounts';
import { MAIN_PAGES_DATABASE, open, ORGANISER_PAGES } from '../support/pages';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const EVIDENCE_STUDY = 'Evidence a11y study';

/** The main pages' database and an open evidence study (one cited document never imported). */
const A11Y_DATABASE: PrepareDatabase = {
	async prepare(db) {
		await MAIN_PAGES_DATABASE.prepare(db);
		const [organiser] = await db
			.select({ id: user.id })
			.from(user)
			.where(eq(user.email, E2E_ACCOUNTS.organiser.email));
		const seed = await seedEvidenceSet(db, {
			questions: 1,
			runs: ['a11y-evidence-run'],
			missing: true
		});
		await openEvidenceStudy(db, seed, organiser.id, { name: EVIDENCE_STUDY });
	}
};

// axe-core on every main page of every role, at the laptop size most users have, on a database
// where every detail page has something to show (support/pages.ts).
test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: A11Y_DATABASE });

// The first test also starts this file's portal, whose database gets the demo judgements and a
// scoring run first: on a busy machine that alone can take most of the default 30 s.
test.describe.configure({ timeout: 120_000 });

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
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
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
	await open(page, '/rank');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: /rubric study/ }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/rubric\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	await expectAccessible(page, 'rubric question');
});

test('physician: the evidence screen, fresh and with an assertion being judged, has no serious accessibility violation', async ({
	page
}) => {
	await loginAs(page, 'physician');
	await open(page, '/rank');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: EVIDENCE_STUDY }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/evidence\/[a-z2-9]{24}$/);
	await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
	await page.waitForLoadState('networkidle');
	await expectAccessible(page, 'evidence screen, new answer');
	// The answer answers the question, sentence 1 is interpretable, its first word an assertion.
	for (const key of ['y', 'y', 'Enter']) await page.keyboard.press(key);
	await expect(page.getByRole('region', { name: 'Assertion 1' })).toBeVisible();
	await expectAccessible(page, 'evidence screen, an assertion being judged');
	await page.keyboard.press('?');
	await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
	await expectAccessible(page, 'evidence screen, shortcuts');
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
