// A pairwise study from import to export, as an organiser and two physicians use it at 1366×768:
// a question set with two models' responses, a pairwise study of every pair with the reference and
// k = 2 created and opened through the pages, two physicians judging every pair by keyboard alone,
// the organiser reading the Bradley–Terry leaderboard, the win matrix and the position and
// verbosity bias on the agreement page, and the judgements and battles exports. Every new page is
// scanned with axe-core.
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const MODELS = ['alpha-7b', 'beta-13b'];
/** Five questions: intervals need at least five (fewer and the page says why instead). */
const QUESTIONS = [
	'Is a dry cough for three weeks after a cold a worry?',
	'Can I take ibuprofen with blood pressure tablets?',
	'When should a child with a fever see a doctor?',
	'Is it safe to fly in the third trimester?',
	'How long should antibiotics for a sore throat be taken?'
].map((question, i) => ({ id: `pq${i + 1}`, question, context: 'Adult patient.' }));

/**
 * The answers, each saying how good it is by what it contains (a physician here judges by content,
 * as a real one would): the reference is best, alpha-7b next, beta-13b last. Lengths are close, so
 * the blinding audit has nothing to report about length.
 */
const QUALITY = ['thorough', 'adequate', 'vague'] as const;
const text = (quality: (typeof QUALITY)[number], q: number) =>
	`A ${quality} answer to case ${q + 1}: see a doctor if it persists or worsens.`;
const REFERENCE = (q: number) => text('thorough', q);
const RESPONSE = (m: number, q: number) => text(QUALITY[m + 1], q);

const quality = (shown: string) => {
	const found = QUALITY.findIndex((word) => shown.includes(`A ${word} answer`));
	if (found < 0) throw new Error(`Not an answer of this study: ${shown}`);
	return 2 - found; // 2 thorough, 1 adequate, 0 vague
};
const caseOf = (shown: string) => Number(/case (\d+)/.exec(shown)![1]);

/**
 * The key a physician presses for a pair: the better answer (← for A, → for B); the second
 * physician calls the two weaker answers a tie (both good) on case 2 and prefers the weaker answer
 * on case 5, so no rating is infinite and the physicians disagree on some pairs.
 */
function keysFor(who: 'physician' | 'physician2', a: string, b: string): string[] {
	const [qa, qb, n] = [quality(a), quality(b), caseOf(a)];
	if (who === 'physician2' && n === 2 && Math.max(qa, qb) < 2) return ['ArrowDown'];
	const better = who === 'physician2' && n === 5 ? (qa < qb ? 'A' : 'B') : qa > qb ? 'A' : 'B';
	return [better === 'A' ? 'ArrowLeft' : 'ArrowRight', '2'];
}

test('a pairwise study from its creation to the leaderboard, the biases and the export', async ({
	page
}) => {
	test.setTimeout(420_000);
	await page.setViewportSize({ width: 1366, height: 768 });
	await loginAs(page, 'organiser');

	await test.step('the organiser imports a question set and two models’ responses', async () => {
		await page.goto('/admin/imports');
		await page.getByLabel('Set name (new, or one to add to)').fill('Pairwise journey questions');
		await page.locator('#question-files').setInputFiles({
			name: 'questions.json',
			mimeType: 'application/json',
			buffer: Buffer.from(
				JSON.stringify(QUESTIONS.map((q, i) => ({ ...q, reference_answer: REFERENCE(i) })))
			)
		});
		await page.getByRole('button', { name: 'Import questions' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Imported 5 records' })).toBeVisible();
		const lines = QUESTIONS.flatMap((q, i) =>
			MODELS.map((m, j) =>
				JSON.stringify({ question_id: q.id, model: m, response: RESPONSE(j, i) })
			)
		);
		await page
			.getByLabel('Question set', { exact: true })
			.selectOption('Pairwise journey questions');
		await page.locator('#set-response-files').setInputFiles({
			name: 'responses.jsonl',
			mimeType: 'application/json',
			buffer: Buffer.from(lines.join('\n'))
		});
		await page.getByRole('button', { name: 'Import responses' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'Imported 10 records' })).toBeVisible();
	});

	let studyUrl = '';
	await test.step('creates a pairwise study of every pair with the reference, k = 2, and opens it', async () => {
		await page.goto('/admin/studies');
		// Typing before the page has hydrated can be undone by hydration: wait for it.
		await page.waitForLoadState('networkidle');
		await page.getByLabel('Name', { exact: true }).fill('Journey pairwise study');
		await page.getByRole('radio', { name: /^Pairwise/ }).check();
		await page.getByRole('radio', { name: 'All pairs of answers per question' }).check();
		await page
			.getByLabel('Questions from')
			.selectOption({ label: 'Question set: Pairwise journey questions (5 questions)' });
		for (const m of MODELS) await page.getByRole('checkbox', { name: new RegExp(`^${m}`) }).check();
		await expect(
			page.getByRole('checkbox', { name: /Include the reference answer/ })
		).toBeChecked();
		await page.getByLabel('Physicians per question (k)').fill('2');
		await expect(
			page.getByText('3 answers per question make C(3, 2) = 3 pairs; each question shows all 3.')
		).toBeVisible();
		await expectAccessible(page, 'Create form, pairwise', { settle: true });
		await page.getByRole('button', { name: /^Create study/ }).click();
		const anyway = page.getByRole('button', { name: /Create anyway/ });
		if (await anyway.isVisible({ timeout: 2000 }).catch(() => false)) await anyway.click();
		await expect(
			page.getByRole('heading', { name: 'Journey pairwise study', level: 1 })
		).toBeVisible();
		studyUrl = new URL(page.url()).pathname;
		await page.getByRole('button', { name: /^Open/ }).click();
		const openAnyway = page.getByRole('button', { name: /Open anyway/ });
		if (await openAnyway.isVisible({ timeout: 3000 }).catch(() => false)) await openAnyway.click();
		await expect(page.getByText('The study is now open.')).toBeVisible();
		const card = page
			.locator('.card')
			.filter({ has: page.getByRole('heading', { name: 'Design' }) });
		await expect(card).toContainText('15, each judged by k = 2 (30 judgements in all)');
		await expectAccessible(page, 'Pairwise study, open', { settle: true });
	});

	const shownLeft: Record<string, number> = { physician: 0, physician2: 0 };
	for (const who of ['physician', 'physician2'] as const) {
		await test.step(`${who} judges all 15 pairs by keyboard`, async () => {
			await loginAs(page, who);
			await page.goto('/rank');
			const study = page
				.getByRole('listitem')
				.filter({ has: page.getByRole('heading', { name: 'Journey pairwise study' }) });
			await expect(study).toContainText('0 of 15 pairs');
			await study.getByRole('button', { name: 'Start comparing' }).click();
			await expect(page).toHaveURL(/\/rank\/pairwise\//);
			await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
			if (who === 'physician') await expectAccessible(page, 'Pairwise screen', { settle: true });
			const outcome = page.getByRole('group', { name: 'Which answer is better?' });
			for (let i = 0; i < 15; i++) {
				await expect(page.getByLabel('Your progress')).toContainText(`Pair ${i + 1} of 15`);
				const a = await page.getByRole('region', { name: 'Text of answer A' }).innerText();
				const b = await page.getByRole('region', { name: 'Text of answer B' }).innerText();
				expect(await page.locator('main').innerText()).not.toMatch(/alpha|beta|\breference/i);
				if (quality(a) === 2) shownLeft[who]++;
				const keys = keysFor(who, a, b);
				for (const key of keys) await page.keyboard.press(key);
				await expect(outcome.getByRole('radio', { checked: true })).toHaveCount(1);
				await page.keyboard.press('Control+Enter');
				if (i < 14) await expect(page.getByText(`${i + 1} judged so far`)).toBeVisible();
			}
			await expect(page).toHaveURL(/\/rank\?finished=1/);
			// Sides are counterbalanced: the reference was not always on the same side.
			expect(shownLeft[who]).toBeGreaterThan(0);
			expect(shownLeft[who]).toBeLessThan(10);
		});
	}

	await test.step('the organiser reads the leaderboard, matrix and biases', async () => {
		await loginAs(page, 'organiser');
		const id = /\/admin\/studies\/(\d+)/.exec(studyUrl)![1];
		await page.goto(`/admin/agreement?study=${id}`);
		await expect(
			page.getByRole('heading', { name: 'Pairwise study “Journey pairwise study”' })
		).toBeVisible();
		const board = page
			.getByRole('table')
			.filter({ has: page.getByText("Leaderboard from the physicians' preferences") });
		const rows = board.getByRole('row');
		// Best first: the reference, then alpha-7b, then beta-13b.
		const order = await rows.allInnerTexts();
		const at = (name: RegExp) => order.findIndex((r) => name.test(r));
		expect(at(/reference/i)).toBeGreaterThan(0);
		expect(at(/reference/i)).toBeLessThan(at(/alpha-7b/));
		expect(at(/alpha-7b/)).toBeLessThan(at(/beta-13b/));
		await expect(page.getByRole('heading', { name: 'Win / tie / loss matrix' })).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Position bias' })).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Verbosity bias' })).toBeVisible();
		await expect(
			page.getByRole('heading', { name: 'Length-controlled leaderboard' })
		).toBeVisible();
		await expectAccessible(page, 'Agreement, pairwise study', { settle: true });
	});

	await test.step('downloads the judgements and the battles', async () => {
		const judgements = await page.request.get(`${studyUrl}/export/csv`);
		expect(judgements.status()).toBe(200);
		const lines = (await judgements.text()).trim().split(/\r?\n/);
		expect(lines).toHaveLength(1 + 30);
		const battles = await page.request.get(`${studyUrl}/export/battles`);
		expect(battles.status()).toBe(200);
		const rows = (await battles.text()).trim().split(/\r?\n/);
		expect(rows[0]).toBe('question,question_id,model_a,model_b,winner,judge,length_a,length_b');
		expect(rows).toHaveLength(1 + 30);
		const winners = rows.slice(1).map((r) => r.split(',')[4]);
		expect(winners.filter((w) => w === 'tie')).toHaveLength(1);
		expect(winners.every((w) => ['model_a', 'model_b', 'tie'].includes(w))).toBe(true);
	});
});
