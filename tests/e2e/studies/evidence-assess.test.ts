// The evidence screen at 1366×768: an assessor judges one answer by keyboard alone — the answer as
// a whole, then each sentence: interpretable, an assertion marked with the word cursor, its
// relation to each cited document with evidence sentences, its relevance — reloads after the
// first sentence and finds it all again, finishes with Ctrl+Enter and lands on the next answer.
// The stored assessment matches what was pressed; no page names a run. A per-sentence study is
// judged by keys too, without marking words. The studies (the second cited document of each
// question never imported) are written directly into the database by the project's own fixture.
import { asc, eq, inArray } from 'drizzle-orm';
import { openDatabase, type Db } from '../../../src/lib/server/db/client';
import {
	assignment,
	evidenceAssertion,
	evidenceAssessment,
	evidenceRelationJudgement,
	evidenceSentenceLabel,
	user
} from '../../../src/lib/server/db/schema';
import { openEvidenceStudy, seedEvidenceSet } from '../../../src/lib/server/fixtures/evidence';
import { E2E_ACCOUNTS } from '../support/accounts';
import {
	expectNoRunName,
	markWords,
	relateDocument,
	RELEVANCE_KEYS,
	saved,
	startAssessing,
	studyOnRank
} from '../support/evidence';
import { startPortal, type PrepareDatabase } from '../support/portal';
import { readTemplate } from '../support/template';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const STUDY = 'Evidence e2e study';
const RUNS = ['zebra-secret-run', 'yak-hidden-run'];
const SENTENCE_STUDY = 'Per-sentence evidence study';
const SENTENCE_RUN = 'walrus-secret-run';

const EVIDENCE_STUDY: PrepareDatabase = {
	async prepare(db: Db) {
		const [organiser] = await db
			.select({ id: user.id })
			.from(user)
			.where(eq(user.email, E2E_ACCOUNTS.organiser.email));
		const seed = await seedEvidenceSet(db, { questions: 2, runs: RUNS, missing: true });
		await openEvidenceStudy(db, seed, organiser.id, { name: STUDY, mode: 'assertion' });
		const whole = await seedEvidenceSet(db, { questions: 1, runs: [SENTENCE_RUN], missing: true });
		await openEvidenceStudy(db, whole, organiser.id, { name: SENTENCE_STUDY, mode: 'sentence' });
	}
};

test.use({ viewport: { width: 1366, height: 768 }, prepareDatabase: EVIDENCE_STUDY });
test.describe.configure({ timeout: 180_000 });

test('an assessor judges an answer by keyboard alone, reloads midway and finishes it', async ({
	browser
}) => {
	// A portal of its own (its database copied, its server up) on top of a walk by keyboard.
	test.setTimeout(120_000);
	const portal = await startPortal(readTemplate(), EVIDENCE_STUDY);
	const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
	await context.addCookies([
		{
			name: 'session',
			value: readTemplate().sessions.physician,
			url: portal.url,
			httpOnly: true
		}
	]);
	const page = await context.newPage();
	let publicId = '';
	try {
		await test.step('the study list leads to the evidence screen', async () => {
			await page.goto(`${portal.url}/rank`);
			const study = studyOnRank(page, STUDY);
			await expect(study).toContainText('0 of 4 answers');
			publicId = await startAssessing(page, study);
			await expect(
				page.getByRole('heading', { name: /best treatment for condition/ })
			).toBeVisible();
			// Sentence 1 cites two documents; the second was never imported.
			const chips = page.getByRole('button', { name: /^Document \d, PMID/ });
			await expect(chips).toHaveCount(4);
			await expect(chips.nth(1)).toHaveAccessibleName(/not available$/);
			await expectNoRunName(page, RUNS);
			await expectAccessible(page, 'evidence screen, new answer');
		});

		await test.step('sentence 1: interpretable, an assertion, supports with two evidence sentences, required', async () => {
			await page.keyboard.press('y'); // the answer answers the question
			await expect(
				page.getByRole('group', { name: /as a whole/ }).getByRole('radio', { name: 'Yes' })
			).toBeChecked();
			await page.keyboard.press('y'); // sentence 1 is interpretable
			await expect(page.getByRole('heading', { name: 'Sentence 1 of 3' })).toBeVisible();
			await page.keyboard.press('Shift+ArrowRight');
			await page.keyboard.press('Shift+ArrowRight');
			await expect(
				page.getByRole('button', { name: /^Mark “Run \d claim” as an assertion/ })
			).toBeVisible();
			await page.keyboard.press('Enter');
			const card = page.getByRole('region', { name: 'Assertion 1' });
			await expect(card.locator('blockquote')).toHaveText(/^Run \d claim$/);
			// Supports (the first available document is in view), with sentences 2 and 1.
			await relateDocument(page, 'supports', [2, 1]);
			await expect(card.getByRole('radio', { name: /^Supports/ })).toBeChecked();
			const docSentences = page.getByRole('list', { name: /^Sentences of PMID/ });
			await expect(docSentences.locator('button[aria-pressed="true"]')).toHaveCount(2);
			// The cited document that is not available, and back.
			await page.keyboard.press(']');
			await expect(page.getByText(/document not available/).first()).toBeVisible();
			await page.keyboard.press(']');
			await page.keyboard.press(RELEVANCE_KEYS.required);
			await expect(card.getByRole('radio', { name: /^Required/ })).toBeChecked();
			await expect(page.getByText('1 of 3 done')).toBeVisible();
			await expect(saved(page)).toBeVisible();
		});

		await test.step('a reload keeps everything and opens on sentence 2', async () => {
			await page.reload();
			await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
			await expect(page.getByRole('heading', { name: 'Sentence 2 of 3' })).toBeVisible();
			await expect(page.getByText('1 of 3 done')).toBeVisible();
			await page.keyboard.press('k');
			await expect(page.getByRole('heading', { name: 'Sentence 1 of 3' })).toBeVisible();
			const card = page.getByRole('region', { name: 'Assertion 1' });
			await expect(card.locator('blockquote')).toHaveText(/^Run \d claim$/);
			await expect(card.getByRole('radio', { name: /^Supports/ })).toBeChecked();
			await expect(card.getByRole('radio', { name: /^Required/ })).toBeChecked();
			await expect(card).toContainText('Evidence: 1, 2');
			await page.keyboard.press('j');
		});

		await test.step('sentence 2: a span marked and removed, another marked, contradicts, unnecessary', async () => {
			await expect(page.getByRole('heading', { name: 'Sentence 2 of 3' })).toBeVisible();
			await page.keyboard.press('y');
			await page.keyboard.press('Enter'); // the first word alone …
			await expect(page.getByRole('region', { name: 'Assertion 1' })).toBeVisible();
			await page.keyboard.press('Delete'); // … removed again
			await expect(page.getByRole('region', { name: 'Assertion 1' })).toHaveCount(0);
			await markWords(page, 1, 4);
			const card = page.getByRole('region', { name: 'Assertion 1' });
			await expect(card.locator('blockquote')).toHaveText(/^\d claim 2 about$/);
			await relateDocument(page, 'contradicts'); // needs evidence
			await expect(card).toContainText('Needs evidence sentences');
			await page.keyboard.press('ArrowDown');
			await page.keyboard.press('ArrowDown');
			await page.keyboard.press('Space');
			await page.keyboard.press(RELEVANCE_KEYS.unnecessary);
			await expect(card).toContainText('Complete');
			await expect(page.getByText('2 of 3 done')).toBeVisible();
			await page.screenshot({ path: '/tmp/evidence-screen.png' });
		});

		await test.step('sentence 3 cites nothing: an assertion and its relevance; Ctrl+Enter finishes', async () => {
			await page.keyboard.press('PageDown');
			await expect(page.getByRole('heading', { name: 'Sentence 3 of 3' })).toBeVisible();
			// Finishing too early is refused, naming the gap; nothing entered is lost.
			await page.keyboard.press('Control+Enter');
			await expect(page.getByRole('alert')).toContainText(
				'Not finished: Say whether sentence 3 is interpretable.'
			);
			await expect(page).toHaveURL(new RegExp(publicId));
			await expect(page.getByText('2 of 3 done')).toBeVisible();
			await page.keyboard.press('y');
			await markWords(page, 0, 2);
			await page.keyboard.press(RELEVANCE_KEYS.borderline);
			await expect(page.getByText('3 of 3 done')).toBeVisible();
			await page.keyboard.press('Control+Enter');
			await expect(page).not.toHaveURL(new RegExp(publicId));
			await expect(page).toHaveURL(/\/rank\/evidence\/[a-z2-9]{24}$/);
			await expect(page.getByRole('heading', { name: 'Sentence 1 of 3' })).toHaveCount(0);
			await expect(page.getByText('0 of 3 done')).toBeVisible();
			await expect(page.getByLabel('Your progress')).toContainText('1 assessed so far');
			await expectNoRunName(page, RUNS);
		});
	} finally {
		await context.close();
		await portal.stopServer();
	}

	const handle = await openDatabase(portal.databaseUrl, { max: 1 });
	try {
		const db = handle.db;
		const [a] = await db.select().from(assignment).where(eq(assignment.publicId, publicId));
		expect(a.state).toBe('submitted');
		const [assessment] = await db
			.select()
			.from(evidenceAssessment)
			.where(eq(evidenceAssessment.assignmentId, a.id));
		expect(assessment.answersQuestion).toBe(true);
		expect(assessment.submittedAt).not.toBeNull();
		const labels = await db
			.select()
			.from(evidenceSentenceLabel)
			.where(eq(evidenceSentenceLabel.assignmentId, a.id))
			.orderBy(asc(evidenceSentenceLabel.position));
		expect(labels.map((l) => l.interpretable)).toEqual([true, true, true]);
		const assertions = await db
			.select()
			.from(evidenceAssertion)
			.where(eq(evidenceAssertion.assignmentId, a.id))
			.orderBy(asc(evidenceAssertion.position));
		expect(assertions.map((t) => [t.position, t.startWord, t.endWord, t.relevance])).toEqual([
			[1, 0, 3, 'required'],
			[2, 1, 5, 'unnecessary'],
			[3, 0, 2, 'borderline']
		]);
		const relations = await db
			.select()
			.from(evidenceRelationJudgement)
			.where(
				inArray(
					evidenceRelationJudgement.assertionId,
					assertions.map((t) => t.id)
				)
			);
		const byAssertion = (i: number) =>
			relations
				.filter((r) => r.assertionId === assertions[i].id)
				.map((r) => ({ pmid: r.pmid.slice(-1), relation: r.relation, evidence: r.evidence }));
		// The documents in view: the first of sentence 1 (document 1), the only available one of
		// sentence 2 (document 3); document 2 was never imported and needs no relation.
		expect(byAssertion(0)).toEqual([{ pmid: '1', relation: 'supports', evidence: [1, 2] }]);
		expect(byAssertion(1)).toEqual([{ pmid: '3', relation: 'contradicts', evidence: [3] }]);
		expect(byAssertion(2)).toEqual([]);
	} finally {
		await handle.close();
		await portal.stop();
	}
});

test('per sentence: a "yes" makes one judgement of the whole sentence, judged by keys', async ({
	page
}) => {
	await loginAs(page, 'physician');
	await page.goto('/rank');
	await startAssessing(page, studyOnRank(page, SENTENCE_STUDY));
	expect(await page.content()).not.toContain(SENTENCE_RUN);
	// Sentence keys wait for the answer as a whole.
	await page.keyboard.press('Enter');
	await expect(page.getByRole('heading', { name: 'Sentence 1 of 3' })).toHaveCount(0);
	for (const key of ['y', 'y']) await page.keyboard.press(key);
	// No words to mark: the one assertion is the whole sentence.
	await expect(page.getByRole('button', { name: /as an assertion/ })).toHaveCount(0);
	const card = page.getByRole('region', { name: 'Assertion 1' });
	await expect(card.locator('blockquote')).toHaveText('The whole sentence');
	await relateDocument(page, 'partially_supports', [2]);
	await page.keyboard.press(RELEVANCE_KEYS.inappropriate);
	await expect(card.getByRole('radio', { name: /^Partially supports/ })).toBeChecked();
	await expect(card.getByRole('radio', { name: /^Inappropriate/ })).toBeChecked();
	await expect(card).toContainText('Evidence: 2');
	await expect(page.getByText('1 of 3 done')).toBeVisible();
	await expect(saved(page)).toBeVisible();
	await page.reload();
	await expect(page.getByRole('heading', { name: 'Sentence 2 of 3' })).toBeVisible();
	await expect(page.getByText('1 of 3 done')).toBeVisible();
});
