// A hidden gold check in the review queue must be indistinguishable from a live QA pair. A reviewer
// works the queue with one check in every two items; every page they are shown is recorded as the
// browser gets it (the HTML, the page's data, the response headers, the counters), then an
// attacker who knows which pages were checks tries to tell them apart from surface features alone —
// the document's skeleton (tags and attributes without text), the data's shape (keys and types
// all the way down), header names, the round shown, the lease length, and how far "left" fell and
// "reviewed today" rose since the page before — with a leave-one-out classifier. It must do no
// better than always guessing the larger class. (Where a check falls in its block is a fresh draw
// per block for each reviewer — checks.test.ts shows the places spread — so the count of items
// seen tells an attacker the rate and nothing more.) The reviewer's history afterwards is attacked
// the same way: it lists every item shown, and its pages must not tell the checks apart either.
import type { Page } from '@playwright/test';
import { openDatabase } from '../../../src/lib/server/db/client';
import { rowsOf } from '../../../src/lib/server/db/client';
import { sql } from 'drizzle-orm';
import { validRecord } from '../../../src/lib/server/fixtures/records';
import { seedPassages } from '../../../src/lib/server/fixtures/review';
import { importQaFiles } from '../../../src/lib/server/domain/imports/qa-import';
import { importReviewGold, updateReviewerRound } from '../../../src/lib/server/domain/quality';
import { accountId } from './gold-study';
import { E2E_ACCOUNTS } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';
import { expectIndistinguishable, pageData, shape, skeleton } from './blinding-attack';

test.describe.configure({ timeout: 180_000 });

const PAGES = 12;

test.use({
	viewport: { width: 1366, height: 768 },
	prepareDatabase: {
		async prepare(db) {
			const organiser = await accountId(db, E2E_ACCOUNTS.organiser.email);
			// Twenty live short-answer pairs and twenty gold ones of the same kind, each on an imported
			// passage of its own, so pages differ by their text only.
			await seedPassages(db, 40);
			const live = Array.from({ length: 20 }, (_, i) => validRecord('short_answer', i + 1));
			await importQaFiles(db, [{ fileName: 'live.json', text: JSON.stringify(live) }], {
				actor: { userId: null, label: 'test' },
				dataset: 'Blinding check dataset'
			});
			const gold = Array.from({ length: 20 }, (_, i) => ({
				item: validRecord('short_answer', i + 21),
				verdict: 'correct',
				relevance: 4,
				explanation: 'A gold pair of the blinding test.'
			}));
			await importReviewGold(db, JSON.stringify(gold), organiser);
			// Only these pairs in the queue: the demo data's open tasks (other QA types, longer
			// passages) would tell live pages from the short-answer checks by their length alone.
			await db.execute(sql`delete from review_task t using qa_item i, dataset d
				where i.id = t.item_id and d.id = i.dataset_id and t.state = 'pending'
					and d.name <> 'Blinding check dataset'`);
			await updateReviewerRound(
				db,
				{ required: false, passMark: 0.8, questionsPerAttempt: 5, maxAttempts: 2, checkEvery: 2 },
				organiser
			);
		}
	}
});

interface Shown {
	publicId: string;
	left: number;
	today: number;
	features: Record<string, string>;
}

async function record(page: Page): Promise<Shown> {
	const path = new URL(page.url()).pathname;
	const publicId = path.split('/').pop()!;
	const html = await page.content();
	const data = await page.request.get(`${path}/__data.json`);
	const headers = Object.keys(data.headers()).sort().join(',');
	const parsed = pageData(await data.text()) as { shown?: { lease: Record<string, string> } }[];
	const lease = parsed.find((n) => n && typeof n === 'object' && 'shown' in n)?.shown?.lease;
	const counter = async (name: string) =>
		Number(await page.locator(`[data-counter="${name}"]`).first().innerText());
	return {
		publicId,
		left: await counter('left'),
		today: await counter('today'),
		features: {
			skeleton: skeleton(html),
			dataShape: JSON.stringify(shape(parsed)),
			headers,
			round: await page.getByRole('heading', { level: 1 }).innerText(),
			leaseMinutes: String(
				Math.round((+new Date(lease!.leaseExpiresAt) - +new Date(lease!.leasedAt)) / 60_000)
			)
		}
	};
}

/** Submits the item on screen by a plain form post; returns the next item's path, if any. */
async function submitShown(page: Page): Promise<string | null> {
	const path = new URL(page.url()).pathname;
	const html = await page.content();
	const taskId = /name="taskId" value="([a-z2-9]{24})"/.exec(html)![1];
	const key = /name="key" value="([^"]+)"/.exec(html)![1];
	const response = await page.request.post(`${path}?/submit`, {
		form: { taskId, key, verdict: 'correct', relevance: '4' },
		headers: { origin: new URL(page.url()).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(response.status()).toBe(303);
	const next = response.headers().location;
	return next.startsWith('/review/task/') ? next : null;
}

test('a hidden gold check in the review queue cannot be told apart from a live QA pair', async ({
	page,
	portal
}) => {
	await loginAs(page, 'reviewer');
	await page.goto('/review');
	await page.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
	// Every page recorded as a fresh load, as the later ones are (not the client-side navigation
	// the start button makes).
	await page.goto(page.url());
	const shown: Shown[] = [];
	for (let i = 0; i < PAGES; i++) {
		await expect(page).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
		await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
		shown.push(await record(page));
		const next = await submitShown(page);
		if (!next) break;
		await page.goto(next);
	}
	expect(shown.length).toBe(PAGES);
	// The counters move alike after every item: "left" falls by one, "reviewed today" rises by one.
	const rows = shown.map((s, i) => ({
		...s,
		features: {
			...s.features,
			leftFell: i === 0 ? '-' : String(shown[i - 1].left - s.left),
			todayRose: i === 0 ? '-' : String(s.today - shown[i - 1].today)
		}
	}));

	// Afterwards the reviewer's history lists every item they were shown — as many lines as
	// "reviewed today" counts, each named by the id the screen showed — and each history page is
	// recorded as the task pages were.
	await page.goto('/review');
	const links = page.locator('a[href^="/review/history/"]');
	await expect(links).toHaveCount(PAGES);
	expect(Number(await page.locator('[data-counter="today"]').first().innerText())).toBe(PAGES);
	const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
	const ids = (list: string[]) => [...list].sort().join(' ');
	expect(ids(hrefs.map((h) => h.split('/').pop()!))).toBe(ids(shown.map((s) => s.publicId)));
	const history: { publicId: string; features: Record<string, string> }[] = [];
	for (const href of hrefs) {
		await page.goto(href);
		await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
		const data = await page.request.get(`${href}/__data.json`);
		history.push({
			publicId: href.split('/').pop()!,
			features: {
				skeleton: skeleton(await page.content()),
				dataShape: JSON.stringify(shape(pageData(await data.text()))),
				headers: Object.keys(data.headers()).sort().join(','),
				heading: await page.getByRole('heading', { level: 1 }).innerText()
			}
		});
	}

	await portal.stopServer();
	const handle = await openDatabase(portal.databaseUrl, { max: 1 });
	let checks: Set<string>;
	try {
		const found = rowsOf<{ public_id: string }>(
			await handle.db.execute(sql`select public_id from review_check`)
		);
		checks = new Set(found.map((r) => r.public_id));
	} finally {
		await handle.close();
	}
	// One check in every two claims: exactly half the pages, in the queue and in the history.
	for (const [where, pages] of [
		['review screen', rows],
		['history', history]
	] as const) {
		const labelled = pages.map((r) => ({
			gold: checks.has(r.publicId),
			features: r.features as Record<string, string>
		}));
		expect(labelled.filter((r) => r.gold).length).toBe(PAGES / 2);
		expectIndistinguishable(labelled, { where });
	}
});
