// The main pages of every role, for specs that walk them all (accessibility, CSP, hydration):
// the database they need, how to open one, and the organiser's pages (detail pages found by
// following the first link of their list).
import { expect, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { dispute, qaItem, qaItemVersion } from '../../../src/lib/server/db/schema';
import { seedJudgementsByNewAccounts } from './judgements';
import type { PrepareDatabase } from './portal';

/**
 * The demo judgements (reviews, adjudications, a closed and an open ranking study, a rubric and a
 * pairwise study, a scoring run) and one open dispute, so every detail page has something to show.
 */
export const MAIN_PAGES_DATABASE: PrepareDatabase = {
	async prepare(db) {
		const { reviewers } = await seedJudgementsByNewAccounts(db, 'a11y');
		const [item] = await db
			.select({ id: qaItem.id, versionId: qaItemVersion.id })
			.from(qaItem)
			.innerJoin(qaItemVersion, eq(qaItemVersion.itemId, qaItem.id))
			.limit(1);
		await db.insert(dispute).values({
			itemId: item.id,
			itemVersionId: item.versionId,
			raisedBy: reviewers[0],
			category: 'ambiguous',
			reason: 'The question allows two readings.'
		});
	}
};

/** Opens a page that must exist (a missing route fails here, it is never skipped). */
export async function open(page: Page, path: string) {
	const response = await page.goto(path);
	expect(response?.status(), `${path} answers`).toBe(200);
	await page.waitForLoadState('networkidle');
	await expect(page.locator('h1'), `${path} has one h1`).toHaveCount(1);
	await expect(page.locator('main'), `${path} has one main`).toHaveCount(1);
}

/** The first link on `listPath` whose address matches `pattern` (there must be one). */
export async function firstLink(page: Page, listPath: string, pattern: RegExp): Promise<string> {
	await open(page, listPath);
	const hrefs = await page
		.locator('main a[href]')
		.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
	const href = hrefs.find((h) => pattern.test(h));
	expect(href, `${listPath} links to a page like ${pattern}`).toBeTruthy();
	return href!;
}

export type Target = string | ((page: Page) => Promise<string>);
export const ORGANISER_PAGES: [string, Target][] = [
	['home', '/'],
	['overview', '/admin'],
	['items list', '/admin/items'],
	['an item', (p) => firstLink(p, '/admin/items', /^\/admin\/items\/\d+$/)],
	['imports', '/admin/imports'],
	['verification overview', '/admin/verification'],
	['verification settings', '/admin/verification/settings'],
	['adjudication list', '/admin/verification/adjudication'],
	[
		'an adjudication',
		(p) =>
			firstLink(p, '/admin/verification/adjudication', /^\/admin\/verification\/adjudication\/\d+$/)
	],
	['disputes list', '/admin/verification/disputes'],
	[
		'a dispute',
		(p) => firstLink(p, '/admin/verification/disputes', /^\/admin\/verification\/disputes\/\d+$/)
	],
	['feedback', '/admin/verification/feedback'],
	['snapshots', '/admin/verification/snapshots'],
	['agreement', '/admin/agreement'],
	['scoring list', '/admin/scoring'],
	['a scoring run', (p) => firstLink(p, '/admin/scoring', /^\/admin\/scoring\/\d+$/)],
	['studies list', '/admin/studies'],
	['a study', (p) => firstLink(p, '/admin/studies', /^\/admin\/studies\/\d+$/)],
	['people', '/admin/users'],
	['workload', '/admin/workload'],
	['rater quality', '/admin/raters'],
	["reviewers' qualification round", '/admin/review-round'],
	['audit log', '/admin/audit']
];
