import type { Browser, Page } from '@playwright/test';
import { expect, loginAs, test } from '../fixtures';
import { createOpenStudy } from '../rank/helpers';
import { expectAccessible } from '../support/axe';

// The organiser publishes a consent text, a physician is held at it before any work, asked again
// for a new version, withdraws from a study, and the study's report says what became of their
// judgements. Screenshots of each new page go to the test's output folder (test-results/).
test.use({ viewport: { width: 1366, height: 768 } });

async function shot(page: Page, name: string) {
	await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function signedIn(browser: Browser, account: 'organiser' | 'physician') {
	const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
	const page = await context.newPage();
	await loginAs(page, account);
	return page;
}

async function publish(page: Page, body: string) {
	await page.goto('/admin/consent');
	await page.waitForLoadState('networkidle');
	await page.getByLabel('Title').fill('Information and consent');
	await page.getByLabel('Text (Markdown)').fill(body);
	await page.getByRole('radio', { name: /^Exclude them/ }).check();
	await page.getByRole('button', { name: 'Publish this version' }).click();
}

async function acceptConsent(page: Page) {
	await page.getByLabel(/and agree to take part/).check();
	await page.getByRole('button', { name: 'I agree' }).click();
}

test('consent before work, asked again for a new version; a withdrawal excludes the judgements and the report says so', async ({
	browser
}) => {
	test.setTimeout(180_000);
	const name = `E2E consent ${Date.now()}`;
	const studyId = await createOpenStudy(browser, name);

	// The organiser publishes version 1, whose policy excludes withdrawn judgements.
	const organiser = await signedIn(browser, 'organiser');
	await organiser.goto('/admin/consent');
	await expect(organiser.getByText('No consent text has been published yet')).toBeVisible();
	await expectAccessible(organiser, '/admin/consent (empty)');
	await shot(organiser, 'admin-consent-empty');
	await publish(
		organiser,
		'# Why\nYou judge answers to medical questions.\n\n- Your judgements are recorded\n- You may **withdraw** at any time'
	);
	await expect(organiser.getByRole('status')).toContainText(
		'Version 1 of the portal’s text is published'
	);

	// The physician is sent to the text before any rater page, accepts, and reaches work.
	const physician = await signedIn(browser, 'physician');
	await physician.goto('/rank');
	await expect(physician).toHaveURL(/\/consent\?redirectTo=%2Frank$/);
	await expect(physician.getByRole('heading', { name: 'Information and consent' })).toBeVisible();
	await expect(physician.getByText('version 1, published')).toBeVisible();
	await expect(
		physician.getByRole('listitem').filter({ hasText: 'Your judgements are recorded' })
	).toBeVisible();
	await expect(physician.getByText('are excluded from every figure')).toBeVisible();
	await expectAccessible(physician, '/consent');
	await shot(physician, 'consent');
	await physician.waitForLoadState('networkidle');
	await acceptConsent(physician);
	await expect(physician).toHaveURL(/\/rank$/);
	const card = physician.getByRole('listitem').filter({
		has: physician.getByRole('heading', { name })
	});
	await card.getByRole('button').click();
	await expect(physician).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	await expect(physician.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
	await physician.waitForLoadState('networkidle');

	// One ranking submitted: one judgement in the study.
	const first = physician.url();
	for (const [i, letter] of ['A', 'B', 'C', 'D'].entries()) {
		const rank = physician.getByLabel(`Rank of Response ${letter} (1 is best)`);
		await rank.fill(String(i + 1));
		await rank.press('Tab');
		await physician
			.getByRole('article', { name: `Response ${letter}`, exact: true })
			.getByRole('radio', { name: 'Okay' })
			.check();
	}
	await physician.getByRole('button', { name: 'Submit ranking' }).click();
	await expect(physician).not.toHaveURL(first);
	await expect(physician).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	const question = new URL(physician.url()).pathname;

	// Version 2 asks again, even in the middle of a study; accepting returns to the question.
	await publish(organiser, 'Version two.\n\n- You may **withdraw** at any time');
	await expect(organiser.getByRole('status')).toContainText(
		'Version 2 of the portal’s text is published'
	);
	await physician.reload();
	await expect(physician).toHaveURL(/\/consent\?redirectTo=/);
	await expect(
		physician.getByText('This text has changed since you accepted version 1')
	).toBeVisible();
	await shot(physician, 'consent-v2');
	await physician.waitForLoadState('networkidle');
	await acceptConsent(physician);
	await expect(physician).toHaveURL(new RegExp(`${question}$`));

	// The physician withdraws from the study: the confirmation says what will happen.
	await physician.goto('/rank');
	await card.getByRole('link', { name: 'Withdraw from this study' }).click();
	await expect(physician).toHaveURL(new RegExp(`/rank/withdraw/${studyId}$`));
	await expect(physician.getByRole('heading', { name: `Withdraw from ${name}` })).toBeVisible();
	await expect(
		physician.getByText('your 1 judgement in this study will be excluded')
	).toBeVisible();
	await expect(physician.getByText('the portal’s consent text (version 2)')).toBeVisible();
	await expectAccessible(physician, '/rank/withdraw');
	await shot(physician, 'withdraw-confirm');
	await physician.waitForLoadState('networkidle');
	await physician.getByLabel(/I understand, and I withdraw/).check();
	await physician.getByRole('button', { name: 'Withdraw from this study' }).click();
	await expect(physician.getByRole('status')).toContainText('You withdrew from this study');
	await expect(physician.getByText('Your 1 judgement in this study is excluded')).toBeVisible();
	await expectAccessible(physician, '/rank/withdraw (done)');
	await shot(physician, 'withdraw-done');
	await physician.goto('/rank');
	await expect(card.getByText('You withdrew from this study.')).toBeVisible();
	await expect(card.getByRole('button')).toHaveCount(0);
	await shot(physician, 'rank-list');

	// The organiser's report and study page say the judgements were excluded, and why.
	const sentence =
		'1 rater withdrew: 1 judgement excluded from every figure, as the portal’s consent version 2 says.';
	await organiser.goto(`/admin/agreement?study=${studyId}`);
	await expect(organiser.getByRole('note')).toHaveText(sentence);
	await shot(organiser, 'agreement-notice');
	await organiser.goto(`/admin/studies/${studyId}`);
	await expect(organiser.getByRole('note')).toHaveText(sentence);
	await organiser.goto('/admin/consent');
	await expect(
		organiser.getByRole('table', { name: /Versions of the portal’s text/ }).getByRole('row')
	).toHaveCount(3);
	await expectAccessible(organiser, '/admin/consent');
	await shot(organiser, 'admin-consent');
});
