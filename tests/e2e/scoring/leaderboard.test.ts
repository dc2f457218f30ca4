import { DEMO_MODELS } from '../../../src/lib/server/demo/demo-data';
import { expect, loginAs, test } from '../fixtures';

test('an organiser scores the demo models and reads the leaderboard and box plots', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/scoring');
	for (const name of DEMO_MODELS) {
		await expect(page.getByRole('checkbox', { name: new RegExp(name) })).toBeChecked();
	}
	await page.getByLabel('Mode').selectOption('official');
	await page.getByLabel('Embedder').fill('hash:384');
	await page.getByRole('button', { name: 'Start scoring' }).click();

	await expect(page).toHaveURL(/\/admin\/scoring\/\d+$/);
	await expect(page.getByText('63 responses')).toBeVisible();
	await expect(page.locator('.badge', { hasText: 'done' })).toBeVisible();
	await expect(page.getByText('hash:384', { exact: true })).toBeVisible();

	const table = page.getByRole('table');
	await expect(table.getByRole('columnheader', { name: 'MH-Inv' })).toBeVisible();
	await expect(table.getByRole('columnheader', { name: 'METEOR' })).toBeVisible();
	for (const name of DEMO_MODELS) {
		await expect(table.getByRole('rowheader', { name: new RegExp(name) })).toBeVisible();
	}
	const plot = page.getByRole('img', { name: 'Short answer: score distribution per model' });
	await expect(plot).toBeVisible();
	await expect(plot.locator('rect.box')).toHaveCount(3);

	const csv = await page.request.get(`${page.url()}/scores?format=csv`);
	expect(csv.status()).toBe(200);
	const lines = (await csv.text()).trim().split('\r\n');
	expect(lines).toHaveLength(64);
	expect(lines[1]).toMatch(/^\d+,official,hash:384,\d+\.\d+\.\d+,/);
	const json = await (await page.request.get(`${page.url()}/scores?format=json`)).json();
	expect(json.run).toMatchObject({ mode: 'official', embedder: 'hash:384' });
	expect(json.leaderboard.map((r: { model: string }) => r.model).sort()).toEqual([...DEMO_MODELS]);
	expect(json.scores).toHaveLength(63);
	expect(json.scores[0]).toMatchObject({ mode: 'official', embedder: 'hash:384' });

	// The run names its recorded corpus; a re-run on it repeats every number exactly.
	expect(json.run.corpus).toMatchObject({
		kind: 'items',
		digest: expect.stringMatching(/^[0-9a-f]{64}$/)
	});
	await expect(page.getByText(`Corpus: ${json.run.corpus.label}.`)).toBeVisible();
	expect(lines[1].split(',').at(-1)).toBe(json.run.corpus.digest);
	const firstUrl = page.url();
	await page.getByRole('button', { name: 'Re-run on the same corpus' }).click();
	await expect(page).not.toHaveURL(firstUrl);
	await expect(page.getByRole('link', { name: `run ${json.run.id}` })).toBeVisible();
	await expect(page.locator('.badge', { hasText: 'done' })).toBeVisible();
	const again = await (await page.request.get(`${page.url()}/scores?format=json`)).json();
	expect(again.run).toMatchObject({ rerunOf: json.run.id, corpus: json.run.corpus });
	expect(again.leaderboard).toEqual(json.leaderboard);
	const values = (body: { scores: { responseId: number; value: number }[] }) =>
		body.scores.map((r) => [r.responseId, r.value]);
	expect(values(again)).toEqual(values(json));

	await page.getByRole('link', { name: '← All runs' }).click();
	await expect(
		page.getByRole('row', { name: /Run \d+.*official.*hash:384.*done/ }).first()
	).toBeVisible();
});

test('a physician cannot see scoring pages or download scores', async ({ page }) => {
	await loginAs(page, 'physician');
	const list = await page.goto('/admin/scoring');
	expect(list?.status()).toBe(403);
	const detail = await page.goto('/admin/scoring/1');
	expect(detail?.status()).toBe(403);
	const csv = await page.request.get('/admin/scoring/1/scores?format=csv');
	expect(csv.status()).toBe(403);
	await page.goto('/');
	await expect(page.getByRole('link', { name: 'Scoring' })).toHaveCount(0);
});
