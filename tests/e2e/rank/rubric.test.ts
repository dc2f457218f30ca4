// The rubric scoring screen at 1366×768: a physician scores a question by keyboard alone, another
// side by side; the submit button stays in view, the page passes axe, and a missing score stores
// nothing. The study (a question set, a rubric, three models, two physicians per question) is
// written directly into the database by the project's own code.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { asc, eq } from 'drizzle-orm';
import { openDatabase, type Db } from '../../../src/lib/server/db/client';
import { rubricJudgement, rubricScore, user } from '../../../src/lib/server/db/schema';
import { changeStudyState, createStudy } from '../../../src/lib/server/domain/studies/studies';
import { insertRubric, seedQuestionSet } from '../../../src/lib/server/fixtures/rubric';
import { E2E_ACCOUNTS, type E2eAccount } from '../support/accounts';
import { startPortal, type PrepareDatabase } from '../support/portal';
import { readTemplate } from '../support/template';
import { expect, loginAs, test } from '../fixtures';

const STUDY = 'Rubric e2e study';
const CODES = ['COND', 'CONC', 'ACC'];
const LABELS = ['Response A', 'Response B', 'Response C'];

const RUBRIC_STUDY: PrepareDatabase = {
	async prepare(db: Db) {
		const [organiser] = await db
			.select({ id: user.id })
			.from(user)
			.where(eq(user.email, E2E_ACCOUNTS.organiser.email));
		const set = await seedQuestionSet(db, {
			questions: 3,
			models: ['m-one', 'm-two', 'm-three'],
			// Three answers a question: pairs A | B and C alone.
			reference: false
		});
		const { rubricId } = await insertRubric(db);
		const study = await createStudy(
			db,
			{
				name: STUDY,
				design: 'rubric',
				questionSetId: set.questionSetId,
				rubricId,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 2
			},
			organiser.id
		);
		await changeStudyState(db, study.id, 'open', organiser.id);
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: RUBRIC_STUDY });

/** A portal of the test's own, so its database can be read once its server has stopped. */
async function ownPortal(browser: Browser, account: E2eAccount) {
	// Starting a portal (its database copied, its server up) on top of a walk by keyboard: ~10 s
	// alone, over 60 s has been seen beside two other specs on a loaded 2-core machine.
	test.setTimeout(120_000);
	const portal = await startPortal(readTemplate(), RUBRIC_STUDY);
	const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
	await context.addCookies([
		{ name: 'session', value: readTemplate().sessions[account], url: portal.url, httpOnly: true }
	]);
	const page = await context.newPage();
	/** Stops the server, then reads its database (PGlite's folder opens only then). */
	async function read<T>(fn: (db: Db) => Promise<T>): Promise<T> {
		await context.close();
		await portal.stopServer();
		const handle = await openDatabase(portal.databaseUrl, { max: 1 });
		try {
			return await fn(handle.db);
		} finally {
			await handle.close();
		}
	}
	return { portal, page, read };
}

/** Opens the physician's first question of the rubric study from the studies page. */
async function startScoring(page: Page, base = '') {
	await page.goto(`${base}/rank`);
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: STUDY }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/rubric\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
}

const group = (page: Page, label: string, code: string) =>
	page
		.getByRole('article', { name: label, exact: true })
		.getByRole('group', { name: new RegExp(`^${code} `) });

/** Presses Tab until focus is inside `target` (keyboard only), failing after `max` presses. */
async function tabInto(page: Page, target: Locator, max = 30) {
	for (let i = 0; i < max; i++) {
		if (await target.evaluate((el) => el.contains(document.activeElement))) return;
		await page.keyboard.press('Tab');
	}
	throw new Error(`Tab never reached ${target}`);
}

/** The score typed for answer `i` on sub-aspect `j` (A: 1 2 3, B: 2 3 4, C: 3 4 5). */
const typed = (i: number, j: number) => i + j + 1;

/** The stored scores of the only score sheet, in shown order. */
const storedScores = (db: Db) =>
	db
		.select({
			position: rubricScore.displayPosition,
			code: rubricScore.subAspect,
			score: rubricScore.score,
			rationale: rubricScore.rationale,
			side: rubricScore.side,
			layout: rubricJudgement.layout
		})
		.from(rubricScore)
		.innerJoin(rubricJudgement, eq(rubricJudgement.id, rubricScore.judgementId))
		.orderBy(asc(rubricScore.displayPosition), asc(rubricScore.subAspect));

test('a physician scores a question by keyboard alone, one answer at a time', async ({
	browser
}) => {
	const { page, portal, read } = await ownPortal(browser, 'physician');
	await startScoring(page, portal.url);
	const first = page.url();
	await expect(page.getByRole('radio', { name: 'One answer at a time' })).toBeChecked();
	for (const [i, label] of LABELS.entries()) {
		for (const [j, code] of CODES.entries()) {
			await tabInto(page, group(page, label, code).getByRole('radio').first());
			await page.keyboard.press(String(typed(i, j)));
			await expect(
				group(page, label, code).getByRole('radio', { name: String(typed(i, j)) })
			).toBeChecked();
			if (code === 'COND') {
				await page.keyboard.press('Tab');
				await page.keyboard.press('Tab');
				await expect(
					page.getByRole('textbox', { name: `Rationale (required) for COND, ${label}` })
				).toBeFocused();
				// Digits typed here are text, not scores.
				await page.keyboard.type(`Reason 4 ${label}`);
			}
		}
		if (i < LABELS.length - 1) {
			await tabInto(page, page.getByRole('button', { name: /^Next answer/ }));
			await page.keyboard.press('Enter');
			await expect(page.getByRole('heading', { name: LABELS[i + 1] })).toBeVisible();
		}
	}
	await expect(page.getByText('9 of 9 scores given')).toBeVisible();
	await page.keyboard.press('Control+Enter');
	await expect(page).not.toHaveURL(first);
	await expect(page).toHaveURL(/\/rank\/rubric\/[a-z2-9]{24}$/);
	await expect(page.getByText('0 of 9 scores given')).toBeVisible();
	await expect(page.getByText('1 scored so far')).toBeVisible();

	const rows = await read(storedScores);
	// Ordered by code: ACC, CONC, COND.
	expect(rows).toEqual(
		[0, 1, 2].flatMap((i) =>
			['ACC', 'CONC', 'COND'].map((code) => ({
				position: i + 1,
				code,
				score: typed(i, CODES.indexOf(code)),
				rationale: code === 'COND' ? `Reason 4 ${LABELS[i]}` : null,
				side: null,
				layout: 'single'
			}))
		)
	);
	await portal.stop();
});

test('a physician scores two answers side by side; the sides are stored', async ({ browser }) => {
	const { page, portal, read } = await ownPortal(browser, 'physician2');
	await startScoring(page, portal.url);
	await page.getByText('Two side by side').click();
	await expect(page.getByRole('article', { name: 'Response A' })).toBeVisible();
	await expect(page.getByRole('article', { name: 'Response B' })).toBeVisible();
	await expect(page.getByRole('article', { name: 'Response C' })).toBeHidden();
	for (const [i, label] of LABELS.entries()) {
		if (i === 2) await page.getByRole('button', { name: 'Next pair: Response C' }).click();
		for (const code of CODES)
			await group(page, label, code).getByRole('radio', { name: '2' }).check();
		await page
			.getByRole('textbox', { name: `Rationale (required) for COND, ${label}` })
			.fill('Plausible.');
	}
	await page.screenshot({ path: 'test-results/rubric-side-filled.png' });
	await page.getByRole('button', { name: 'Submit scores' }).click();
	await expect(page.getByText('0 of 9 scores given')).toBeVisible();

	const rows = await read(storedScores);
	expect(rows.map((r) => [r.position, r.side, r.layout])).toEqual([
		...Array(3).fill([1, 'left', 'side_by_side']),
		...Array(3).fill([2, 'right', 'side_by_side']),
		// The last odd answer is shown alone at the left.
		...Array(3).fill([3, 'left', 'side_by_side'])
	]);
	expect(rows.every((r) => r.score === 2)).toBe(true);
	await portal.stop();
});

test('the submit button is in view at 1366×768 in both layouts, with no sideways scroll', async ({
	page
}) => {
	await loginAs(page, 'physician');
	await startScoring(page);
	for (const [layout, file] of [
		['One answer at a time', '/tmp/rubric-single.png'],
		['Two side by side', '/tmp/rubric-side.png']
	]) {
		await page.getByText(layout, { exact: true }).click();
		await page.evaluate(() => window.scrollTo(0, 0));
		const box = await page.getByRole('button', { name: 'Submit scores' }).boundingBox();
		expect(box).not.toBeNull();
		expect(box!.y).toBeGreaterThanOrEqual(0);
		expect(box!.y + box!.height).toBeLessThanOrEqual(768);
		const { scroll, inner } = await page.evaluate(() => ({
			scroll: document.scrollingElement!.scrollWidth,
			inner: window.innerWidth
		}));
		expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(inner);
		await page.screenshot({ path: file });
		// Nothing on the screen names a model.
		const text = (await page.locator('body').innerText()).toLowerCase();
		for (const name of ['m-one', 'm-two', 'm-three']) expect(text).not.toContain(name);
	}
});

test('axe finds no violations on the scoring screen, in either layout', async ({ page }) => {
	await loginAs(page, 'physician');
	await startScoring(page);
	const scan = async () =>
		(
			await new AxeBuilder({ page })
				.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
				.analyze()
		).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
	expect(await scan()).toEqual([]);
	// The levels of a sub-aspect, opened by its key from the score group.
	await group(page, 'Response A', 'COND').getByRole('radio').first().focus();
	await page.keyboard.press('l');
	await expect(page.getByRole('button', { name: /^Levels of COND, Response A/ })).toHaveAttribute(
		'aria-expanded',
		'true'
	);
	await page.screenshot({ path: 'test-results/rubric-levels.png' });
	await page.getByText('Two side by side').click();
	expect(await scan()).toEqual([]);
	// The shortcuts list, from outside a sub-aspect.
	await page.getByRole('heading', { level: 1 }).click();
	await page.keyboard.press('?');
	await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
	expect(await scan()).toEqual([]);
});

test('a missing score blocks the submission with a message, and nothing is stored', async ({
	browser
}) => {
	const { page, portal, read } = await ownPortal(browser, 'physician');
	await startScoring(page, portal.url);
	const first = page.url();
	await page.getByText('Two side by side').click();
	for (const [i, label] of LABELS.entries()) {
		if (i === 2) await page.getByRole('button', { name: 'Next pair: Response C' }).click();
		for (const code of CODES) {
			// Response B is left without its factual accuracy score.
			if (label === 'Response B' && code === 'ACC') continue;
			await group(page, label, code).getByRole('radio', { name: '3' }).check();
		}
		await page
			.getByRole('textbox', { name: `Rationale (required) for COND, ${label}` })
			.fill('Fine.');
	}
	await page.getByRole('button', { name: 'Submit scores' }).click();
	const alert = page.getByRole('alert');
	await expect(alert).toContainText('Response B, ACC (Factual accuracy): give a score.');
	await expect(alert.getByRole('listitem')).toHaveCount(1);
	// The pair holding the missing score is shown again, with focus on that score.
	await expect(page.getByRole('article', { name: 'Response B' })).toBeVisible();
	await expect(group(page, 'Response B', 'ACC').getByRole('radio').first()).toBeFocused();
	await expect(page.getByText('8 of 9 scores given')).toBeVisible();
	await page.screenshot({ path: 'test-results/rubric-missing.png' });
	await page.waitForTimeout(500);
	expect(page.url()).toBe(first);
	const stored = await read(async (db) => ({
		sheets: (await db.select().from(rubricJudgement)).length,
		scores: (await db.select().from(rubricScore)).length
	}));
	expect(stored).toEqual({ sheets: 0, scores: 0 });
	await portal.stop();
});
