// The rater-quality dashboard at 1366×768, as an organiser reads it: a pairwise study judged by a
// careful physician, one who always prefers the left answer and one who judges in 3 seconds
// (src/lib/server/fixtures/rater-quality.ts), one question's pairs made gold afterwards; the two
// are flagged, the careful one is not; then the reviewers of a dataset, on the same page; axe-core.
import AxeBuilder from '@axe-core/playwright';
import { qaItem } from '../../../src/lib/server/db/schema';
import { PAIRS, addReview } from '../../../src/lib/server/fixtures/agreement-known';
import { seedRaterQualityStudy } from '../../../src/lib/server/fixtures/rater-quality';
import { validRecord } from '../../../src/lib/server/fixtures/records';
import { seedUsers } from '../../../src/lib/server/fixtures/review';
import { importQaFiles } from '../../../src/lib/server/domain/imports/qa-import';
import { inArray } from 'drizzle-orm';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';

const PREPARED: PrepareDatabase = {
	async prepare(db) {
		await seedRaterQualityStudy(db, { questions: 7, gold: 1 });
		// A dataset whose six QA pairs two reviewers reviewed (primary, then secondary).
		const records = PAIRS.map((_, i) => validRecord('short_answer', 9100 + i));
		await importQaFiles(db, [{ fileName: 'reviews.json', text: JSON.stringify(records) }], {
			actor: { userId: null, label: 'dashboard e2e' },
			dataset: 'Dashboard reviews'
		});
		const items = await db
			.select({ id: qaItem.id })
			.from(qaItem)
			.where(
				inArray(
					qaItem.question,
					records.map((r) => String(r.question))
				)
			)
			.orderBy(qaItem.id);
		const [first, second] = await seedUsers(db, 2);
		for (const [i, [v1, v2, r1, r2]] of PAIRS.entries()) {
			await addReview(db, items[i].id, 'primary', first.id, v1, r1);
			await addReview(db, items[i].id, 'secondary', second.id, v2, r2);
		}
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: PREPARED });
test.describe.configure({ timeout: 120_000 });

test('an organiser opens /admin/raters and sees the flagged raters', async ({ page }) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/raters');
	await expect(page.getByRole('heading', { name: 'Rater quality' })).toBeVisible();
	const option = page.locator('select[name=study] option', {
		hasText: 'Chest pain triage (pairwise)'
	});
	const studyId = await option.getAttribute('value');
	await page.goto(`/admin/raters?study=${studyId}`);
	await expect(page.getByText('No gold checks yet')).toHaveCount(0);

	const raters = page.locator('section[aria-labelledby=raters] tbody tr');
	await expect(raters).toHaveCount(3);
	const row = (pseudonym: string) => raters.filter({ hasText: pseudonym });
	await expect(row('R-LEFT').locator('.badge', { hasText: 'prefers the left answer' })).toHaveCount(
		1
	);
	await expect(row('R-LEFT')).toContainText('left 100 %');
	await expect(row('R-QUICK').locator('.badge')).toHaveText([/^36 of 36 judgements faster than/]);
	await expect(row('R-STEADY').locator('.badge')).toHaveCount(0);
	await expect(row('R-STEADY')).toContainText('100 %');
	await expect(row('R-LEFT').getByRole('link', { name: 'R-LEFT' })).toHaveAttribute(
		'href',
		'/admin/users/quality-leftward'
	);
	const places = page.locator('section[aria-labelledby=places] tbody tr');
	await expect(places).toHaveCount(2);
	await expect(page.getByRole('img', { name: /per rater, with 95 % intervals/ })).toBeVisible();

	const results = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	const found = results.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' > ')} — ${v.help}`));
	expect(found).toEqual([]);
	if (process.env.SHOTS_DIR)
		await page.screenshot({
			path: `${process.env.SHOTS_DIR}/raters-dashboard.png`,
			fullPage: true
		});
});

test("an organiser reads the reviewers' figures of a dataset", async ({ page }) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/raters');
	const option = page.locator('#dataset option', { hasText: 'Dashboard reviews' });
	await expect(option).toHaveText('Dashboard reviews (12 reviews)');
	await page.getByLabel('Reviewers of').selectOption((await option.getAttribute('value'))!);
	await page
		.getByLabel('Reviewers of')
		.locator('xpath=..')
		.getByRole('button', { name: 'Show' })
		.click();
	await expect(page).toHaveURL(/dataset=\d+/);
	await expect(page.getByText('2 reviewers on Dashboard reviews')).toBeVisible();
	await expect(page.locator('p.notice')).toContainText(
		"Gold accuracy is the reviewer's on the hidden gold checks of the review queue"
	);
	// Checks are off here: each reviewer's gold accuracy says so instead of a number.
	await expect(
		page.getByText('hidden gold checks are off in the review queue').first()
	).toBeVisible();
	const rows = page.locator('section[aria-labelledby=raters] tbody tr');
	await expect(rows).toHaveCount(2);
	// Cohen's kappa of 44/116 on the twelve pairs of labels (see the domain test).
	for (const row of await rows.all()) await expect(row).toContainText('0.38');
	// Reviewers are held in the review queue as a whole, not in a study.
	await expect(
		page.locator('section#holds').getByRole('heading', { name: 'Pause or retrain a reviewer' })
	).toBeVisible();
	const results = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	expect(
		results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
	).toEqual([]);
	if (process.env.SHOTS_DIR)
		await page.screenshot({
			path: `${process.env.SHOTS_DIR}/raters-reviewers.png`,
			fullPage: true
		});
});
