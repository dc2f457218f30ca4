// A hidden gold check must be indistinguishable from ordinary work. The physician works a live
// ranking study with one gold check in every two claims; every page they are shown is recorded
// as the browser gets it (the HTML, the page's data, the response headers), then an attacker who
// knows which pages were gold tries to tell them apart from surface features alone — the
// document's skeleton (tags and attributes without text), the data's shape (keys and types all
// the way down), header names, the number of answers, the progress counter and the place in the
// queue — with a leave-one-out classifier. It must do no better than always guessing the larger
// class; and the feedback page of a qualification round does not exist for a hidden check.
import type { Page } from '@playwright/test';
import { and, eq, inArray } from 'drizzle-orm';
import { openDatabase } from '../../../src/lib/server/db/client';
import { assignment, studyQuestion } from '../../../src/lib/server/db/schema';
import { accountId, seedGoldStudy } from './gold-study';
import { E2E_ACCOUNTS } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';
import { expectIndistinguishable, pageData, shape, skeleton } from './blinding-attack';

// Preparing the study (thirty items, their answers, the gold) runs before the portal starts.
test.describe.configure({ timeout: 180_000 });

const STUDY = 'Live study with hidden gold checks';
const PAGES = 12;
const MODELS = ['gold-e2e-alpha', 'gold-e2e-beta', 'gold-e2e-gamma'];

test.use({
	prepareDatabase: {
		async prepare(db) {
			const organiser = await accountId(db, E2E_ACCOUNTS.organiser.email);
			// Thirty short-answer items of one kind, each answered alike by three models, so pages
			// differ by their text only; every third question is gold, so gold and live questions
			// are drawn from the same items.
			await seedGoldStudy(db, organiser, {
				name: STUDY,
				models: MODELS,
				items: 30,
				seed: 7000,
				response: (item) => `Answer: ${item.question.length} mg`,
				gold: (i) => i % 3 === 0,
				explanation: 'The first demo model answers this one well.',
				settings: { goldEvery: 2 }
			});
		}
	}
});

interface Shown {
	publicId: string;
	features: Record<string, string>;
}

async function record(page: Page, index: number): Promise<Shown> {
	const path = new URL(page.url()).pathname;
	const publicId = path.split('/').pop()!;
	const html = await page.content();
	const data = await page.request.get(`${path}/__data.json`);
	const headers = Object.keys(data.headers()).sort().join(',');
	const dataText = await data.text();
	// The progress line the screen shows ("n of m"), as the physician reads it.
	const progress = (await page.locator('body').innerText()).match(/\d+ of \d+/g)?.join(';') ?? '';
	return {
		publicId,
		features: {
			skeleton: skeleton(html),
			dataShape: JSON.stringify(shape(pageData(dataText))),
			headers,
			answers: String(await page.getByRole('article').count()),
			progress,
			place: String(index % 2)
		}
	};
}

/** Ranks every shown answer in order (first good, the rest okay) by a plain form post. */
async function submitShown(page: Page): Promise<string | null> {
	const path = new URL(page.url()).pathname;
	const ids = await page
		.locator('input[name^="rank."]')
		.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name.slice('rank.'.length)));
	const form: Record<string, string> = { idempotencyKey: `gold-${path}` };
	ids.forEach((id, i) =>
		Object.assign(form, { [`rank.${id}`]: String(i + 1), [`tag.${id}`]: i ? 'okay' : 'good' })
	);
	const response = await page.request.post(`${path}?/submit`, {
		form,
		headers: { origin: new URL(page.url()).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(response.status()).toBe(303);
	const next = response.headers().location;
	return next.startsWith('/rank/q/') ? next : null;
}

test('a hidden gold check cannot be told apart from ordinary work', async ({ page, portal }) => {
	test.setTimeout(120_000);
	await page.setViewportSize({ width: 1366, height: 768 });
	await loginAs(page, 'physician');
	await page.goto('/rank');
	await page
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { name: STUDY }) })
		.getByRole('button')
		.click();
	const shown: Shown[] = [];
	for (let i = 0; i < PAGES; i++) {
		await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
		await expect(page.getByRole('article').first()).toBeVisible();
		shown.push(await record(page, i));
		const next = await submitShown(page);
		if (!next) break;
		await page.goto(next);
	}
	expect(shown.length).toBe(PAGES);
	// A hidden check has no feedback page: not found, like any page that is not the rater's.
	for (const s of shown) {
		const feedback = await page.request.get(`/rank/feedback/${s.publicId}`);
		expect(feedback.status()).toBe(404);
	}

	await portal.stopServer();
	const handle = await openDatabase(portal.databaseUrl, { max: 1 });
	let goldIds: Set<string>;
	try {
		const rows = await handle.db
			.select({ publicId: assignment.publicId, gold: studyQuestion.gold })
			.from(assignment)
			.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
			.where(
				and(
					inArray(
						assignment.publicId,
						shown.map((s) => s.publicId)
					),
					eq(studyQuestion.gold, true)
				)
			);
		goldIds = new Set(rows.map((r) => r.publicId));
	} finally {
		await handle.close();
	}
	// One gold check in every two claims: exactly half the pages.
	expect(goldIds.size).toBe(PAGES / 2);
	const rows = shown.map((s) => ({ gold: goldIds.has(s.publicId), features: s.features }));
	// Each surface feature, alone, takes the same values on gold and ordinary pages (the progress
	// line and the place differ on every page), and together they tell nothing.
	expectIndistinguishable(rows, {
		where: 'ranking screen',
		features: ['skeleton', 'dataShape', 'headers', 'answers']
	});
});
