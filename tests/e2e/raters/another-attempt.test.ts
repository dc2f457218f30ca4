// A physician failed the only attempt a qualification round allows. At 1366×768 the organiser
// finds them on the round's gold page, is told plainly when they ask for more attempts than the
// round has new questions for, adds one attempt with a reason, and sees it on record; the physician
// then finds an attempt left and starts it on a question they have not had. axe-core on the page.
import AxeBuilder from '@axe-core/playwright';
import { E2E_ACCOUNTS } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';
import { accountId, judgeAllBad, seedGoldStudy } from './gold-study';

test.describe.configure({ timeout: 180_000 });

const ROUND = 'Round with one attempt';
const MODELS = ['grant-e2e-alpha', 'grant-e2e-beta', 'grant-e2e-gamma'];
const REASON = 'Went through the dosing guide with the study lead on 3 March';

test.use({
	viewport: { width: 1366, height: 768 },
	prepareDatabase: {
		async prepare(db) {
			const organiser = await accountId(db, E2E_ACCOUNTS.organiser.email);
			const doctor = await accountId(db, E2E_ACCOUNTS.physician.email);
			// Six gold questions, two to an attempt, one attempt allowed: the physician fails it.
			const round = await seedGoldStudy(db, organiser, {
				name: ROUND,
				models: MODELS,
				items: 6,
				seed: 7600,
				response: (item, i) => `Answer ${i}: ${item.id} mg`,
				gold: () => true,
				explanation: 'The alpha answer gives the right dose.',
				settings: {
					purpose: 'qualification',
					passMark: 0.75,
					questionsPerAttempt: 2,
					maxAttempts: 1
				}
			});
			await judgeAllBad(db, round, doctor, 2);
		}
	}
});

test('an organiser gives a physician who used their only attempt another, and the physician starts it', async ({
	browser
}) => {
	const viewport = { width: 1366, height: 768 };
	const organiserContext = await browser.newContext({ viewport });
	const page = await organiserContext.newPage();
	await loginAs(page, 'organiser');
	await page.goto('/admin/studies');
	await page.getByRole('link', { name: ROUND, exact: true }).first().click();
	await page.getByRole('link', { name: "Gold questions, settings and raters' accuracy" }).click();
	await expect(page.getByRole('heading', { name: /Gold and qualification/ })).toBeVisible();

	const results = page.getByRole('region', { name: 'Results per rater' });
	await expect(
		results.getByRole('row').filter({ hasText: 'Failed (no attempt left)' })
	).toHaveCount(1);
	const section = page.getByRole('region', { name: 'Another attempt for a rater' });
	await section.scrollIntoViewIfNeeded();
	const rater = section.getByLabel('Rater');
	await expect(rater.locator('option', { hasText: E2E_ACCOUNTS.physician.displayName })).toHaveText(
		/no attempt left/
	);
	const scan = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	expect(
		scan.violations
			.filter((v) => v.impact === 'serious' || v.impact === 'critical')
			.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' > ')}`))
	).toEqual([]);

	// Three attempts of two would need six questions; the physician has had two of the six.
	await section.getByLabel('Attempts to add').fill('3');
	await section.getByLabel('Reason (kept in the record)').fill(REASON);
	await section.getByRole('button', { name: 'Add the attempts' }).click();
	await expect(section.getByRole('alert')).toContainText(
		"has not had 4 of the round's gold questions; 3 attempts of 2 would need 6"
	);
	// Nothing was recorded, and the form kept what was typed.
	await expect(section.getByRole('table')).toHaveCount(0);
	await expect(section.getByLabel('Reason (kept in the record)')).toHaveValue(REASON);

	await section.getByLabel('Attempts to add').fill('1');
	await section.getByRole('button', { name: 'Add the attempts' }).click();
	await expect(section.getByRole('status')).toHaveText(
		'1 attempt added: the rater has 1 attempt left.'
	);
	const record = section.getByRole('table', { name: 'Attempts added to this round' });
	await expect(record.getByRole('row')).toHaveCount(2);
	await expect(record).toContainText(REASON);
	await expect(record).toContainText(E2E_ACCOUNTS.organiser.displayName);
	await expect(results.getByRole('row').filter({ hasText: '1 attempt left' })).toHaveCount(1);
	if (process.env.SHOTS_DIR)
		await page.screenshot({ path: `${process.env.SHOTS_DIR}/another-attempt.png`, fullPage: true });
	await organiserContext.close();

	// The physician sees the attempt and starts it.
	const doctorContext = await browser.newContext({ viewport });
	const doctor = await doctorContext.newPage();
	await loginAs(doctor, 'physician');
	await doctor.goto('/rank');
	const card = doctor
		.getByRole('listitem')
		.filter({ has: doctor.getByRole('heading', { name: ROUND }) });
	await expect(card).toContainText('1 attempt left.');
	await expect(card).toContainText('2 attempts in all');
	await card.getByRole('button').click();
	await expect(doctor).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	await expect(doctor.getByLabel('Your progress')).toBeVisible();
	await doctorContext.close();
});
