// The pairwise preference screen at 1366×768: a physician judges pairs by keyboard alone and the
// stored preferences match what was pressed and which answer was shown on which side; nothing on
// the page names a model or an answer's id; a refused preference keeps what was typed; the
// shortcuts dialog and the page pass axe. The study (a question set, two models and the reference,
// a rubric's aspects asked about, two physicians per pair) is written directly into the database
// by the project's own code.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { asc, eq, inArray } from 'drizzle-orm';
import { openDatabase, type Db } from '../../../src/lib/server/db/client';
import {
	assignmentCandidate,
	candidate,
	pairwiseAspectPreference,
	pairwiseJudgement,
	user
} from '../../../src/lib/server/db/schema';
import { changeStudyState, createStudy } from '../../../src/lib/server/domain/studies/studies';
import { insertRubric, seedQuestionSet } from '../../../src/lib/server/fixtures/rubric';
import { E2E_ACCOUNTS, type E2eAccount } from '../support/accounts';
import { startPortal, type PrepareDatabase } from '../support/portal';
import { readTemplate } from '../support/template';
import { expect, loginAs, test } from '../fixtures';

const STUDY = 'Pairwise e2e study';
const MODELS = ['zephyr-secret-7b', 'quokka-hidden-13b'];

const PAIRWISE_STUDY: PrepareDatabase = {
	async prepare(db: Db) {
		const [organiser] = await db
			.select({ id: user.id })
			.from(user)
			.where(eq(user.email, E2E_ACCOUNTS.organiser.email));
		// Two questions, two models and the reference: three pairs a question, six in all.
		const set = await seedQuestionSet(db, { questions: 2, models: MODELS });
		const { rubricId } = await insertRubric(db);
		const study = await createStudy(
			db,
			{
				name: STUDY,
				design: 'pairwise',
				questionSetId: set.questionSetId,
				rubricId,
				includeReference: true,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 2
			},
			organiser.id
		);
		await changeStudyState(db, study.id, 'open', organiser.id, { confirm: true });
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: PAIRWISE_STUDY });
test.describe.configure({ timeout: 120_000 });

/** A portal of the test's own, so its database can be read once its server has stopped. */
async function ownPortal(browser: Browser, account: E2eAccount) {
	// Starting a portal (its database copied, its server up) on top of a walk by keyboard: ~10 s
	// alone, over 60 s has been seen beside two other specs on a loaded 2-core machine.
	test.setTimeout(120_000);
	const portal = await startPortal(readTemplate(), PAIRWISE_STUDY);
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

/** Opens the physician's first pair of the study from the studies page. */
async function startComparing(page: Page, base = '') {
	await page.goto(`${base}/rank`);
	const study = page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: STUDY }) });
	await expect(study).toContainText('Choose the better of two answers');
	await expect(study).toContainText('0 of 6 pairs');
	await study.getByRole('button', { name: 'Start comparing' }).click();
	await expect(page).toHaveURL(/\/rank\/pairwise\/[a-z2-9]{24}$/);
	await page.waitForLoadState('networkidle');
	// The key hints appear once the page's script runs.
	await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
}

const answerText = (page: Page, letter: 'A' | 'B') =>
	page.getByRole('region', { name: `Text of answer ${letter}` }).innerText();

test('a physician judges pairs by keyboard alone; the preferences and sides are stored', async ({
	browser
}) => {
	const { page, portal, read } = await ownPortal(browser, 'physician');
	await startComparing(page, portal.url);
	const shown: { a: string; b: string; html: string }[] = [];
	const outcome = page.getByRole('group', { name: 'Which answer is better?' });
	const strength = page.getByRole('group', { name: /^How much better/ });
	// What each pair gets, all by keys: outcome keys, then what the aspects and reason get.
	const plan = [
		{ keys: ['ArrowLeft', '2'], radio: 'A (left) is better', aspect: 'ArrowRight' },
		{ keys: ['ArrowDown', 'ArrowDown'], radio: 'Tie: both bad' },
		{ keys: ['ArrowRight', '1'], radio: 'B (right) is better' },
		{ keys: ['Shift+ArrowDown', '3'], radio: 'Tie: both good' }
	];
	for (const [i, step] of plan.entries()) {
		await expect(page.getByLabel('Your progress')).toContainText(`Pair ${i + 1} of 6`);
		shown.push({
			a: await answerText(page, 'A'),
			b: await answerText(page, 'B'),
			html: await page.content()
		});
		for (const key of step.keys) await page.keyboard.press(key);
		await expect(outcome.getByRole('radio', { name: step.radio })).toBeChecked();
		if (step.aspect) {
			await expect(strength.getByRole('radio', { name: 'Clearly' })).toBeChecked();
			// Tab to the first aspect's choices: there the arrows choose for that aspect.
			const relevance = page.getByRole('group', { name: /^Relevance/ });
			for (let n = 0; n < 40; n++) {
				if (await relevance.evaluate((el) => el.contains(document.activeElement))) break;
				await page.keyboard.press('Tab');
			}
			await page.keyboard.press(step.aspect);
			await expect(relevance.getByRole('radio', { name: 'B better' })).toBeChecked();
			await expect(outcome.getByRole('radio', { name: step.radio })).toBeChecked();
			// Into the reason: keys type there and choose nothing.
			const reason = page.getByRole('textbox', { name: /^Reason/ });
			for (let n = 0; n < 10; n++) {
				if (await reason.evaluate((el) => el === document.activeElement)) break;
				await page.keyboard.press('Tab');
			}
			await expect(reason).toBeFocused();
			await page.keyboard.type('A names the warning sign; 4 ← →');
			await page.keyboard.press('ArrowRight');
			await expect(outcome.getByRole('radio', { name: step.radio })).toBeChecked();
		}
		const before = page.url();
		await page.keyboard.press('Control+Enter');
		await expect(page).not.toHaveURL(before);
		await expect(page.getByText(`${i + 1} judged so far`)).toBeVisible();
		if (i === 0) {
			// The next pair came with the answer: a fresh form.
			await expect(page.getByRole('textbox', { name: /^Reason/ })).toHaveValue('');
			await expect(outcome.getByRole('radio', { checked: true })).toHaveCount(0);
		}
	}

	const stored = await read(async (db) => {
		const judgements = await db.select().from(pairwiseJudgement).orderBy(asc(pairwiseJudgement.id));
		const texts = new Map(
			(
				await db
					.select({ id: candidate.id, text: candidate.text, shown: candidate.shownText })
					.from(candidate)
			).map((c) => [c.id, c.shown ?? c.text])
		);
		const aspects = await db.select().from(pairwiseAspectPreference);
		const publicIds = (
			await db
				.select({ id: assignmentCandidate.publicId })
				.from(assignmentCandidate)
				.where(
					inArray(
						assignmentCandidate.assignmentId,
						judgements.map((j) => j.assignmentId)
					)
				)
		).map((r) => r.id);
		return { judgements, texts, aspects, publicIds };
	});
	expect(
		stored.judgements.map((j) => [j.outcome, j.strength, j.reason || null, j.timeOnTaskMs! > 0])
	).toEqual([
		['left', 'clearly', 'A names the warning sign; 4 ← →', true],
		['tie_bad', null, null, true],
		['right', 'slightly', null, true],
		['tie_good', null, null, true]
	]);
	// The answer shown as A is the one stored on the left, B the one on the right.
	for (const [i, j] of stored.judgements.entries()) {
		expect(shown[i].a.trim()).toBe(stored.texts.get(j.leftCandidateId)!.trim());
		expect(shown[i].b.trim()).toBe(stored.texts.get(j.rightCandidateId)!.trim());
	}
	expect(stored.aspects).toEqual([
		{ judgementId: stored.judgements[0].id, aspect: 'REL', outcome: 'right' }
	]);
	// Nothing in the pages names a model or carries an answer's id.
	for (const { html } of shown) {
		for (const name of MODELS) expect(html).not.toContain(name);
		for (const id of stored.publicIds) expect(html).not.toContain(id);
	}
	await portal.stop();
});

test('a refused preference keeps what was typed; then it is stored', async ({ browser }) => {
	const { page, portal, read } = await ownPortal(browser, 'physician2');
	await startComparing(page, portal.url);
	const first = page.url();
	await page.getByRole('textbox', { name: /^Reason/ }).fill('Both miss the red flags.');
	await page
		.getByRole('group', { name: /^Correctness/ })
		.getByRole('radio', { name: 'Tie' })
		.check();
	await page.getByRole('button', { name: /^Submit preference/ }).click();
	await expect(page.getByRole('alert')).toContainText('Choose A, B or a tie.');
	expect(page.url()).toBe(first);
	await expect(page.getByRole('textbox', { name: /^Reason/ })).toHaveValue(
		'Both miss the red flags.'
	);
	await expect(
		page.getByRole('group', { name: /^Correctness/ }).getByRole('radio', { name: 'Tie' })
	).toBeChecked();
	// A strength before A or B is refused on the spot.
	await page.getByRole('heading', { level: 1 }).click();
	await page.keyboard.press('1');
	await expect(page.getByRole('status').filter({ hasText: 'Choose A or B first' })).toBeAttached();
	await page.keyboard.press('4');
	await expect(page.getByRole('radio', { name: 'Tie: both bad' })).toBeChecked();
	await expect(page.getByRole('radio', { name: 'Slightly' })).toBeDisabled();
	await page.keyboard.press('Control+Enter');
	await expect(page.getByText('1 judged so far')).toBeVisible();
	const stored = await read(async (db) => ({
		judgements: await db.select().from(pairwiseJudgement),
		aspects: await db.select().from(pairwiseAspectPreference)
	}));
	expect(stored.judgements.map((j) => [j.outcome, j.strength, j.reason])).toEqual([
		['tie_bad', null, 'Both miss the red flags.']
	]);
	expect(stored.aspects.map((a) => [a.aspect, a.outcome])).toEqual([['COR', 'tie']]);
	await portal.stop();
});

test('the pair fits 1366×768 side by side, stacks when narrow, and passes axe', async ({
	page
}) => {
	await loginAs(page, 'physician');
	await startComparing(page);
	const a = (await page.getByRole('article', { name: 'Answer A' }).boundingBox())!;
	const b = (await page.getByRole('article', { name: 'Answer B' }).boundingBox())!;
	expect(a.x + a.width).toBeLessThanOrEqual(b.x);
	expect(Math.abs(a.y - b.y)).toBeLessThan(2);
	expect(Math.abs(a.width - b.width)).toBeLessThan(2);
	// The choice and the submit button are in view without scrolling, and nothing scrolls sideways.
	await expect(page.getByRole('radio', { name: 'A (left) is better' })).toBeInViewport();
	await expect(page.getByRole('button', { name: /^Submit preference/ })).toBeInViewport();
	const { scroll, inner } = await page.evaluate(() => ({
		scroll: document.scrollingElement!.scrollWidth,
		inner: window.innerWidth
	}));
	expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(inner);
	// Both answers render through the same markup: only the letter differs.
	const markup = await page.getByRole('article').evaluateAll((els) =>
		els.map((el) => {
			const copy = el.cloneNode(true) as Element;
			const walk = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
			const texts: Node[] = [];
			while (walk.nextNode()) texts.push(walk.currentNode);
			for (const t of texts) t.textContent = '';
			return copy.outerHTML;
		})
	);
	expect(markup).toHaveLength(2);
	const strip = (html: string) => html.replace(/answer-[ab]|answer [AB]/g, 'X');
	expect(strip(markup[0])).toBe(strip(markup[1]));
	await page.keyboard.press('ArrowLeft');
	await page.keyboard.press('2');
	await page.mouse.move(0, 0);
	await page.screenshot({
		path: join(import.meta.dirname, '../../../docs/images/physician-pairwise.png'),
		animations: 'disabled',
		caret: 'hide'
	});

	const scan = async () =>
		(
			await new AxeBuilder({ page })
				.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
				.analyze()
		).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
	expect(await scan()).toEqual([]);
	await page.keyboard.press('Shift+?');
	const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
	await expect(dialog).toBeVisible();
	await expect(dialog).toContainText('Tie: both bad');
	// Keys do not choose behind the dialog.
	await page.keyboard.press('ArrowRight');
	await expect(page.getByRole('radio', { name: 'A (left) is better' })).toBeChecked();
	expect(await scan()).toEqual([]);
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();

	await page.setViewportSize({ width: 600, height: 900 });
	const narrowA = (await page.getByRole('article', { name: 'Answer A' }).boundingBox())!;
	const narrowB = (await page.getByRole('article', { name: 'Answer B' }).boundingBox())!;
	expect(narrowA.y + narrowA.height).toBeLessThanOrEqual(narrowB.y);
});

test('without JavaScript: a refused form comes back as filled in, then a plain post stores it', async ({
	browser
}) => {
	const context = await browser.newContext({
		javaScriptEnabled: false,
		viewport: { width: 1366, height: 768 }
	});
	const page = await context.newPage();
	await loginAs(page, 'physician2');
	await page.goto('/rank');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: STUDY }) })
		.getByRole('button')
		.click();
	await expect(page).toHaveURL(/\/rank\/pairwise\/[a-z2-9]{24}$/);
	const first = page.url();
	await page.getByRole('textbox', { name: /^Reason/ }).fill('Neither says when to see a doctor.');
	await page.getByRole('radio', { name: 'Tie: both good' }).check();
	await page.getByRole('radio', { name: 'Clearly' }).check();
	await page.getByRole('button', { name: /^Submit preference/ }).click();
	await expect(page.getByRole('alert')).toContainText(
		'A tie takes no strength: clear it or choose A or B.'
	);
	await expect(page.getByRole('textbox', { name: /^Reason/ })).toHaveValue(
		'Neither says when to see a doctor.'
	);
	await expect(page.getByRole('radio', { name: 'Tie: both good' })).toBeChecked();
	await expect(page.getByRole('radio', { name: 'Clearly' })).toBeChecked();
	await page.getByRole('radio', { name: 'A (left) is better' }).check();
	await page.getByRole('button', { name: /^Submit preference/ }).click();
	await expect(page.getByText('1 judged so far')).toBeVisible();
	expect(page.url()).not.toBe(first);
	await context.close();
});
