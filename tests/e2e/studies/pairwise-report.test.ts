// A judged pairwise study on the agreement page at 1366×768, as an organiser reads it: the
// leaderboard and its forest plot, the length-controlled leaderboard, the win matrix, position and
// verbosity bias, agreement; the bundle with battles.csv and the pairwise tables; axe-core; the
// screenshot of docs/guide-organiser.md. The study (three models and the reference, six questions,
// every pair judged by two physicians) and a ranking study of the same questions are written by
// the project's own fixture.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { parseCsv } from '../../../src/lib/server/csv';
import { seedJudgedPairwiseStudy } from '../../../src/lib/server/fixtures/pairwise-report';
import type { PrepareDatabase } from '../support/portal';
import { expect, loginAs, test } from '../fixtures';

const STUDY = 'Pairwise e2e study';
const JUDGED: PrepareDatabase = {
	async prepare(db) {
		await seedJudgedPairwiseStudy(db, { name: STUDY, ranked: true });
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: JUDGED });

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

test('an organiser reads a pairwise study on the agreement page and downloads its bundle', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/agreement');
	const option = page.locator('select[name=study] option', { hasText: STUDY });
	const studyId = await option.getAttribute('value');
	await page.goto(`/admin/agreement?study=${studyId}`);
	const section = page.locator(`section#study-${studyId}`);
	await expect(section.getByRole('heading', { name: `Pairwise study “${STUDY}”` })).toBeVisible();
	await expect(section).toContainText('72 judgements by 2 physicians of 6 questions');

	await test.step('the leaderboard: four models ranked, each with a rating, interval and rank range', async () => {
		const board = section.locator('table.board').first();
		await expect(board.locator('caption')).toHaveText(
			"Leaderboard from the physicians' preferences"
		);
		const rows = board.locator('tbody tr');
		await expect(rows).toHaveCount(4);
		for (let i = 0; i < 4; i++) {
			const cells = rows.nth(i).locator('td');
			await expect(cells.nth(0)).toHaveText(String(i + 1));
			await expect(cells.nth(1)).toHaveText(/^\d{3,4}$/);
			await expect(cells.nth(2)).toHaveText(/^\[\d{3,4}, \d{3,4}\]$/);
			await expect(cells.nth(3)).toHaveText(/^\d(–\d)?$/);
			await expect(cells.nth(4)).toHaveText(/^\d+$/);
		}
		await expect(page.locator(`#forest-plain-${studyId}-title`)).toHaveText(
			'Bradley–Terry rating per model with its 95 % interval'
		);
		await expect(section.locator('svg[aria-labelledby^="forest-plain"] circle')).toHaveCount(4);
		await expect(
			section.getByRole('heading', { name: 'Length-controlled leaderboard', exact: true })
		).toBeVisible();
		await expect(section.locator('svg[aria-labelledby^="forest-style"]')).toBeVisible();
		// The number of resamples is the query's, never a fixed figure.
		await expect(section).toContainText(
			/percentile bootstrap,\s+1000\s+resamples\s+of\s+whole\s+questions/
		);
		await expect(section).toContainText(
			/Intervals: 200\s+resamples of whole questions \(at most 200/
		);
	});

	await test.step('the win matrix, position and verbosity bias, agreement', async () => {
		const matrix = section.getByRole('region', { name: 'Win, tie and loss matrix' });
		await expect(matrix.locator('tbody tr')).toHaveCount(4);
		await expect(matrix.locator('td.num').first()).toHaveText(/^\d+–\d+–\d+\s*\d+\.\d %$/);
		await expect(
			section.getByRole('heading', { name: 'Position bias', exact: true })
		).toBeVisible();
		await expect(
			section.getByRole('row', { name: /^All physicians \d+ \d+ \d+ / }).first()
		).toBeVisible();
		await expect(
			section.getByRole('heading', { name: 'Verbosity bias', exact: true })
		).toBeVisible();
		await expect(section.getByRole('row', { name: /^2× or more \d+ \d+/ })).toBeVisible();
		await expect(section.getByRole('row', { name: /^Percent agreement \d+\.\d %/ })).toBeVisible();
		await expect(section.getByRole('row', { name: /^LLM judge 36 / })).toBeVisible();
		const text = await page.locator('main').innerText();
		expect(text).not.toMatch(/undefined|NaN/);
	});

	await test.step('leaderboards across designs and the tables to download', async () => {
		await expect(
			page.getByRole('heading', { level: 2, name: 'Bradley–Terry leaderboards across designs' })
		).toBeVisible();
		// The ranking study of the same questions, with how closely it orders the models.
		await expect(
			page.getByRole('row', {
				name: /^Ranked on the same questions Ranking Rankings 6 4 -?\d\.\d{3} -?\d\.\d{3}$/
			})
		).toBeVisible();
		await expect(
			page.locator('table.board caption', {
				hasText: 'Ranking study “Ranked on the same questions”'
			})
		).toBeVisible();
		for (const t of ['pairwise_leaderboard', 'pairwise_matrix', 'compared_leaderboards'])
			await expect(page.locator('ul.tables code', { hasText: new RegExp(`^${t}$`) })).toBeVisible();
	});

	await test.step('passes axe-core (WCAG 2.1 A and AA)', async () => {
		const { violations } = await new AxeBuilder({ page })
			.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
			.analyze();
		const bad = violations
			.filter((v) => v.impact === 'serious' || v.impact === 'critical')
			.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
		expect(bad).toEqual([]);
	});

	await test.step('downloads the bundle: battles.csv and the pairwise tables', async () => {
		const downloading = page.waitForEvent('download');
		await page.getByRole('link', { name: 'Everything as one zip' }).click();
		const files = unzip(readFileSync((await (await downloading).path())!));
		expect(Object.keys(files)).toEqual(
			expect.arrayContaining([
				'battles.csv',
				'preferences.csv',
				'tables/pairwise_leaderboard.csv',
				'tables/pairwise_leaderboard_length_controlled.csv',
				'tables/pairwise_matrix.csv',
				'tables/pairwise_position_bias.csv',
				'tables/pairwise_verbosity_bias.csv',
				'tables/pairwise_agreement.csv',
				'tables/pairwise_judges.csv',
				'tables/compared_leaderboards.csv'
			])
		);
		const battles = parseCsv(files['battles.csv']).filter((r) => r.length > 1);
		expect(battles[0]).toEqual([
			'question',
			'model_a',
			'model_b',
			'winner',
			'length_a',
			'length_b'
		]);
		expect(battles).toHaveLength(73);
		// The page's leaderboard is the table's, model by model.
		const [header, ...rows] = parseCsv(files['tables/pairwise_leaderboard.csv']).filter(
			(r) => r.length > 1
		);
		const model = header.indexOf('model');
		const shown = await section
			.locator('table.board')
			.first()
			.locator('tbody th[scope=row]')
			.allInnerTexts();
		expect(rows.map((r) => r[model])).toEqual(shown);
		// Each table also downloads on its own.
		const matrix = await page.request.get(
			`/admin/agreement/export/pairwise_matrix.csv?study=${studyId}`
		);
		expect(matrix.ok()).toBe(true);
		expect(parseCsv(await matrix.text())[0]).toEqual([
			'model',
			'opponent',
			'wins',
			'ties',
			'losses',
			'n',
			'win_share',
			'reason'
		]);
	});

	await test.step('photographs the leaderboard for the organiser guide', async () => {
		await section
			.getByRole('heading', { name: 'Leaderboard (Bradley–Terry)' })
			.scrollIntoViewIfNeeded();
		await page.evaluate(() => {
			const h = [...document.querySelectorAll('h4')].find((x) =>
				x.textContent?.startsWith('Leaderboard (Bradley')
			);
			window.scrollTo(0, (h?.getBoundingClientRect().top ?? 0) + window.scrollY - 16);
		});
		await page.mouse.move(0, 0);
		await page.screenshot({
			path: join(import.meta.dirname, '../../../docs/images/organiser-pairwise-report.png'),
			animations: 'disabled',
			caret: 'hide'
		});
	});
});
