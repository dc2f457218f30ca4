// An evidence study from import to the official file, as an organiser and a physician use it at
// 1366×768, through the pages alone: BioGen 2024 topics, PubMed abstracts and two runs imported
// with the import forms; a per-assertion study of both runs with k = 1 created, its answers' split
// checked and one pair of sentences merged, then opened; a physician assessing one answer by
// keyboard alone, reloading midway, finishing with Ctrl+Enter and never seeing a run's name; the
// organiser reading the run's BioGen figures on the agreement page and the official assessments.
import type { Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	expectNoRunName,
	markWords,
	relateDocument,
	RELEVANCE_KEYS,
	saved,
	startAssessing,
	studyOnRank,
	type Relation
} from '../support/evidence';
import { expect, loginAs, test } from '../fixtures';

const SET = 'BioGen journey topics';
const STUDY = 'Journey evidence study';
const RUNS = ['quokka-run', 'narwhal-run'] as const;

const TOPICS = [
	{
		id: 1,
		topic: 'Metformin in kidney disease',
		question: 'Can metformin be continued in moderate chronic kidney disease?',
		narrative: 'A 68-year-old with type 2 diabetes and an eGFR of 40 asks whether to stop it.'
	},
	{
		id: 2,
		topic: 'Vitamin D and falls',
		question: 'Does vitamin D prevent falls in older adults?',
		narrative: 'An 80-year-old living at home has fallen twice this year.'
	}
];

const pmid = (n: number) => String(910000000 + n);
const ABSTRACTS = [
	[
		'Metformin in stage 3 chronic kidney disease',
		'We followed 2,400 adults with type 2 diabetes and an eGFR between 30 and 59. Those who continued metformin had no excess of lactic acidosis. Mortality was lower among those who continued it. Dose reduction was common below an eGFR of 45.'
	],
	[
		'Lactic acidosis with metformin at low eGFR',
		'This case series describes 31 episodes of lactic acidosis in patients taking metformin. Most episodes occurred during acute kidney injury. Patients with a stable eGFR above 30 were rarely affected. Sick-day rules reduced admissions. Monitoring of kidney function is advised.'
	],
	[
		'Vitamin D supplementation and falls in older adults',
		'We randomised 2,256 community-dwelling adults aged 70 or over to vitamin D or placebo. Falls did not differ between the groups after three years. High annual doses increased the rate of falls. Participants with low baseline levels saw a small benefit.'
	],
	[
		'Exercise versus supplements for falls prevention',
		'This meta-analysis pooled 108 trials of falls prevention. Balance and strength exercise reduced the rate of falls by a quarter. Vitamin D alone had no effect on falls. Combined programmes were not better than exercise alone.'
	]
].map(([title, abstract], i) => ({ pmid: pmid(i + 1), title, abstract }));

/**
 * Each answer: a first sentence citing two documents, a second citing two, a third citing none.
 * The physician's routine relies on that shape, whatever answer the queue gives.
 */
const ANSWERS: Record<(typeof RUNS)[number], string[]> = {
	'quokka-run': [
		`Metformin can usually be continued when the eGFR is between 30 and 45 [${pmid(1)}, ${pmid(2)}]. The dose should be reduced and kidney function checked every three to six months [${pmid(2)}, ${pmid(3)}]. Stop it if the eGFR falls below 30.`,
		`Vitamin D supplements alone do not reliably prevent falls in older adults [${pmid(3)}, ${pmid(4)}]. Supplements help mainly those who are deficient [${pmid(4)}, ${pmid(1)}]. Balance and strength exercise prevents more falls.`
	],
	'narwhal-run': [
		`Metformin remains an option at an eGFR of 40 with a lower daily dose [${pmid(1)}, ${pmid(2)}]. Kidney function should be monitored regularly while it is taken [${pmid(2)}, ${pmid(3)}]. It should be stopped once the eGFR is under 30.`,
		`Daily vitamin D on its own has not been shown to reduce falls [${pmid(3)}, ${pmid(4)}]. People with low vitamin D levels may still benefit [${pmid(4)}, ${pmid(1)}]. Exercise programmes are the better-proven measure.`
	]
};

/** The cited documents of each sentence with a citation, by topic (the same for both runs). */
const CITED: Record<string, string[][]> = {
	'1': [
		[pmid(1), pmid(2)],
		[pmid(2), pmid(3)]
	],
	'2': [
		[pmid(3), pmid(4)],
		[pmid(4), pmid(1)]
	]
};

/** What the physician says of each sentence's cited documents, in citing order, and its relevance. */
const PLAN: { relations: [Relation, number[]][]; relevance: keyof typeof RELEVANCE_KEYS }[] = [
	{
		relations: [
			['supports', [1, 2]],
			['contradicts', [3]]
		],
		relevance: 'required'
	},
	{
		relations: [
			['neutral', []],
			['not_relevant', []]
		],
		relevance: 'unnecessary'
	},
	{ relations: [], relevance: 'borderline' }
];
const OFFICIAL: Record<Relation, string> = {
	supports: 'supporting',
	partially_supports: 'supporting',
	contradicts: 'contradicting',
	neutral: 'neutral',
	not_relevant: 'not relevant'
};

test.use({ viewport: { width: 1366, height: 768 } });

/** Uploads one file to a file input and imports it with the form's button. */
async function importFile(page: Page, input: string, file: string, button: string) {
	await page.locator(input).setInputFiles(file);
	await page.getByRole('button', { name: button }).click();
}

/**
 * Assesses sentence `n` (from 1) of the answer in view by keys: interpretable, its first three words
 * as an assertion, the relation to each cited document with its evidence sentences, the relevance.
 */
async function assessSentence(page: Page, n: number, of: number) {
	await page.keyboard.press('y');
	await expect(page.getByRole('heading', { name: `Sentence ${n} of ${of}` })).toBeVisible();
	await markWords(page, 0, 3);
	const card = page.getByRole('region', { name: 'Assertion 1' });
	await expect(card).toBeVisible();
	const plan = PLAN[n - 1];
	for (const [i, [relation, evidence]] of plan.relations.entries()) {
		if (i > 0) await page.keyboard.press(']');
		await relateDocument(page, relation, evidence);
	}
	await page.keyboard.press(RELEVANCE_KEYS[plan.relevance]);
	await expect(card).toContainText('Complete');
	await expect(page.getByText(`${n} of ${of} done`)).toBeVisible();
}

test('an evidence study from the imports to the official assessments', async ({ page }) => {
	test.setTimeout(120_000);
	const dir = mkdtempSync(join(tmpdir(), 'evidence-journey-'));
	const write = (name: string, text: string) => {
		writeFileSync(join(dir, name), text);
		return join(dir, name);
	};
	await loginAs(page, 'organiser');

	try {
		await test.step('the organiser imports the topics, the abstracts and two runs', async () => {
			await page.goto('/admin/imports');
			await page.getByLabel('Set name (new, or one to add to)').fill(SET);
			await importFile(
				page,
				'#question-files',
				write('topics.json', JSON.stringify(TOPICS)),
				'Import questions'
			);
			await expect(
				page.getByRole('status').filter({ hasText: 'Imported 2 records' })
			).toContainText('2 created');

			await importFile(
				page,
				'#document-files',
				write('abstracts.jsonl', ABSTRACTS.map((a) => JSON.stringify(a)).join('\n') + '\n'),
				'Import documents'
			);
			await expect(
				page.getByRole('status').filter({ hasText: 'Imported 4 records' })
			).toContainText('4 created');
			await expect(page.getByText('4 imported so far')).toBeVisible();

			for (const run of RUNS) {
				const file = write(
					`${run}.json`,
					JSON.stringify({
						team_id: 'journey-team',
						run_name: run,
						results: TOPICS.map((t, i) => ({
							topic_id: t.id,
							answer: ANSWERS[run][i],
							references: CITED[String(t.id)].flat().filter((p, j, all) => all.indexOf(p) === j)
						}))
					})
				);
				await page.getByLabel('Question set (the topics)').selectOption(SET);
				await importFile(page, '#run-files', file, 'Import runs');
				// The file's own result first: the previous run's stays until the new one arrives.
				await expect(page.getByRole('list', { name: 'Format detected per file' })).toContainText(
					`${run}.json`
				);
				await expect(
					page.getByRole('status').filter({ hasText: 'Imported 2 records' })
				).toContainText('2 created');
			}
		});

		let studyPath = '';
		await test.step('creates a per-assertion study of both runs with k = 1', async () => {
			await page.goto('/admin/studies');
			// Typing before the page has hydrated can be undone by hydration: wait for it.
			await page.waitForLoadState('networkidle');
			await page.getByLabel('Name', { exact: true }).fill(STUDY);
			await page.getByRole('radio', { name: /^Evidence/ }).check();
			await page.getByLabel('Questions from').selectOption({
				label: `Question set: ${SET} (2 questions)`
			});
			await expect(page.getByRole('radio', { name: /^Per assertion/ })).toBeChecked();
			for (const run of RUNS)
				await page
					.getByRole('checkbox', { name: `${run} (0 QA responses, 2 question-set answers)` })
					.check();
			await page.getByRole('checkbox', { name: /Include the reference answer/ }).uncheck();
			await page.getByLabel('Physicians per question (k)').fill('1');
			await page.getByRole('button', { name: /^Create study/ }).click();
			// k = 1 leaves agreement undefined: the form asks to confirm.
			await expect(page.getByRole('alert')).toContainText('1 physician per question');
			await page.getByRole('button', { name: 'Create anyway' }).click();
			await expect(page.getByRole('heading', { name: STUDY, level: 1 })).toBeVisible();
			studyPath = new URL(page.url()).pathname;
			expect(studyPath).toMatch(/^\/admin\/studies\/\d+$/);
		});

		await test.step('checks the split into sentences and merges two of one answer', async () => {
			await page
				.getByRole('link', { name: 'See and fix how each answer is split into sentences' })
				.click();
			await expect(page).toHaveURL(`${studyPath}/sentences`);
			await expect(
				page.getByRole('heading', { name: 'Answers, sentence by sentence', level: 1 })
			).toBeVisible();
			const topic = page.locator('section.card').filter({ hasText: TOPICS[0].question });
			const quokka = topic.locator('h3:text-is("quokka-run") ~ ol').first();
			const sentences = quokka.getByRole('listitem');
			await expect(sentences).toHaveCount(3);
			await expect(sentences.nth(0)).toContainText(
				'Metformin can usually be continued when the eGFR is between 30 and 45.'
			);
			await expect(sentences.nth(0).locator('.chip')).toHaveText(CITED['1'][0]);
			await expect(sentences.nth(1).locator('.chip')).toHaveText(CITED['1'][1]);
			await expect(sentences.nth(2).locator('.chip')).toHaveCount(0);
			await expect(sentences.nth(0)).not.toContainText('[');

			await quokka.getByRole('button', { name: 'Merge 2 with 3' }).click();
			await expect(page.getByRole('status')).toHaveText('Sentences 2 and 3 merged.');
			await expect(sentences).toHaveCount(2);
			await expect(sentences.nth(1)).toContainText(
				'The dose should be reduced and kidney function checked every three to six months. Stop it if the eGFR falls below 30.'
			);
			await expect(sentences.nth(1).locator('.chip')).toHaveText(CITED['1'][1]);
			// The other run's answer to the same topic keeps its three sentences.
			await expect(
				topic.locator('h3:text-is("narwhal-run") ~ ol').first().locator('li')
			).toHaveCount(3);
			await page.screenshot({ path: '/tmp/journey-sentences.png', fullPage: true });
		});

		await test.step('opens the study', async () => {
			await page.getByRole('link', { name: `← ${STUDY}` }).click();
			await page.getByRole('button', { name: /^Open/ }).click();
			const openAnyway = page.getByRole('button', { name: /Open anyway/ });
			if (await openAnyway.isVisible({ timeout: 3000 }).catch(() => false))
				await openAnyway.click();
			await expect(page.getByText('The study is now open.')).toBeVisible();
			await expect(page.getByText('4 × k = 1 (4 assessments in all)')).toBeVisible();
			await expect(page.getByText('11 sentences citing')).toBeVisible();
		});

		let sentenceCount = 0;
		await test.step('a physician assesses the first sentence of an answer by keys, then reloads', async () => {
			await loginAs(page, 'physician');
			await page.goto('/rank');
			const study = studyOnRank(page, STUDY);
			await expect(study).toContainText('0 of 4 answers');
			await startAssessing(page, study);
			await expectNoRunName(page, RUNS);
			await page.keyboard.press('y'); // the answer answers the question
			await expect(
				page.getByRole('group', { name: /as a whole/ }).getByRole('radio', { name: 'Yes' })
			).toBeChecked();
			const heading = page.getByRole('heading', { name: /^Sentence 1 of \d$/ });
			sentenceCount = Number(/of (\d)/.exec((await heading.textContent()) ?? '')![1]);
			expect([2, 3]).toContain(sentenceCount);
			await assessSentence(page, 1, sentenceCount);
			await expect(saved(page)).toBeVisible();

			await page.reload();
			await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
			await expect(
				page.getByRole('heading', { name: `Sentence 2 of ${sentenceCount}` })
			).toBeVisible();
			await expect(page.getByText(`1 of ${sentenceCount} done`)).toBeVisible();
			await expect(
				page.getByRole('group', { name: /as a whole/ }).getByRole('radio', { name: 'Yes' })
			).toBeChecked();
			await page.keyboard.press('k');
			await expect(
				page.getByRole('heading', { name: `Sentence 1 of ${sentenceCount}` })
			).toBeVisible();
			const card = page.getByRole('region', { name: 'Assertion 1' });
			await expect(card.locator('blockquote')).toHaveText(/^\S+ \S+ \S+$/);
			const documents = card.getByRole('group', { name: /PMID/ });
			await expect(documents).toHaveCount(2);
			await expect(documents.nth(0).getByRole('radio', { name: /^Supports/ })).toBeChecked();
			await expect(documents.nth(1).getByRole('radio', { name: /^Contradicts/ })).toBeChecked();
			await expect(card.locator('.evidence').nth(0)).toContainText('Evidence: 1, 2');
			await expect(card.locator('.evidence').nth(1)).toContainText('Evidence: 3');
			await expect(card.getByRole('radio', { name: /^Required/ })).toBeChecked();
			await expectNoRunName(page, RUNS);
			await page.keyboard.press('j');
		});

		await test.step('finishes the answer by keys and Ctrl+Enter', async () => {
			for (let n = 2; n <= sentenceCount; n++) {
				await expect(
					page.getByRole('heading', { name: `Sentence ${n} of ${sentenceCount}` })
				).toBeVisible();
				await assessSentence(page, n, sentenceCount);
				if (n < sentenceCount) await page.keyboard.press('j');
			}
			await page.keyboard.press('Control+Enter');
			await expect(page.getByLabel('Your progress')).toContainText('1 assessed so far');
			await expectNoRunName(page, RUNS);
		});

		await test.step('the organiser reads the figures on the agreement page', async () => {
			await loginAs(page, 'organiser');
			const id = studyPath.split('/').pop()!;
			await page.goto(`/admin/agreement?study=${id}`);
			const section = page.locator(`section#study-${id}`);
			await expect(
				section.getByRole('heading', { name: `Evidence study “${STUDY}”` })
			).toBeVisible();
			await expect(section).toContainText('1 answer of 4 assessed');
			const tables = section.locator('table', {
				has: page.locator('caption', { hasText: /^Run / })
			});
			await expect(tables).toHaveCount(1);
			const table = tables.first();
			const run = ((await table.locator('caption').textContent()) ?? '').replace(/^Run /, '');
			expect(RUNS).toContain(run);
			await expect(table.getByRole('row', { name: /^Accuracy 100\.00/ })).toBeVisible();
			await expect(table.getByRole('row', { name: /^Acceptable answers 1 / })).toBeVisible();
			expect(await page.locator('main').innerText()).not.toMatch(/undefined|NaN/);
			await section.screenshot({ path: '/tmp/journey-agreement.png', animations: 'disabled' });
		});

		await test.step('downloads the official assessments from the study page', async () => {
			await page.goto(studyPath);
			const downloading = page.waitForEvent('download');
			await page.getByRole('link', { name: 'Official BioGen assessments (JSON)' }).click();
			const official = JSON.parse(readFileSync((await (await downloading).path())!, 'utf8'));
			expect(official).toHaveLength(1);
			const [entry] = official;
			const runs = Object.keys(entry.machine_generated_answers);
			expect(runs).toHaveLength(1);
			expect(RUNS).toContain(runs[0]);
			const answer = entry.machine_generated_answers[runs[0]];
			expect(answer.is_answer_accurate).toBe('yes');
			const ids = Array.from({ length: sentenceCount }, (_, i) => String(i + 1));
			expect(
				answer.answer_sentences.map((s: { answer_sentence_id: string }) => s.answer_sentence_id)
			).toEqual(ids);
			const cited = CITED[String(entry.question_id)];
			expect(
				answer.answer_sentences.map(
					(s: { citation_assessment: unknown; answer_sentence_relevance: string }) => [
						s.answer_sentence_relevance,
						s.citation_assessment
					]
				)
			).toEqual(
				PLAN.slice(0, sentenceCount).map((p, i) => [
					p.relevance,
					p.relations.length
						? p.relations.map(([relation], j) => ({
								cited_pmid: cited[i][j],
								evidence_relation: OFFICIAL[relation]
							}))
						: null
				])
			);
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
