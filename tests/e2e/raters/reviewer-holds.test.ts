// Acting on a reviewer who missed hidden gold checks, at 1366×768: the organiser sends them to
// retraining from the reviewers' quality page; their review page says so and will not start; the
// retraining page shows each missed pair with their labels beside the expected ones and why; they
// continue and review again. The organiser then pauses them: the queue refuses them, even by a
// posted form, until the pause is lifted. axe-core on the retraining page and the holds section.
import type { Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { validRecord } from '../../../src/lib/server/fixtures/records';
import { seedPassages } from '../../../src/lib/server/fixtures/review';
import { importQaFiles } from '../../../src/lib/server/domain/imports/qa-import';
import { importReviewGold, updateReviewerRound } from '../../../src/lib/server/domain/quality';
import { startWork, submitWork } from '../../../src/lib/server/domain/review';
import { accountId } from './gold-study';
import { E2E_ACCOUNTS } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

test.describe.configure({ timeout: 180_000 });

const DATASET = 'Reviewer hold dataset';
const WHY = 'The passage names the measure outright.';

test.use({
	viewport: { width: 1366, height: 768 },
	prepareDatabase: {
		async prepare(db) {
			const organiser = await accountId(db, E2E_ACCOUNTS.organiser.email);
			const reviewer = await accountId(db, E2E_ACCOUNTS.reviewer.email);
			await seedPassages(db, 30);
			const live = Array.from({ length: 12 }, (_, i) => validRecord('short_answer', i + 1));
			await importQaFiles(db, [{ fileName: 'live.json', text: JSON.stringify(live) }], {
				actor: { userId: null, label: 'test' },
				dataset: DATASET
			});
			await db.execute(sql`delete from review_task t using qa_item i, dataset d
				where i.id = t.item_id and d.id = i.dataset_id and t.state = 'pending'
					and d.name <> ${DATASET}`);
			const gold = Array.from({ length: 10 }, (_, i) => ({
				item: validRecord('short_answer', i + 21),
				verdict: 'correct',
				relevance: 4,
				explanation: WHY
			}));
			await importReviewGold(db, JSON.stringify(gold), organiser);
			await updateReviewerRound(
				db,
				{ required: false, passMark: 0.8, questionsPerAttempt: 5, maxAttempts: 2, checkEvery: 2 },
				organiser
			);
			// The reviewer works eight claims, judging every pair "incorrect, 2": each check missed.
			let { shown } = await startWork(db, reviewer);
			for (let i = 0; i < 8 && shown; i++) {
				shown = (
					await submitWork(db, reviewer, {
						publicId: shown.lease.publicId,
						key: shown.lease.leaseToken,
						verdict: 'incorrect',
						relevance: 2
					})
				).shown;
			}
		}
	}
});

async function openReviewersOnDashboard(page: Page) {
	await page.goto('/admin/raters');
	const value = await page
		.locator('select[name=dataset] option', { hasText: DATASET })
		.getAttribute('value');
	await page.goto(`/admin/raters?dataset=${value}`);
	return page.locator('section#holds');
}

async function placeHold(page: Page, kind: 'Pause' | 'Send to retraining', reason: string) {
	const holds = await openReviewersOnDashboard(page);
	await expect(holds.getByRole('heading', { name: 'Pause or retrain a reviewer' })).toBeVisible();
	const option = holds.locator('select[name=raterId] option', {
		hasText: E2E_ACCOUNTS.reviewer.displayName
	});
	await holds
		.getByLabel('Rater', { exact: true })
		.selectOption((await option.getAttribute('value'))!);
	await holds.getByLabel(kind, { exact: true }).check();
	await holds.getByLabel('Reason (the rater reads it)').fill(reason);
	await holds.getByRole('button', { name: 'Place the hold' }).click();
	return page.locator('table.holds tbody tr', { hasText: reason });
}

test('an organiser sends a reviewer to retraining, then pauses them; the reviewer goes through the missed checks and resumes', async ({
	browser
}) => {
	const viewport = { width: 1366, height: 768 };
	const organiser = await (await browser.newContext({ viewport })).newPage();
	const reviewer = await (await browser.newContext({ viewport })).newPage();
	await loginAs(organiser, 'organiser');
	await loginAs(reviewer, 'reviewer');
	const start = reviewer.getByRole('button', { name: 'Start reviewing' });

	await test.step('the organiser sends the reviewer to retraining', async () => {
		const row = await placeHold(organiser, 'Send to retraining', 'Your gold accuracy is 0 %.');
		await expect(row).toContainText('Retraining');
		await expect(row.getByRole('button', { name: 'Lift' })).toBeVisible();
		await expectAccessible(organiser, 'the holds section');
		if (process.env.SHOTS_DIR) {
			await organiser.locator('section#holds').scrollIntoViewIfNeeded();
			await organiser.screenshot({ path: `${process.env.SHOTS_DIR}/reviewer-holds.png` });
		}
	});

	await test.step('the reviewer cannot start, and goes through each missed check', async () => {
		await reviewer.goto('/review');
		await expect(reviewer.getByRole('heading', { name: 'Retraining first' })).toBeVisible();
		await expect(reviewer.getByText('Your gold accuracy is 0 %.')).toBeVisible();
		await expect(start).toBeDisabled();
		if (process.env.SHOTS_DIR)
			await reviewer.screenshot({ path: `${process.env.SHOTS_DIR}/review-hold.png` });
		await reviewer.getByRole('link', { name: 'Go to retraining' }).click();
		await expect(
			reviewer.getByRole('heading', { name: 'Go through the checks you missed' })
		).toBeVisible();
		const checks = reviewer.locator('ol.checks > li');
		expect(await checks.count()).toBe(4);
		for (const check of await checks.all()) {
			await expect(check.getByRole('row', { name: /Verdict/ })).toContainText('Incorrect');
			await expect(check.getByRole('row', { name: /Verdict/ })).toContainText('Correct');
			await expect(check.getByRole('row', { name: /GP relevance/ })).toContainText('Differs');
			await expect(check.getByText(WHY)).toBeVisible();
		}
		await expectAccessible(reviewer, 'the retraining page');
		if (process.env.SHOTS_DIR)
			await reviewer.screenshot({
				path: `${process.env.SHOTS_DIR}/review-retraining.png`,
				fullPage: true
			});
		await reviewer
			.getByRole('button', { name: 'I have gone through them: continue reviewing' })
			.click();
		await expect(reviewer).toHaveURL(/\/review$/);
		await expect(start).toBeEnabled();
	});

	await test.step('paused, the reviewer gets no work, even by posting the form', async () => {
		const row = await placeHold(organiser, 'Pause', 'Waiting for a call with the lead.');
		await expect(row).toContainText('Paused');
		await reviewer.goto('/review');
		await expect(
			reviewer.getByRole('heading', { name: 'Your review work is paused' })
		).toBeVisible();
		await expect(start).toBeDisabled();
		const response = await reviewer.request.post('/review?/start', {
			form: {},
			headers: { origin: new URL(reviewer.url()).origin, accept: 'text/html' },
			maxRedirects: 0
		});
		expect(response.status()).toBe(403);
		expect(await response.text()).toContain('paused your review work');
		await row.getByRole('button', { name: 'Lift' }).click();
		await expect(
			organiser.locator('table.holds tbody tr', { hasText: 'Waiting for a call' })
		).toContainText('Lifted');
		await reviewer.goto('/review');
		await start.click();
		await expect(reviewer).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
	});
});
