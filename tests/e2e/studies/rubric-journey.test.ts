// A rubric study from import to export, as an organiser and two physicians use it at 1366×768: a
// rubric from the HDCEval template, a question set with three models' responses, a rubric study
// with k = 2 opened, two physicians scoring by keyboard alone (one side by side), a judge file,
// its pairwise accuracy, Pearson and ICC on the agreement page, and the export. Every new page is
// scanned with axe-core.
import type { Locator, Page } from '@playwright/test';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const MODELS = ['alpha-7b', 'beta-13b', 'gamma-70b'];
const QUESTIONS = [
	{
		id: 'pq1',
		question: 'Is a dry cough for three weeks after a cold a worry?',
		context: 'Adult, non-smoker.'
	},
	{
		id: 'pq2',
		question: 'Can I take ibuprofen with blood pressure tablets?',
		context: 'Takes an ACE inhibitor.'
	}
];
/** Each model answers every question in its own words (same form, different content). */
const answer = (m: number, q: number) =>
	[
		`See a doctor if it lasts beyond eight weeks or comes with breathlessness (case ${q + 1}).`,
		`It depends on the person; a check-up can help you decide what to do (case ${q + 1}).`,
		`Rest and fluids are usually enough; it should settle within days (case ${q + 1}).`
	][m];

const file = (name: string, text: string) => ({
	name,
	mimeType: 'application/json',
	buffer: Buffer.from(text)
});

/** Presses Tab until focus is inside `target` (keyboard only), failing after `max` presses. */
async function tabInto(page: Page, target: Locator, max = 40) {
	for (let i = 0; i < max; i++) {
		if (await target.evaluate((el) => el.contains(document.activeElement))) return;
		await page.keyboard.press('Tab');
	}
	throw new Error(`Tab never reached ${target}`);
}

/**
 * Scores every answer of the question from the keyboard alone: on each page of answers, Tab to the
 * first sub-aspect's scores, then per sub-aspect a digit, Tab past its "Levels" button to its
 * rationale, type it, Tab on to the next sub-aspect; then Tab to "Next answer" / "Next pair" and
 * Enter, until no page is left. Returns how many scores were given.
 */
async function scoreByKeyboard(page: Page, digit: (n: number) => number): Promise<number> {
	let n = 0;
	for (;;) {
		const groups = page.locator('fieldset.sub:visible');
		const count = await groups.count();
		await tabInto(page, groups.first().getByRole('radio').first());
		for (let i = 0; i < count; i++) {
			await page.keyboard.press(String(digit(n)));
			await page.keyboard.press('Tab');
			await page.keyboard.press('Tab');
			await page.keyboard.type(`Because of score ${digit(n)}.`);
			if (i < count - 1) await page.keyboard.press('Tab');
			n++;
		}
		// What the keys did: each visible sub-aspect holds its digit and its rationale.
		for (let i = 0; i < count; i += 7) {
			const group = groups.nth(i);
			const expected = String(digit(n - count + i));
			await expect(group.getByRole('radio', { name: expected, exact: true })).toBeChecked();
			await expect(group.getByRole('textbox')).toHaveValue(`Because of score ${expected}.`);
		}
		const next = page.getByRole('button', { name: /^Next (answer|pair)/ });
		if (!(await next.isVisible())) return n;
		await tabInto(page, next);
		await page.keyboard.press('Enter');
	}
}

test('a rubric study from the HDCEval template to the judges on the agreement page and the export', async ({
	page
}) => {
	test.setTimeout(360_000);
	await page.setViewportSize({ width: 1366, height: 768 });
	await loginAs(page, 'organiser');

	await test.step('the organiser builds a rubric from the HDCEval template', async () => {
		await page.goto('/admin/rubrics');
		await expectAccessible(page, 'Rubrics', { settle: true });
		await page.getByLabel('Name').fill('HDCEval for the journey');
		await page.getByLabel(/HDCEval template/).check();
		await page.getByRole('button', { name: 'Create rubric' }).click();
		await expect(
			page.getByRole('heading', { name: 'HDCEval for the journey', level: 1 })
		).toBeVisible();
	});

	await test.step('imports a question set and three models’ responses', async () => {
		await page.goto('/admin/imports');
		await expectAccessible(page, 'Imports', { settle: true });
		await page.getByLabel('Set name (new, or one to add to)').fill('Journey questions');
		await page.locator('#question-files').setInputFiles(
			file(
				'questions.json',
				JSON.stringify(
					QUESTIONS.map((q) => ({
						...q,
						reference_answer: `Reference for ${q.id}: see a doctor if it persists (case 0).`
					}))
				)
			)
		);
		await page.getByRole('button', { name: 'Import questions' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Imported 2 records' })).toBeVisible();
		const lines = QUESTIONS.flatMap((q, i) =>
			MODELS.map((m, j) => JSON.stringify({ question_id: q.id, model: m, response: answer(j, i) }))
		);
		await page.getByLabel('Question set', { exact: true }).selectOption('Journey questions');
		await page.locator('#set-response-files').setInputFiles({
			name: 'responses.jsonl',
			mimeType: 'application/json',
			buffer: Buffer.from(lines.join('\n'))
		});
		await page.getByRole('button', { name: 'Import responses' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Imported 6 records' })).toBeVisible();
	});

	let studyUrl = '';
	await test.step('creates a rubric study with k = 2 and opens it', async () => {
		await page.goto('/admin/studies');
		await expectAccessible(page, 'Studies', { settle: true });
		await page.getByLabel('Name', { exact: true }).fill('Journey rubric study');
		await page.getByRole('radio', { name: /^Rubric/ }).check();
		await page
			.getByLabel('Rubric (rubric studies)')
			.selectOption({ label: 'HDCEval for the journey (version 1)' });
		await page
			.getByLabel('Questions from')
			.selectOption({ label: 'Question set: Journey questions (2 questions)' });
		for (const m of MODELS) await page.getByRole('checkbox', { name: new RegExp(`^${m}`) }).check();
		await page.getByLabel('Physicians per question (k)').fill('2');
		await page.getByRole('button', { name: /^Create study/ }).click();
		const anyway = page.getByRole('button', { name: /Create anyway/ });
		if (await anyway.isVisible().catch(() => false)) await anyway.click();
		await expect(
			page.getByRole('heading', { name: 'Journey rubric study', level: 1 })
		).toBeVisible();
		studyUrl = new URL(page.url()).pathname;
		await page.getByRole('button', { name: 'Open' }).click();
		const openAnyway = page.getByRole('button', { name: /Open anyway/ });
		if (await openAnyway.isVisible({ timeout: 3000 }).catch(() => false)) await openAnyway.click();
		await expect(page.getByText('The study is now open.')).toBeVisible();
		await expect(page.getByText(/version 1 \(frozen when the study opened\)/)).toBeVisible();
		await expectAccessible(page, 'Study page', { settle: true });
	});

	for (const [who, layout] of [
		['physician', 'One answer at a time'],
		['physician2', 'Two side by side']
	] as const) {
		await test.step(`${who} scores every question by keyboard (${layout})`, async () => {
			await loginAs(page, who);
			await page.goto('/rank');
			await page
				.getByRole('listitem')
				.filter({ hasText: 'Journey rubric study' })
				.getByRole('button', { name: 'Start scoring' })
				.click();
			await expect(page).toHaveURL(/\/rank\/rubric\//);
			const choice = page.getByRole('radio', { name: layout });
			await tabInto(page, choice.locator('xpath=ancestor::fieldset[1]'));
			if (!(await choice.isChecked())) await page.keyboard.press('ArrowDown');
			await expect(choice).toBeChecked();
			for (let q = 0; q < QUESTIONS.length; q++) {
				await expect(
					page.getByRole('heading', {
						name: /Is a dry cough|Can I take ibuprofen/
					})
				).toBeVisible();
				// Nothing on the screen names a model.
				expect(await page.locator('main').innerText()).not.toMatch(/alpha|beta|gamma/);
				const given = await scoreByKeyboard(page, (n) =>
					who === 'physician' ? n % 6 : (n + 3) % 6
				);
				expect(given).toBe(4 * 10);
				await expect(page.getByText('40 of 40 scores given')).toBeVisible();
				await page.keyboard.press('Control+Enter');
				if (q < QUESTIONS.length - 1)
					await expect(page.getByText('0 of 40 scores given')).toBeVisible();
			}
			await expect(page).toHaveURL(/\/rank\?finished=1/);
		});
	}

	await test.step('imports a judge file and finds its figures on the agreement page', async () => {
		await loginAs(page, 'organiser');
		await page.goto(studyUrl);
		const codes = ['CONT', 'COND', 'CONC', 'ACC', 'INFO', 'UNC', 'CLAR', 'LANG', 'TE', 'INTE'];
		const lines = QUESTIONS.flatMap((q, i) =>
			[...MODELS, 'reference'].map((m, j) =>
				JSON.stringify({
					question_id: q.id,
					model: m,
					scores: Object.fromEntries(codes.map((c, k) => [c, (i + j + k) % 6]))
				})
			)
		);
		await page.locator('#judge-file').setInputFiles({
			name: 'llm-judge.jsonl',
			mimeType: 'application/json',
			buffer: Buffer.from(lines.join('\n'))
		});
		await page.getByLabel(/Judge name/).fill('journey-llm-judge');
		await page.getByRole('button', { name: 'Import judge' }).click();
		await expect(page.getByText(/journey-llm-judge/).first()).toBeVisible();

		await page.goto('/admin/agreement');
		const section = page
			.locator(`section[id^="study-"]`)
			.filter({ hasText: 'Journey rubric study' });
		await expect(section).toBeVisible();
		const judges = section.getByRole('table').filter({ hasText: 'journey-llm-judge' }).first();
		await expect(judges).toContainText(/Pairwise accuracy/i);
		await expect(judges).toContainText(/Pearson/i);
		await expect(judges).toContainText(/ICC/);
		await expect(
			judges.getByRole('row').filter({ hasText: 'journey-llm-judge' }).first()
		).toContainText(/\d\.\d\d/);
		await expectAccessible(page, 'Agreement', { settle: true });
	});

	await test.step('downloads the export: one row per score', async () => {
		const response = await page.request.get(`${studyUrl}/export/csv`);
		expect(response.status()).toBe(200);
		const lines = (await response.text()).trim().split('\n');
		expect(lines[0]).toContain('sub_aspect,score,rationale');
		// 2 questions × 4 answers × 10 sub-aspects × 2 physicians.
		expect(lines).toHaveLength(1 + 2 * 4 * 10 * 2);
		expect(lines.filter((l) => l.includes(',side_by_side,'))).toHaveLength(2 * 4 * 10);
		const config = await (await page.request.get(`${studyUrl}/export/config`)).json();
		expect(config).toMatchObject({ design: 'rubric', raters_per_question: 2 });
		expect(config.rubric.frozenVersion).toBe(1);
	});
});
