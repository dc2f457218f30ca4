import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { DEMO_RANKED_STUDY } from '../../../src/lib/server/demo/judgements';
import { study } from '../../../src/lib/server/db/schema';
import { parseCsv } from '../../../src/lib/server/csv';
import { expect, loginAs, test } from '../fixtures';
import { seedJudgementsByNewAccounts } from '../support/judgements';

// The demo judgements (two review rounds with adjudications, a study ranked by three physicians,
// a scoring run) written into this spec's copy of the template, by the demo's own seed.
test.use({
	javaScriptEnabled: false,
	// An object, not a bare function: Playwright would take a function for a fixture definition.
	prepareDatabase: {
		async prepare(db) {
			const { organiser } = await seedJudgementsByNewAccounts(db, 'agreement');
			// A study created after the ranked one, with nothing ranked in it yet.
			await db.insert(study).values({ name: 'Just created, empty', createdBy: organiser });
		}
	}
});

/** The files of a stored (uncompressed) zip, each checked against its CRC. */
function unzip(bytes: Buffer): Record<string, string> {
	const files: Record<string, string> = {};
	let at = 0;
	while (bytes.readUInt32LE(at) === 0x04034b50) {
		const size = bytes.readUInt32LE(at + 18);
		const nameLength = bytes.readUInt16LE(at + 26);
		const extra = bytes.readUInt16LE(at + 28);
		const name = bytes.subarray(at + 30, at + 30 + nameLength).toString('utf8');
		const data = bytes.subarray(at + 30 + nameLength + extra, at + 30 + nameLength + extra + size);
		expect(crc32(data)).toBe(bytes.readUInt32LE(at + 14));
		files[name] = data.toString('utf8');
		at += 30 + nameLength + extra + size;
	}
	return files;
}

/** A CSV as objects keyed by its header. */
function records(text: string): Record<string, string>[] {
	const [header, ...rows] = parseCsv(text);
	return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

test('an organiser reads the agreement dashboard and downloads its bundle', async ({ page }) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin');
	await page.getByRole('link', { name: 'Agreement' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Agreement' })).toBeVisible();
	await expect(page.getByText(/Computed just now from \d+ reviews of\s+\d+ items/)).toBeVisible();
	await expect(
		page.getByText(/Computed just now from \d+ rankings by\s+3 physicians of\s+\d+ questions/)
	).toBeVisible();
	await expect(page.getByText('1,000 resamples with seed')).toBeVisible();
	// It opens on the ranked study, not on the newer empty one, and says so.
	await expect(page.locator('select[name=study] option:checked')).toHaveText(
		new RegExp(`^${DEMO_RANKED_STUDY}`)
	);
	await expect(page.getByText(/newer stud(y|ies)\s+(has|have)\s+none yet/)).toBeVisible();
	// No statistic or interval is printed without meaning: a missing one says why.
	const text = await page.locator('main').innerText();
	expect(text).not.toMatch(/undefined/);
	expect(text).not.toMatch(/\[0\.00, 0\.00\]/);
	expect(text).toMatch(/needs at least \d+ double-reviewed items; has \d/);

	// Each plot is an SVG with a label, and its numbers are in a table beside it.
	for (const label of [
		'Agreement between primary and secondary reviews',
		"Number of questions by Kendall's W",
		'Mean rank of the answers shown at each position',
		'Pairwise accuracy of each metric against the physicians',
		'Expert leaderboard: Plackett–Luce strength per model'
	])
		await expect(page.locator(`svg[role="img"][aria-label^="${label}"]`)).toBeVisible();
	const kappaRow = page.getByRole('row', { name: /^Verdict Cohen's kappa/ });
	const kappaShown = (await kappaRow.locator('td').nth(2).innerText()).trim();
	const wRow = page.getByRole('row', { name: /^Kendall's W, mean over questions/ });
	const wShown = (await wRow.locator('td').nth(1).innerText()).trim();
	expect(wShown).toMatch(/^\d\.\d{3}$/);

	const downloading = page.waitForEvent('download');
	await page.getByRole('link', { name: 'Everything as one zip' }).click();
	const download = await downloading;
	expect(download.suggestedFilename()).toMatch(/^agreement-dataset-\d+-study-\d+-[\d-]+\.zip$/);
	const files = unzip(readFileSync((await download.path())!));
	expect(Object.keys(files)).toEqual(
		expect.arrayContaining([
			'ratings_verdict.csv',
			'ratings_relevance.csv',
			'rankings.csv',
			'pairwise_value.csv',
			'correlate_value.csv',
			'statistics.json',
			'settings.json',
			'definitions.txt'
		])
	);
	expect(parseCsv(files['rankings.csv'])[0]).toEqual(['question', 'rater', 'candidate', 'rank']);
	expect(parseCsv(files['ratings_verdict.csv'])[0]).toEqual(['unit', 'rater', 'value']);
	expect(JSON.parse(files['settings.json'])).toMatchObject({ resamples: 1000, seed: 'cliniq' });

	// The bundle's tables say what the page says.
	const agreement = records(files['tables/verification_agreement.csv']);
	const kappa = agreement.find(
		(r) => r.scope === 'overall' && r.scale === 'verdict' && r.statistic === 'cohen_kappa'
	)!;
	expect(Number(kappa.value).toFixed(3)).toBe(kappaShown);
	const ranking = records(files['tables/ranking_agreement.csv']);
	const w = ranking.find((r) => r.statistic === 'kendall_w_mean')!;
	expect(Number(w.value).toFixed(3)).toBe(wShown);
});
