// An organiser excludes one day of a physician's work with a reason at 1366×768: the exclusions
// page lists it with how many judgements it takes out, the agreement page says how many were
// excluded and why, and revoking puts them back. axe-core on the exclusions page; a screenshot.
import AxeBuilder from '@axe-core/playwright';
import { sql } from 'drizzle-orm';
import { seedJudgedPairwiseStudy } from '../../../src/lib/server/fixtures/pairwise-report';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';

const STUDY = 'Exclusion e2e study';
/** The fixture's first physician (fixed id), Dr Ada Pairwise. */
const RATER = 'pairwise-physician-1';
const SHOTS = process.env.SHOTS_DIR;

/** A judged pairwise study; five of Dr Ada's judgements submitted on 20 November, the rest a day later. */
const JUDGED: PrepareDatabase = {
	async prepare(db) {
		await seedJudgedPairwiseStudy(db, { name: STUDY, questions: 3 });
		await db.execute(sql`
			with mine as (
				select a.id, row_number() over (order by a.id) as n from assignment a
				where a.physician_id = ${RATER} and a.state = 'submitted'
			), dated as (
				update assignment a set submitted_at = case when m.n <= 5
					then timestamptz '2026-11-20 10:00:00+00' else timestamptz '2026-11-21 10:00:00+00' end
				from mine m where a.id = m.id
				returning a.id, a.submitted_at
			)
			update pairwise_judgement j set submitted_at = d.submitted_at
			from dated d where j.assignment_id = d.id`);
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: JUDGED });
test.describe.configure({ timeout: 120_000 });

test('an organiser excludes one day of a physician’s judgements, reads the count on the agreement page, and revokes it', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/users');
	await page.locator(`a[href="/admin/users/${RATER}/exclusions"]`).first().click();
	await expect(page.getByRole('heading', { level: 1 })).toContainText('Dr Ada Pairwise');
	await expect(page.getByText('No exclusions.')).toBeVisible();

	const form = page.locator('form[action="?/exclude"]');
	await form.getByLabel('Studies').selectOption({ label: `${STUDY} (18 judgements)` });
	await form.getByLabel('First day (optional)').fill('2026-11-20');
	await form.getByLabel('Last day (optional)').fill('2026-11-20');
	await expect(form.getByText('From 00:00 UTC of this day')).toBeVisible();
	await form.getByLabel('Reason').fill('Rushed through a night shift');
	await form.getByRole('button', { name: 'Exclude judgements' }).click();
	await expect(page.getByRole('status')).toContainText('the judgements leave every statistic');
	const row = page.locator('tbody tr').first();
	await expect(row).toContainText(STUDY);
	await expect(row).toContainText('2026-11-20 00:00 UTC – 2026-11-21 00:00 UTC');
	await expect(row.locator('td').nth(1)).toHaveText('5');
	await expect(row).toContainText('Standing');

	const axe = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	expect(
		axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
	).toEqual([]);
	if (SHOTS) await page.screenshot({ path: `${SHOTS}/exclusions-1366x768.png`, fullPage: true });

	await page.goto('/admin/agreement');
	const studyId = await page
		.locator('select[name=study] option', { hasText: STUDY })
		.getAttribute('value');
	await page.goto(`/admin/agreement?study=${studyId}`);
	await expect(page.getByTestId('excluded-study')).toHaveText(
		'5 judgements of 1 rater excluded (reasons: Rushed through a night shift). Gold questions never count.'
	);
	if (SHOTS) await page.screenshot({ path: `${SHOTS}/exclusions-agreement-1366x768.png` });

	await page.goto(`/admin/users/${RATER}/exclusions`);
	await page.getByLabel(/Why exclusion \d+ is revoked/).fill('Shift log checked: fine');
	await page.getByRole('button', { name: /Revoke exclusion/ }).click();
	await expect(page.getByRole('status')).toContainText('its judgements count again');
	await expect(page.locator('tbody tr').first()).toContainText('Revoked');

	await page.goto(`/admin/agreement?study=${studyId}`);
	await expect(page.getByTestId('excluded-study')).toHaveText(
		'No judgements excluded. Gold questions never count.'
	);
});
