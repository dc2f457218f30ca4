// The rater-quality dashboard at 1366×768, as an organiser reads it: a pairwise study judged by a
// careful physician, one who always prefers the left answer and one who judges in 3 seconds
// (src/lib/server/fixtures/rater-quality.ts), one question's pairs made gold afterwards; the two
// are flagged, the careful one is not; axe-core.
import AxeBuilder from '@axe-core/playwright';
import { seedRaterQualityStudy } from '../../../src/lib/server/fixtures/rater-quality';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';

const PREPARED: PrepareDatabase = {
	async prepare(db) {
		await seedRaterQualityStudy(db, { questions: 7, gold: 1 });
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
