// The reviewers' qualification round at 1366×768. The organiser cannot require an empty round,
// imports gold QA pairs by pasting them (a bad file is refused whole, each problem listed), and
// requires the round; a reviewer is sent to it from the review page, judges pairs by keyboard,
// reads the expected answer and why after each, fails an attempt, passes the next, and then gets
// live work. A second reviewer uses both attempts; the organiser gives them another once the round
// has pairs they have not answered, and sees every attempt. axe-core on both new pages.
import type { Page } from '@playwright/test';
import { validRecord } from '../../../src/lib/server/fixtures/records';
import { seedItems } from '../../../src/lib/server/fixtures/review';
import type { QaType } from '../../../src/lib/constants';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

test.describe.configure({ timeout: 180_000 });

type Spec = readonly [QaType, 'correct' | 'incorrect' | 'cannot_tell', string, number];

/** Gold pairs from their specs: their verdict key on the review screen, relevance and why. */
const pairs = (specs: Spec[], from: number) =>
	specs.map(([type, verdict, key, relevance], i) => ({
		item: validRecord(type, 950 + from + i),
		passage: `The source passage of gold pair ${from + i + 1}.`,
		verdict,
		key,
		relevance,
		explanation: `Explanation of gold pair ${from + i + 1}.`
	}));
/** The round's four pairs, and two more imported later for a reviewer given another attempt. */
const FIRST = pairs(
	[
		['true_false', 'correct', 'c', 4],
		['multiple_choice', 'incorrect', 'i', 2],
		['short_answer', 'cannot_tell', 't', 5],
		['list', 'correct', 'c', 3]
	],
	0
);
const MORE = pairs(
	[
		['short_answer', 'correct', 'c', 2],
		['true_false', 'incorrect', 'i', 1]
	],
	4
);
const PAIRS = [...FIRST, ...MORE];
/** The records of an import file (without the screen's keys). */
const goldFile = (list: typeof PAIRS) =>
	JSON.stringify(
		list.map(({ item, passage, verdict, relevance, explanation }) => ({
			item,
			passage,
			verdict,
			relevance,
			explanation
		}))
	);

test.use({
	viewport: { width: 1366, height: 768 },
	prepareDatabase: {
		async prepare(db) {
			// Live work for after the round.
			await seedItems(db, 1);
		}
	}
});

/** Answers the pair on screen by keyboard: the verdict right, the relevance right or not. */
async function answer(page: Page, relevanceRight: boolean) {
	const question = (await page.locator('h2.question').innerText()).trim();
	const pair = PAIRS.find((p) => String(p.item.question).trim() === question);
	expect(pair, `a gold pair asks "${question}"`).toBeDefined();
	await page.keyboard.press(pair!.key);
	const relevance = relevanceRight
		? pair!.relevance
		: pair!.relevance === 5
			? 4
			: pair!.relevance + 1;
	await page.keyboard.press(String(relevance));
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/\/review\/qualification\?after=\d+$/);
	const feedback = page.getByRole('region', { name: 'Your answer and the expected one' });
	await expect(feedback.getByRole('row', { name: /^Verdict/ })).toContainText('Matches');
	await expect(feedback.getByRole('row', { name: /^GP relevance/ })).toContainText(
		relevanceRight ? 'Matches' : 'Differs'
	);
	await expect(feedback).toContainText(pair!.explanation);
	return feedback;
}

test('a reviewer passes the qualification round on their second attempt before live review', async ({
	browser
}) => {
	const viewport = { width: 1366, height: 768 };
	const organiserContext = await browser.newContext({ viewport });
	const admin = await organiserContext.newPage();
	await loginAs(admin, 'organiser');
	await admin.goto('/admin/raters');
	await admin.getByRole('link', { name: "reviewers' qualification round" }).click();
	await expect(
		admin.getByRole('heading', { name: "Reviewers' qualification round" })
	).toBeVisible();
	await expectAccessible(admin, 'organiser page, empty');

	const settings = admin.getByRole('region', { name: 'Settings' });
	const saveSettings = async () => {
		await settings.getByLabel('Required before live review').check();
		await settings.getByLabel('Pass mark (%)').fill('75');
		await settings.getByLabel('Pairs per attempt').fill('2');
		await settings.getByLabel('Attempts allowed').fill('2');
		await settings.getByRole('button', { name: 'Save settings' }).click();
	};
	await test.step('an empty round cannot be required', async () => {
		await saveSettings();
		await expect(settings.getByRole('alert')).toContainText(
			'The round has 0 gold QA pairs; an attempt asks 2.'
		);
	});

	const gold = admin.getByRole('region', { name: 'Gold QA pairs' });
	await test.step('a file with a problem is refused whole; a good one is imported', async () => {
		const bad = JSON.parse(goldFile(FIRST.slice(0, 2)));
		bad[1].relevance = 7;
		await gold.getByLabel('Or paste the gold JSON').fill(JSON.stringify(bad));
		await gold.getByRole('button', { name: 'Import gold pairs' }).click();
		await expect(gold.getByRole('alert')).toContainText(
			'Record 2: relevance must be a whole number from 1 to 5.'
		);
		await expect(gold.getByRole('heading', { name: '0 gold pairs' })).toBeVisible();
		await gold.getByLabel('Or paste the gold JSON').fill(goldFile(FIRST));
		await gold.getByRole('button', { name: 'Import gold pairs' }).click();
		await expect(gold.getByRole('status')).toHaveText('4 gold pairs imported.');
		await expect(gold.getByRole('heading', { name: '4 gold pairs' })).toBeVisible();
		await saveSettings();
		await expect(settings.getByRole('status')).toHaveText('The settings are saved.');
		await expectAccessible(admin, 'organiser page, with gold');
	});

	const reviewerContext = await browser.newContext({ viewport });
	const page = await reviewerContext.newPage();
	await loginAs(page, 'reviewer');
	await test.step('the review page sends the reviewer to the round first', async () => {
		await page.goto('/review');
		await expect(page.getByRole('heading', { name: 'Qualification round first' })).toBeVisible();
		await expect(page.getByRole('button', { name: 'Start reviewing' })).toBeDisabled();
		await page.getByRole('link', { name: 'Go to the qualification round' }).click();
		await expect(
			page.getByRole('heading', { name: 'Qualification round for reviewers' })
		).toBeVisible();
		await expect(page.getByText('2 attempts left')).toBeVisible();
		await expectAccessible(page, 'qualification pair');
		if (process.env.SHOTS_DIR)
			await page.screenshot({ path: `${process.env.SHOTS_DIR}/reviewer-round-pair.png` });
		// No feedback note or dispute on a gold pair.
		await expect(page.getByText('Feedback note or formal dispute')).toHaveCount(0);
	});

	await test.step('attempt 1: the relevances are off, so half the labels match', async () => {
		await answer(page, false);
		await page.getByRole('link', { name: 'Next pair' }).click();
		const feedback = await answer(page, false);
		await expect(feedback.getByRole('status')).toHaveText(
			'Attempt 1 finished: 50 % of its labels matched — not passed.'
		);
		await expectAccessible(page, 'qualification feedback');
		if (process.env.SHOTS_DIR)
			await page.screenshot({ path: `${process.env.SHOTS_DIR}/reviewer-round-feedback.png` });
	});

	await test.step('attempt 2: all right, passed; live review opens', async () => {
		await page.getByRole('link', { name: 'Next pair' }).click();
		await expect(page.getByText('1 attempt left')).toBeVisible();
		await answer(page, true);
		await page.getByRole('link', { name: 'Next pair' }).click();
		const feedback = await answer(page, true);
		await expect(feedback.getByRole('status')).toHaveText(
			'Attempt 2 finished: 100 % of its labels matched — passed.'
		);
		await feedback.getByRole('link', { name: 'Start live review' }).click();
		await expect(page.getByRole('heading', { name: 'Qualification round first' })).toHaveCount(0);
		await page.getByRole('button', { name: 'Start reviewing' }).click();
		await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
	});
	await reviewerContext.close();

	const secondContext = await browser.newContext({ viewport });
	const second = await secondContext.newPage();
	await loginAs(second, 'reviewer2');
	await test.step('a second reviewer fails both attempts', async () => {
		await second.goto('/review/qualification');
		// Keys pressed before the page hydrates reach no handler: let its modules load and run.
		await second.waitForLoadState('networkidle');
		await second.evaluate(() => new Promise(requestAnimationFrame));
		for (let i = 0; i < 4; i++) {
			if (i > 0) await second.getByRole('link', { name: 'Next pair' }).click();
			await answer(second, false);
		}
		await expect(second.getByText('You have used every attempt.')).toBeVisible();
	});

	await test.step('the organiser gives them another attempt once the round has pairs for it', async () => {
		await admin.reload();
		const grant = admin.getByRole('region', { name: 'Another attempt for a reviewer' });
		await expect(grant.getByLabel('Reviewer').locator('option')).toHaveText([
			/Rita Reviewer \(no attempt left\)/
		]);
		await grant.getByLabel('Reason (kept in the record)').fill('Went through the anchors again');
		await grant.getByRole('button', { name: 'Add the attempts' }).click();
		await expect(grant.getByRole('alert')).toContainText(
			"This reviewer has not answered 0 of the round's gold pairs; 1 attempt of 2 would need 2."
		);
		await gold.getByLabel('Or paste the gold JSON').fill(goldFile(MORE));
		await gold.getByRole('button', { name: 'Import gold pairs' }).click();
		await expect(gold.getByRole('status')).toHaveText('2 gold pairs imported.');
		await grant.getByLabel('Reason (kept in the record)').fill('Went through the anchors again');
		await grant.getByRole('button', { name: 'Add the attempts' }).click();
		await expect(grant.getByRole('status')).toHaveText(
			'1 attempt added: the reviewer has 1 attempt left.'
		);
		await expect(
			grant.getByRole('table', { name: "Attempts added to the reviewers' round" })
		).toContainText('Went through the anchors again');
		await expectAccessible(admin, 'organiser page, with a grant');
		await second.goto('/review/qualification');
		// Keys pressed before the page hydrates reach no handler: let its modules load and run.
		await second.waitForLoadState('networkidle');
		await second.evaluate(() => new Promise(requestAnimationFrame));
		await expect(second.getByText('1 attempt left')).toBeVisible();
		await expect(second.locator('h2.question')).toBeVisible();
	});
	await secondContext.close();

	await test.step('the organiser reads the reviewer’s attempts', async () => {
		await admin.reload();
		const results = admin.getByRole('region', { name: 'Results per reviewer' });
		const row = results.getByRole('row').filter({ hasText: 'Rob Reviewer' });
		await expect(row).toContainText('Passed');
		await expect(row).toContainText('1: 50 %, not passed');
		await expect(row).toContainText('2: 100 %, passed');
		await expect(results.getByRole('row').filter({ hasText: 'Rita Reviewer' })).toContainText(
			'Not yet passed (1 attempt left) · 1 added by the organisers'
		);
		await expect(
			gold.getByRole('row').filter({ hasText: 'Explanation of gold pair 1.' })
		).toContainText('1');
		if (process.env.SHOTS_DIR)
			await admin.screenshot({
				path: `${process.env.SHOTS_DIR}/reviewer-round.png`,
				fullPage: true
			});
	});
	await organiserContext.close();
});
