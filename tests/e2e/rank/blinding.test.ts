import { DEMO_MODELS } from '../../../src/lib/server/demo/demo-data';
import { expect, loginAs, test } from '../fixtures';
import { createOpenStudy, startRanking } from './helpers';

const FORBIDDEN = [
	...DEMO_MODELS,
	'reference',
	'isReference',
	'is_reference',
	'modelId',
	'model_id'
];

// The prompts' answer scaffolding: only the models write it, so it would mark them apart from the
// reference; the canonical presentation strips it.
const SCAFFOLDING = [
	'final answer:',
	'incorrect explanation:',
	'incorrect reasoning step:',
	'incorrect reasoning explanation:'
];

function assertBlind(where: string, body: string) {
	const lower = body.toLowerCase();
	for (const word of FORBIDDEN)
		expect(lower, `${where} mentions “${word}”`).not.toContain(word.toLowerCase());
}

test('nothing a physician can fetch names a model or marks the reference', async ({ browser }) => {
	test.setTimeout(60_000);
	const name = `E2E blinding ${Date.now()}`;
	const studyId = await createOpenStudy(browser, name, ['Short inverse', 'Multi-hop inverse']);
	const { context, page } = await startRanking(browser, 'physician', name);
	const question = new URL(page.url()).pathname;
	const origin = new URL(page.url()).origin;
	// The rendered DOM after hydration, including element ids and class names.
	assertBlind('ranking DOM', await page.content());
	const answers = await page.locator('.response .text').allTextContents();
	expect(answers).toHaveLength(4);
	for (const text of answers)
		for (const prefix of SCAFFOLDING) expect(text.toLowerCase()).not.toContain(prefix);

	const pages = ['/rank', question, `${question}/__data.json`, '/rank/__data.json', '/__data.json'];
	for (const path of pages) {
		const response = await page.request.get(path);
		expect(response.status(), path).toBe(200);
		assertBlind(path, await response.text());
	}

	// Form action responses: an incomplete ranking (JSON for enhanced forms, HTML without JS).
	const candidates = await page
		.locator('input[name^="rank."]')
		.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name.slice('rank.'.length)));
	expect(candidates.length).toBe(4);
	for (const c of candidates) expect(c).toMatch(/^[a-z2-9]{12}$/);
	const form = Object.fromEntries(candidates.map((c, i) => [`tag.${c}`, i ? 'okay' : 'good']));
	for (const enhanced of [true, false]) {
		const response = await page.request.post(`${question}?/submit`, {
			form: {
				...form,
				idempotencyKey: 'blinding-test-key',
				[`rank.${candidates[0]}`]: '1',
				// An error type on an okay answer travels by its blinded id too.
				[`errorType.${candidates[1]}`]: 'omission'
			},
			headers: {
				origin,
				...(enhanced ? { 'x-sveltekit-action': 'true', accept: 'application/json' } : {})
			}
		});
		const body = await response.text();
		expect(body).toContain('not ranked yet');
		assertBlind(`submit action (enhanced: ${enhanced})`, body);
	}
	const start = await page.request.post('/rank?/start', {
		form: { studyId: String(studyId) },
		headers: { origin, 'x-sveltekit-action': 'true', accept: 'application/json' }
	});
	assertBlind('start action', await start.text());

	// Organiser pages and exports are refused outright.
	for (const path of [
		`/admin/studies/${studyId}`,
		`/admin/studies/${studyId}/export/json`,
		`/admin/studies/${studyId}/export/csv`,
		`/admin/studies/${studyId}/export/blinding`,
		'/admin/studies'
	]) {
		const response = await page.request.get(path);
		expect(response.status(), path).toBe(403);
		assertBlind(path, await response.text());
	}
	await context.close();
});

test('the study page reports how often the reference is identifiable by its form', async ({
	browser
}) => {
	test.setTimeout(60_000);
	const studyId = await createOpenStudy(browser, `E2E audit ${Date.now()}`, [
		'Short inverse',
		'Multi-hop inverse'
	]);
	const context = await browser.newContext();
	const page = await context.newPage();
	await loginAs(page, 'organiser');
	await page.goto(`/admin/studies/${studyId}`);
	const audit = page.getByRole('region', { name: 'Blinding audit' });
	// Demo models write the prompts' prefixes; the demo references do not: 6 of 6 raw, 0 shown.
	await expect(audit).toContainText('Reference identifiable by form in 0 of 6 questions (0 %)');
	await expect(audit).toContainText('As imported, before the canonical presentation: 6 of 6.');
	// The attacks' table: one row per type and one for all types, the reference's figures each.
	const table = audit.getByRole('table');
	await expect(table.getByRole('row', { name: /^Short inverse/ })).toContainText(/of 3 \(/);
	await expect(table.getByRole('row', { name: /^All types together/ })).toContainText(
		/vs 25 % — (not )?above chance/
	);
	await page.setViewportSize({ width: 1366, height: 768 });
	await audit.scrollIntoViewIfNeeded();
	await page.screenshot({ path: 'test-results/blinding-audit.png' });
	const exported = await page.request.get(`/admin/studies/${studyId}/export/blinding`);
	expect(exported.status()).toBe(200);
	const body = await exported.json();
	expect(body.presentation).toMatchObject({ short_inverse: 'answer_only' });
	expect(
		body.attacks.filter(
			(r: { texts: string; source: string }) => r.texts === 'shown' && r.source === 'reference'
		).length
	).toBe(3 * 3);
	await context.close();
});
