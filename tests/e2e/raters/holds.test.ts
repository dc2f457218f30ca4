// Acting on a flagged rater, at 1366×768: the organiser sends a physician who missed their hidden
// gold checks to retraining from the rater-quality page; the physician goes through each missed
// check (question, answers by letter, expected labels beside theirs, why) and resumes; the
// organiser then pauses them, the study refuses them work, and lifting the pause gives it back.
// axe-core on the retraining page and the organiser's section.
import type { Page } from '@playwright/test';
import { accountId, judgeAllBad, seedGoldStudy } from './gold-study';
import { E2E_ACCOUNTS } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

test.describe.configure({ timeout: 180_000 });

const STUDY = 'Study with a rater to retrain';
const MODELS = ['hold-e2e-alpha', 'hold-e2e-beta', 'hold-e2e-gamma'];
const WHY = 'The alpha answer gives the right dose; the others do not.';

test.use({
	viewport: { width: 1366, height: 768 },
	prepareDatabase: {
		async prepare(db) {
			const organiser = await accountId(db, E2E_ACCOUNTS.organiser.email);
			const doctor = await accountId(db, E2E_ACCOUNTS.physician.email);
			const studyId = await seedGoldStudy(db, organiser, {
				name: STUDY,
				models: MODELS,
				items: 12,
				seed: 7300,
				response: (item, i) => `Answer ${i}: ${item.id} mg`,
				gold: (i) => i % 3 === 0,
				explanation: WHY,
				settings: { goldEvery: 2 }
			});
			// The physician has judged four questions, tagging every answer bad: each gold check
			// they met is missed.
			await judgeAllBad(db, studyId, doctor, 4);
		}
	}
});

async function openStudyOnDashboard(page: Page) {
	await page.goto('/admin/raters');
	const value = await page
		.locator('select[name=study] option', { hasText: STUDY })
		.getAttribute('value');
	await page.goto(`/admin/raters?study=${value}`);
	return page.locator('section#holds');
}

test('an organiser sends a rater to retraining, then pauses them; the rater goes through the missed checks and resumes', async ({
	browser
}) => {
	const viewport = { width: 1366, height: 768 };
	const organiser = await (await browser.newContext({ viewport })).newPage();
	const doctor = await (await browser.newContext({ viewport })).newPage();
	await loginAs(organiser, 'organiser');
	await loginAs(doctor, 'physician');
	const card = doctor
		.getByRole('listitem')
		.filter({ has: doctor.getByRole('heading', { name: STUDY }) });

	await test.step('the organiser sends the physician to retraining', async () => {
		const holds = await openStudyOnDashboard(organiser);
		const raters = organiser.locator('section[aria-labelledby=raters] tbody tr');
		await expect(raters.filter({ hasText: E2E_ACCOUNTS.physician.displayName })).toContainText(
			'gold accuracy below the pass mark'
		);
		const option = holds.locator('select[name=raterId] option', {
			hasText: E2E_ACCOUNTS.physician.displayName
		});
		await expect(option).toContainText('(flagged)');
		await holds
			.getByLabel('Rater', { exact: true })
			.selectOption((await option.getAttribute('value'))!);
		await holds.getByLabel('Send to retraining').check();
		await holds.getByLabel('Reason (the rater reads it)').fill('Your gold accuracy is 0 %.');
		await holds.getByRole('button', { name: 'Place the hold' }).click();
		const row = organiser.locator('table.holds tbody tr', {
			hasText: E2E_ACCOUNTS.physician.displayName
		});
		await expect(row).toContainText('Retraining');
		await expect(row.getByRole('button', { name: 'Lift' })).toBeVisible();
		await expectAccessible(organiser, 'the holds section');
		if (process.env.SHOTS_DIR) {
			await holds.scrollIntoViewIfNeeded();
			await organiser.screenshot({ path: `${process.env.SHOTS_DIR}/raters-holds.png` });
		}
	});

	await test.step('the physician cannot start, and goes through each missed check', async () => {
		await doctor.goto('/rank');
		await expect(card).toContainText('Retraining asked');
		await expect(card.getByRole('button', { name: /ranking/ })).toHaveCount(0);
		await card.getByRole('link', { name: 'Go through the checks you missed' }).click();
		await expect(
			doctor.getByRole('heading', { name: 'Go through the checks you missed' })
		).toBeVisible();
		await expect(doctor.getByText('Your gold accuracy is 0 %.')).toBeVisible();
		const checks = doctor.locator('ol.checks > li');
		expect(await checks.count()).toBeGreaterThan(0);
		for (const check of await checks.all()) {
			await expect(check.getByRole('row', { name: /Response [A-D] — tag/ })).toContainText('good');
			await expect(check.getByRole('row', { name: /Response [A-D] — tag/ })).toContainText('bad');
			await expect(check.getByText(WHY)).toBeVisible();
		}
		// Answers by their letter only: no model's name on the page.
		for (const m of MODELS) await expect(doctor.locator('body')).not.toContainText(m);
		await expectAccessible(doctor, 'the retraining page');
		if (process.env.SHOTS_DIR)
			await doctor.screenshot({ path: `${process.env.SHOTS_DIR}/retraining.png`, fullPage: true });
		await doctor
			.getByRole('button', { name: 'I have gone through them: continue the study' })
			.click();
		await expect(doctor).toHaveURL(/\/rank$/);
		await expect(card.getByRole('button', { name: 'Continue ranking' })).toBeEnabled();
	});

	await test.step('the organiser sees the retraining done, then pauses the physician', async () => {
		const holds = await openStudyOnDashboard(organiser);
		await expect(organiser.locator('table.holds tbody tr')).toContainText(
			'The rater went through the gold checks they missed.'
		);
		await holds
			.getByLabel('Rater', { exact: true })
			.selectOption(
				(await holds
					.locator('select[name=raterId] option', { hasText: E2E_ACCOUNTS.physician.displayName })
					.getAttribute('value'))!
			);
		await holds.getByLabel('Pause', { exact: true }).check();
		await holds.getByLabel('Reason (the rater reads it)').fill('Waiting for a call with the lead.');
		await holds.getByRole('button', { name: 'Place the hold' }).click();
		await expect(organiser.locator('table.holds tbody tr', { hasText: 'Paused' })).toContainText(
			'Waiting for a call with the lead.'
		);
	});

	await test.step('paused, the physician gets no work, even by posting the form', async () => {
		await doctor.goto('/rank');
		await expect(card).toContainText('Paused by the organisers');
		await expect(card).toContainText('Waiting for a call with the lead.');
		const value = (await organiser.url()).match(/study=(\d+)/)![1];
		const refused = await doctor.request.post('/rank?/start', {
			form: { studyId: value },
			headers: { origin: new URL(doctor.url()).origin }
		});
		expect(await refused.text()).toContain('paused your work in this study');
	});

	await test.step('the organiser lifts the pause and the work comes back', async () => {
		await openStudyOnDashboard(organiser);
		const row = organiser.locator('table.holds tbody tr', { hasText: 'Paused' });
		await row.getByLabel('Note on lifting').fill('Spoke with them');
		await row.getByRole('button', { name: 'Lift' }).click();
		await expect(organiser.locator('table.holds tbody tr', { hasText: 'Paused' })).toContainText(
			'Spoke with them'
		);
		await doctor.goto('/rank');
		await card.getByRole('button', { name: 'Continue ranking' }).click();
		await expect(doctor).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	});
});
