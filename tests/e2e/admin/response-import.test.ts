import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demoQaRecords } from '../../../src/lib/server/demo/demo-data';
import { expect, loginAs, test } from '../fixtures';

// Model outputs imported through the imports page by ClinIQLink's identifiers: the source
// paragraph id, and a type's outputs alone in the order of its QA list. The demo holds 3 items
// of each type, imported in the order of `demoQaRecords`.
const SHOTS = process.env.SHOTS_DIR;

const ofType = (type: string) => demoQaRecords.filter((r) => r.type === type);
const outputs = (page: Page) => page.locator('form[action="?/responses"]');

async function upload(page: Page, files: { name: string; content: unknown }[]) {
	await outputs(page)
		.getByLabel('Files', { exact: true })
		.setInputFiles(
			files.map((f) => ({
				name: f.name,
				mimeType: 'application/json',
				buffer: Buffer.from(typeof f.content === 'string' ? f.content : JSON.stringify(f.content))
			}))
		);
}

test.beforeEach(async ({ page }) => {
	// Accessibility scans and several round trips: more than the default 30 s on a busy machine.
	test.setTimeout(120_000);
	await page.setViewportSize({ width: 1366, height: 768 });
	await loginAs(page, 'organiser');
	await page.goto('/admin/imports');
	await page.waitForLoadState('networkidle');
});

test('outputs matched by source paragraph id, then a rejected import listing what matched nothing', async ({
	page
}) => {
	const scan = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	expect(
		scan.violations
			.filter((v) => v.impact === 'serious' || v.impact === 'critical')
			.map((v) => v.id)
	).toEqual([]);
	const form = outputs(page);
	// JSONL naming the items by paragraph id (the short-answer items have one item per passage).
	const lines = ofType('short_answer').map((r, i) =>
		JSON.stringify({ type: r.type, paragraph_id: r.source.paragraph_id, response: `Answer ${i}` })
	);
	await form.getByLabel(/Model name/).fill('source-model');
	await form.getByLabel('Match outputs to QA items by').selectOption('source');
	await upload(page, [{ name: 'by-source.jsonl', content: lines.join('\n') }]);
	await form.getByRole('button', { name: 'Import outputs' }).click();
	await expect(form.getByRole('status')).toContainText('Imported 3 records');
	await expect(form.getByRole('list', { name: 'Identifier used per file' })).toContainText(
		'by-source.jsonl: matched by the source paragraph id (with the type) (chosen)'
	);

	// An unknown paragraph id rejects the import, which lists it with its position.
	const unknown = [
		...lines,
		JSON.stringify({ type: 'short_answer', paragraph_id: 'no-such-paragraph', response: 'x' })
	];
	// A successful import resets the form.
	await form.getByLabel(/Model name/).fill('source-model');
	await form.getByLabel('Match outputs to QA items by').selectOption('source');
	await upload(page, [{ name: 'by-source.jsonl', content: unknown.join('\n') }]);
	await form.getByRole('button', { name: 'Import outputs' }).click();
	const alert = form.getByRole('alert');
	await expect(alert).toContainText('nothing was imported');
	await expect(alert).toContainText('Outputs that match no QA item');
	await expect(alert.getByRole('row', { name: /by-source\.jsonl record 4/ })).toContainText(
		'paragraph id "no-such-paragraph" (short_answer) matches no QA item'
	);
	if (SHOTS) await page.screenshot({ path: `${SHOTS}/imports-rejected-1366.png`, fullPage: true });
});

test('outputs alone matched by type and position, the ones beyond the list skipped and listed', async ({
	page
}) => {
	const form = outputs(page);
	const tf = ofType('true_false').map((r) => (r as { answer: string }).answer);
	await form.getByLabel(/Model name/).fill('position-model');
	// Detected: a bare array named after its type is matched by position; one output too many.
	await form.getByLabel('import the others and list them').check();
	await upload(page, [{ name: 'true_false.json', content: [...tf, 'True'] }]);
	await form.getByRole('button', { name: 'Import outputs' }).click();
	await expect(form.getByRole('status')).toContainText('Imported 3 records');
	await expect(form.getByRole('list', { name: 'Identifier used per file' })).toContainText(
		'true_false.json: matched by type and position'
	);
	await expect(form.getByRole('list', { name: 'Identifier used per file' })).toContainText(
		'(detected)'
	);
	const warning = form.getByRole('region', { name: /Outputs that matched no QA item/ });
	await expect(warning).toContainText('1 output matched no QA item and was not imported.');
	await expect(warning.getByRole('row', { name: /true_false\.json record 4/ })).toContainText(
		'true_false #4 (index 3) matches no QA item in dataset'
	);
	const scan = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	expect(
		scan.violations
			.filter((v) => v.impact === 'serious' || v.impact === 'critical')
			.map((v) => v.id)
	).toEqual([]);
	if (SHOTS) await page.screenshot({ path: `${SHOTS}/imports-position-1366.png`, fullPage: true });

	// The first true/false item now holds the first output of this model.
	await page.goto('/admin/items?type=true_false&sort=id&dir=asc');
	await page.locator('main tbody tr a[href^="/admin/items/"]').first().click();
	await expect(page.locator('details.response', { hasText: 'position-model' })).toContainText(
		tf[0]
	);
});
