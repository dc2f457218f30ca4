// The evidence screen driven by keys, as the specs of evidence studies share it: opening an answer
// from the study list, marking words as an assertion, judging the cited document in view with its
// evidence sentences, and the checks every evidence spec makes (saved, no run named).
import { expect, type Locator, type Page } from '@playwright/test';

/** The key of each relation of an assertion to the document in view (the screen's 1 … 5). */
export const RELATION_KEYS = {
	supports: '1',
	partially_supports: '2',
	contradicts: '3',
	neutral: '4',
	not_relevant: '5'
} as const;
export type Relation = keyof typeof RELATION_KEYS;

/** The key of each relevance of an assertion (the screen's Q, W, E, R). */
export const RELEVANCE_KEYS = {
	required: 'q',
	unnecessary: 'w',
	borderline: 'e',
	inappropriate: 'r'
} as const;

/** The screen's save status once every change has reached the server. */
export const saved = (page: Page) => page.getByRole('status').filter({ hasText: /^Saved$/ });

/** A study's entry on the physician's study list (`/rank`). */
export const studyOnRank = (page: Page, name: string) =>
	page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

/** Starts assessing from a study's entry on `/rank`; gives the answer's public id. */
export async function startAssessing(page: Page, study: Locator): Promise<string> {
	await study.getByRole('button', { name: 'Start assessing' }).click();
	await expect(page).toHaveURL(/\/rank\/evidence\/[a-z2-9]{24}$/);
	await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
	return page.url().split('/').pop()!;
}

/** Neither the page as shown nor the page as served names a run. */
export async function expectNoRunName(page: Page, runs: readonly string[]) {
	const html = await page.content();
	const served = await (await page.request.get(page.url())).text();
	for (const run of runs) {
		expect(html).not.toContain(run);
		expect(served).not.toContain(run);
	}
}

/**
 * Moves the word cursor `skip` words right, selects `count` words from there and marks them as an
 * assertion (Enter).
 */
export async function markWords(page: Page, skip: number, count: number) {
	for (let i = 0; i < skip; i++) await page.keyboard.press('ArrowRight');
	for (let i = 1; i < count; i++) await page.keyboard.press('Shift+ArrowRight');
	await page.keyboard.press('Enter');
}

/**
 * Judges the assertion against the document in view: its relation, then each evidence sentence
 * (numbered from 1) reached with ↑/↓ and selected with Space. The document's sentence cursor starts
 * on sentence 1.
 */
export async function relateDocument(page: Page, relation: Relation, evidence: number[] = []) {
	await page.keyboard.press(RELATION_KEYS[relation]);
	let at = 1;
	for (const n of evidence) {
		for (; at < n; at++) await page.keyboard.press('ArrowDown');
		for (; at > n; at--) await page.keyboard.press('ArrowUp');
		await page.keyboard.press('Space');
	}
}
