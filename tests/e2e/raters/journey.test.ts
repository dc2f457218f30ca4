import type { Page } from '@playwright/test';
import { eq, inArray } from 'drizzle-orm';
import { createSession } from '../../../src/lib/server/auth/session';
import { openDatabase, type Db } from '../../../src/lib/server/db/client';
import {
	assignment,
	candidate,
	exclusion,
	model,
	qualificationAttempt,
	studyQuestion,
	user
} from '../../../src/lib/server/db/schema';
import { DEMO_MODELS } from '../../../src/lib/server/demo/demo-data';
import { publishConsent } from '../../../src/lib/server/domain/consent';
import { importGold } from '../../../src/lib/server/domain/quality';
import { changeStudyState, createStudy } from '../../../src/lib/server/domain/studies/studies';
import { createInstitution, type Actor } from '../../../src/lib/server/domain/institutions';
import { createUser } from '../../../src/lib/server/domain/people/users';
import {
	startTestProvider,
	type TestProvider
} from '../../../src/lib/server/fixtures/oidc-provider';
import { E2E_ACCOUNTS } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

// A rater's way in, end to end at 1366×768, through a real OpenID provider (oidc-provider with its
// development login pages) on 127.0.0.1: an organiser sets up an institution and invites its lead;
// a physician signs in with the institution, lands on the application form prefilled, applies; the
// lead approves; the physician's next sign-in makes the account, physician of that institution
// (leads stay within their own institution, and a forged callback is refused). The physician then
// accepts the portal's consent text, fails the ranking qualification round once and passes it,
// works the live study that requires it — one question in two a hidden gold check — and the
// organiser finds them on the rater-quality dashboard and excludes a day of their work. One test
// in steps: each step builds on the one before.
const SHOTS = process.env.SHOTS_DIR;
const INSTITUTION = 'St Example Medical School';
const DOMAIN = 'stexample.test';

const ROUND = 'Journey qualification round';
const LIVE = 'Journey live study';
const CONSENT_WORDS = 'You may withdraw at any time';
const EXPLANATION = 'Each answer is adequate but incomplete against the passage.';

let provider: TestProvider | null = null;
// The live questions the physician was shown, by public id.
const liveShown: string[] = [];
let hospitalLeadToken = '';
let hospitalId = 0;
// Carried from step to step of the one journey.
let institutionPath = '';
let leadInvitation = '';

test.use({
	viewport: { width: 1366, height: 768 },
	prepareDatabase: {
		async prepare(db) {
			// Another institution with its own lead: neither lead may open the other's institution.
			const [organiser] = await db
				.select({ id: user.id })
				.from(user)
				.where(eq(user.email, E2E_ACCOUNTS.organiser.email));
			const actor: Actor = { id: organiser.id, roles: ['organiser'], institutionId: 1 };
			const hospital = await createInstitution(
				db,
				{ name: 'City Hospital', kind: 'hospital' },
				actor
			);
			hospitalId = hospital.id;
			const lead = await createUser(db, {
				email: 'hal.lead@city-hospital.test',
				displayName: 'Hal Lead',
				roles: ['institution_lead'],
				password: 'city-hospital-lead-password',
				institutionId: hospital.id
			});
			hospitalLeadToken = (await createSession(db, lead.id)).token;
			await publishConsent(
				db,
				{
					studyId: null,
					title: 'Taking part in the journey benchmark',
					body: `You judge answers for a published benchmark. ${CONSENT_WORDS}.`,
					withdrawnJudgements: 'exclude'
				},
				organiser.id
			);
			await roundAndLiveStudy(db, organiser.id);
		}
	}
});
test.describe.configure({ timeout: 600_000 });

// The provider's development pages load a web font from the internet, which is out of reach here
// (the page's load event would wait for it): only the loopback address is served.
test.beforeEach(async ({ page }) => {
	await page.context().route(
		(url) => url.hostname !== '127.0.0.1',
		(route) => route.abort()
	);
});

test.afterAll(async () => {
	await provider?.stop();
	provider = null;
});

/** Every answer of each question tagged okay: the gold answer of the journey's gold questions. */
async function goldOf(db: Db, questionIds: number[]) {
	const rows = await db
		.select({ question: candidate.studyQuestionId, model: model.name })
		.from(candidate)
		.leftJoin(model, eq(model.id, candidate.modelId))
		.where(inArray(candidate.studyQuestionId, questionIds));
	return JSON.stringify(
		questionIds.map((q) => ({
			question_id: q,
			labels: Object.fromEntries(
				rows.filter((r) => r.question === q).map((r) => [`${r.model ?? 'reference'}/tag`, 'okay'])
			),
			explanation: EXPLANATION
		}))
	);
}

/**
 * A ranking qualification round (two questions an attempt, two attempts, pass mark 75 %) and a live
 * ranking study that requires it with one hidden gold check in every two claims, on the demo
 * content.
 */
async function roundAndLiveStudy(db: Db, organiser: string) {
	const models = await db
		.select({ id: model.id })
		.from(model)
		.where(inArray(model.name, [...DEMO_MODELS]));
	const modelIds = models.map((m) => m.id);
	const questionsOf = async (studyId: number) =>
		(
			await db
				.select({ id: studyQuestion.id })
				.from(studyQuestion)
				.where(eq(studyQuestion.studyId, studyId))
				.orderBy(studyQuestion.id)
		).map((q) => q.id);
	const round = await createStudy(
		db,
		{
			name: ROUND,
			purpose: 'qualification',
			passMark: 0.75,
			questionsPerAttempt: 2,
			maxAttempts: 2,
			selection: { types: ['true_false', 'multiple_choice'] },
			modelIds
		},
		organiser,
		{ confirm: true }
	);
	await changeStudyState(db, round.id, 'open', organiser, { confirm: true });
	await importGold(db, round.id, await goldOf(db, await questionsOf(round.id)), organiser);
	const live = await createStudy(
		db,
		{
			name: LIVE,
			qualificationStudyId: round.id,
			goldEvery: 2,
			selection: { types: ['short_answer', 'list', 'short_inverse'] },
			modelIds,
			ratersPerQuestion: 2
		},
		organiser,
		{ confirm: true }
	);
	await changeStudyState(db, live.id, 'open', organiser, { confirm: true });
	const liveQuestions = await questionsOf(live.id);
	const gold = liveQuestions.filter((_, i) => i % 3 === 0);
	await importGold(db, live.id, await goldOf(db, gold), organiser);
}

/** Ranks the shown answers A, B, C, … in order, each with `tag`, and submits. */
async function rankShown(page: Page, tag: 'Okay' | 'Bad') {
	await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
	// The shortcuts button is rendered once the page's script runs.
	await expect(page.getByRole('button', { name: /Keyboard shortcuts/ })).toBeVisible();
	const here = page.url();
	const letters = ['A', 'B', 'C', 'D'];
	for (const [i, letter] of letters.entries()) {
		await page.getByLabel(`Rank of Response ${letter} (1 is best)`).fill(String(i + 1));
		await page.getByLabel(`Rank of Response ${letter} (1 is best)`).press('Tab');
		await page
			.getByRole('article', { name: `Response ${letter}`, exact: true })
			.getByRole('radio', { name: tag })
			.check();
	}
	await page.getByRole('button', { name: 'Submit ranking' }).click();
	await page.waitForURL((u) => u.href !== here);
}

/** Chooses the option of a select whose text starts with `text`. */
async function chooseOption(page: Page, selectId: string, text: string) {
	const value = await page
		.locator(`#${selectId} option`, { hasText: text })
		.first()
		.getAttribute('value');
	await page.locator(`#${selectId}`).selectOption(value!);
}

async function shoot(page: Page, name: string) {
	if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Signs a page in with a session token of this portal. */
async function useSession(page: Page, url: string, token: string) {
	await page.context().clearCookies();
	await page
		.context()
		.addCookies([{ name: 'session', value: token, url, httpOnly: true, sameSite: 'Lax' }]);
}

/** Clicks "Sign in with …" and goes through the provider's login (and consent) pages. */
async function signInWithInstitution(page: Page, login: string) {
	const issuer = provider!.issuer;
	await page.goto('/login');
	await page.getByRole('link', { name: `Sign in with ${INSTITUTION}` }).click();
	// At the provider, or back at the portal past the sign-in start (a remembered session).
	await page.waitForURL(
		(u) =>
			u.origin === issuer ||
			u.searchParams.has('sso') ||
			(u.pathname !== '/login' && !/^\/login\/sso\/\d+$/.test(u.pathname))
	);
	for (let step = 0; step < 4 && new URL(page.url()).origin === issuer; step++) {
		const here = page.url();
		const loginField = page.locator('input[name="login"]');
		const consent = page.getByRole('button', { name: 'Continue' });
		await expect(loginField.or(consent)).toBeVisible();
		if (await loginField.isVisible()) {
			await loginField.fill(login);
			await page.locator('input[name="password"]').fill('any password');
			await page.getByRole('button', { name: 'Sign-in' }).click();
		} else await consent.click();
		await page.waitForURL((u) => u.href !== here);
	}
	expect(new URL(page.url()).origin).not.toBe(issuer);
}

test('a physician from an institution signs in through its OpenID provider, applies, is approved, consents, qualifies, meets hidden gold checks, and the organiser excludes a day of their work', async ({
	page,
	portal
}) => {
	await test.step('an organiser sets up the institution with its OpenID provider and invites its lead', async () => {
		provider ??= await startTestProvider({
			redirectUris: [`${portal.url}/login/sso/callback`],
			domain: DOMAIN
		});
		await loginAs(page, 'organiser');
		await page.goto('/admin/institutions');
		await expect(page.getByRole('heading', { name: 'Institutions', level: 1 })).toBeVisible();
		await page.getByLabel('Name').fill(INSTITUTION);
		await page.getByLabel('Kind').selectOption('medical_school');
		await page.getByRole('button', { name: 'Create institution' }).click();
		await expect(page).toHaveURL(/\/admin\/institutions\/\d+$/);
		institutionPath = new URL(page.url()).pathname;
		await expect(page.getByRole('heading', { name: INSTITUTION, level: 1 })).toBeVisible();

		await page.getByLabel('Issuer URL').fill('http://login.example.edu');
		await page.getByLabel('Client id').fill(provider.clientId);
		await page.getByLabel(/Client secret/).fill(provider.clientSecret);
		await page.getByLabel('Allowed email domains').fill(DOMAIN.toUpperCase());
		await page.getByRole('button', { name: 'Save single sign-on' }).click();
		await expect(page.getByText(/must use https/).first()).toBeVisible();
		await page.getByLabel('Issuer URL').fill(provider.issuer);
		await page.getByLabel(/Client secret/).fill(provider.clientSecret);
		await page.getByRole('button', { name: 'Save single sign-on' }).click();
		await expect(
			page.getByRole('status').filter({ hasText: 'Single sign-on settings saved.' })
		).toBeVisible();
		// The secret is never sent back: the form says it is set.
		await page.reload();
		await expect(page.getByLabel('Client secret (set)')).toHaveValue('');
		expect(await page.content()).not.toContain(provider.clientSecret);
		await expect(page.getByLabel('Allowed email domains')).toHaveValue(DOMAIN);
		await expect(page.getByText(`${portal.url}/login/sso/callback`)).toBeVisible();

		await page.locator('#inv-email').fill(`leah.lead@${DOMAIN}`);
		await page.locator('#inv-name').fill('Leah Lead');
		await page.getByRole('checkbox', { name: 'institution_lead' }).check();
		await page.getByRole('button', { name: 'Create invitation link' }).click();
		const link = page.getByLabel(/Invitation link/);
		await expect(link).toHaveValue(/\/invite\/[a-z2-9]{32}$/);
		leadInvitation = await link.inputValue();
		await expectAccessible(page, 'institution page (organiser)');
		await shoot(page, 'institution-organiser');
		await page.goto('/admin/institutions');
		await expect(page.getByRole('row', { name: new RegExp(INSTITUTION) })).toContainText('Set up');
		await expectAccessible(page, 'institutions list');
		await shoot(page, 'institutions-list');
	});
	await test.step('a physician signs in with the institution, lands on the application form prefilled and applies', async () => {
		await page.context().clearCookies();
		await page.goto('/login');
		await expectAccessible(page, 'sign-in page with single sign-on');
		await shoot(page, 'login-sso');
		await signInWithInstitution(page, 'ada.doe');
		await expect(page).toHaveURL(/\/apply$/);
		await expect(page.getByRole('status')).toContainText(
			`Signed in with ${INSTITUTION} as ada.doe@${DOMAIN}`
		);
		await expect(page.getByLabel('Your name')).toHaveValue('Ada Doe');
		// The identity fixes the address and the institution: the form has no field for either.
		await expect(page.getByLabel('Email')).toHaveCount(0);
		await page.getByRole('radio', { name: /Medical student/ }).check();
		await expect(page.getByLabel('Year of study')).toBeVisible();
		await expect(page.getByLabel('Specialty')).toBeHidden();
		await page.getByRole('radio', { name: /Physician/ }).check();
		await expect(page.getByLabel('Year of study')).toBeHidden();
		await expectAccessible(page, 'application form (prefilled)');
		await shoot(page, 'apply-prefilled');
		await page.getByRole('button', { name: 'Send application' }).click();
		await expect(
			page.getByText('Specialty is needed for physicians', { exact: false })
		).toBeVisible();
		await page.getByLabel('Specialty').fill('Cardiology');
		await page.getByLabel('Years of practice').fill('6');
		await page.getByRole('button', { name: 'Send application' }).click();
		await expect(page.getByRole('heading', { name: 'Application sent' })).toBeVisible();

		// Signing in again before a decision says so; it makes nothing.
		await signInWithInstitution(page, 'ada.doe');
		await expect(
			page.getByRole('heading', { name: 'Your application awaits approval' })
		).toBeVisible();
		await expectAccessible(page, 'application pending page');
		await shoot(page, 'sso-pending');
	});
	await test.step("the institution's lead accepts the invitation, approves the application and sees the link", async () => {
		await page.context().clearCookies();
		await page.goto(leadInvitation);
		await expect(
			page.getByRole('link', { name: `Accept with ${INSTITUTION} sign-in` })
		).toBeVisible();
		await page.getByLabel('Password (at least 10 characters)').fill('leah lead violet harbour');
		await page.getByLabel('Repeat the password').fill('leah lead violet harbour');
		await page.getByRole('button', { name: 'Create my account' }).click();
		await expect(page.getByRole('heading', { name: 'Your institution' })).toBeVisible();
		await page.getByRole('link', { name: 'My institution' }).click();
		await expect(page).toHaveURL(new RegExp(`${institutionPath}$`));
		const application = page.getByRole('article', { name: 'Application of Ada Doe' });
		await expect(application).toContainText('Physician · Cardiology · 6 years of practice');
		await expect(application).toContainText('through single sign-on');
		await expectAccessible(page, 'institution page (lead)');
		await shoot(page, 'institution-lead');
		await application.getByRole('button', { name: /Approve/ }).click();
		await expect(page.getByLabel(/Invitation link/)).toHaveValue(/\/invite\/[a-z2-9]{32}$/);
		await expect(page.getByText(/Application of ada\.doe@stexample\.test approved/)).toBeVisible();
		await shoot(page, 'institution-lead-approved');

		// A lead manages their own institution only, and reaches no other admin page.
		const other = await page.goto(`/admin/institutions/${hospitalId}`);
		expect(other?.status()).toBe(403);
		expect((await page.goto('/admin/users'))?.status()).toBe(403);
		expect((await page.goto('/admin'))?.status()).toBe(403);
	});
	await test.step('the physician signs in with the institution again and is now a physician of it', async () => {
		await page.context().clearCookies();
		await signInWithInstitution(page, 'ada.doe');
		await expect(page.getByRole('heading', { name: 'Hello, Ada Doe' })).toBeVisible();
		await expect(page.getByRole('link', { name: 'Rank', exact: true })).toBeVisible();
		await expect(page.getByRole('link', { name: 'Review', exact: true })).toHaveCount(0);
		// The organiser sees her in the institution, signing in through it.
		await loginAs(page, 'organiser');
		await page.goto(institutionPath);
		const row = page.getByRole('row', { name: /Ada Doe/ });
		await expect(row).toContainText('physician');
		await expect(row).toContainText('single sign-on');
	});
	await test.step("the other institution's lead cannot open this institution", async () => {
		await useSession(page, portal.url, hospitalLeadToken);
		const res = await page.goto(institutionPath);
		expect(res?.status()).toBe(403);
		await page.goto('/admin/institutions');
		await expect(page).toHaveURL(new RegExp(`/admin/institutions/${hospitalId}$`));
		await expect(page.getByRole('heading', { name: 'City Hospital', level: 1 })).toBeVisible();
	});
	await test.step('a callback with a forged state, or without a sign-in in progress, is refused', async () => {
		await page.context().clearCookies();
		// No sign-in started in this browser.
		await page.goto(
			`/login/sso/callback?code=abc&state=forged&iss=${encodeURIComponent(provider!.issuer)}`
		);
		await expect(page).toHaveURL(/\/login\?sso=expired$/);
		await expect(page.getByRole('alert')).toContainText('took too long or was started elsewhere');
		// A sign-in in progress, and a callback whose state is not its own.
		await page.getByRole('link', { name: `Sign in with ${INSTITUTION}` }).click();
		await page.waitForURL((url) => url.origin === provider!.issuer);
		await page.goto(
			`/login/sso/callback?code=abc&state=forged&iss=${encodeURIComponent(provider!.issuer)}`
		);
		await expect(page).toHaveURL(/\/login\?sso=unverified$/);
		await expect(page.getByRole('alert')).toContainText('could not be verified');
		// Nothing was signed in.
		await page.goto('/');
		await expect(page).toHaveURL(/\/login/);
	});
	await test.step('the public application form has no serious accessibility violation', async () => {
		await page.context().clearCookies();
		await page.goto('/apply');
		await expect(page.getByLabel('Institution')).toBeVisible();
		await expectAccessible(page, 'public application form');
		await shoot(page, 'apply-public');
	});
	await test.step('the physician accepts the consent text before any work', async () => {
		await page.context().clearCookies();
		await signInWithInstitution(page, 'ada.doe');
		await page.goto('/rank');
		await expect(page).toHaveURL(/\/consent\?/);
		await expect(page.getByRole('article', { name: 'Consent text' })).toContainText(CONSENT_WORDS);
		await page.getByRole('checkbox', { name: /and agree to take part/ }).check();
		await page.getByRole('button', { name: 'I agree' }).click();
		await expect(page).toHaveURL(/\/rank$/);
		// The live study waits for the round.
		const live = page
			.getByRole('listitem')
			.filter({ has: page.getByRole('heading', { name: LIVE }) });
		await expect(live).toContainText(`Pass the qualification round “${ROUND}” first.`);
		await expect(live.getByRole('button', { name: /Start/ })).toBeDisabled();
	});

	await test.step('the physician fails the qualification round once, then passes it', async () => {
		const round = page
			.getByRole('listitem')
			.filter({ has: page.getByRole('heading', { name: ROUND }) });
		await expect(round).toContainText('Not attempted yet.');
		await round.getByRole('button', { name: 'Start an attempt' }).click();
		// Attempt 1: every answer tagged bad, where the expected tag is okay.
		await rankShown(page, 'Bad');
		await expect(page.getByRole('heading', { name: 'The expected answer' })).toBeVisible();
		await expect(page.getByRole('status')).toContainText('You matched 0 of 4 expected labels.');
		await expect(page.getByRole('row', { name: /Response A — tag/ })).toContainText('okay');
		await expect(page.getByText(EXPLANATION)).toBeVisible();
		await expectAccessible(page, 'feedback after a qualification question');
		await shoot(page, 'qualification-feedback');
		await page.getByRole('button', { name: 'Next question' }).click();
		await rankShown(page, 'Bad');
		await expect(page.getByText('Attempt 1 scored 0 %; the pass mark is 75 %.')).toBeVisible();
		await page.getByRole('button', { name: 'Start the next attempt' }).click();
		// Attempt 2, on new questions: every tag as expected.
		await rankShown(page, 'Okay');
		await expect(page.getByRole('status')).toContainText('You matched 4 of 4 expected labels.');
		await page.getByRole('button', { name: 'Next question' }).click();
		await rankShown(page, 'Okay');
		await expect(page.getByText('You passed this round.')).toBeVisible();
		await page.getByRole('link', { name: 'Back to your studies' }).click();
		await expect(
			page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: ROUND }) })
		).toContainText('Passed');
	});

	await test.step('the physician works the live study, one question in two a hidden gold check', async () => {
		const live = page
			.getByRole('listitem')
			.filter({ has: page.getByRole('heading', { name: LIVE }) });
		await live.getByRole('button', { name: 'Start ranking' }).click();
		for (let i = 0; i < 2; i++) {
			await expect(page).toHaveURL(/\/rank\/q\/[a-z2-9]{24}$/);
			liveShown.push(new URL(page.url()).pathname.split('/').pop()!);
			await rankShown(page, 'Okay');
		}
	});

	await test.step('the organiser sees the physician on the dashboard and excludes a day of their work', async () => {
		await loginAs(page, 'organiser');
		await page.goto('/admin/raters');
		await chooseOption(page, 'study', LIVE);
		await page.getByRole('button', { name: 'Show' }).click();
		const row = page.getByRole('row', { name: /Ada Doe/ });
		await expect(row).toBeVisible();
		await expect(row).toContainText(INSTITUTION);
		await shoot(page, 'journey-dashboard');
		await row.getByRole('link').first().click();
		await expect(page).toHaveURL(/\/admin\/users\/[^/]+$/);
		await page.goto(`${new URL(page.url()).pathname}/exclusions`);
		const today = new Date().toISOString().slice(0, 10);
		await chooseOption(page, 'scope', LIVE);
		await page.getByLabel('First day (optional)').fill(today);
		await page.getByLabel('Last day (optional)').fill(today);
		await page
			.getByLabel('Reason')
			.fill('Judged during a night shift, by the physician’s own account');
		await page.getByRole('button', { name: 'Exclude judgements' }).click();
		await expect(page.getByText('Judged during a night shift')).toBeVisible();
		await expectAccessible(page, 'exclusions of the physician');
	});

	await test.step('the database holds what the journey did', async () => {
		await portal.stopServer();
		const handle = await openDatabase(portal.databaseUrl, { max: 1 });
		try {
			const [ada] = await handle.db
				.select()
				.from(user)
				.where(eq(user.email, `ada.doe@${DOMAIN}`));
			const attempts = await handle.db
				.select({ attempt: qualificationAttempt.attempt, passed: qualificationAttempt.passed })
				.from(qualificationAttempt)
				.where(eq(qualificationAttempt.raterId, ada.id))
				.orderBy(qualificationAttempt.attempt);
			expect(attempts).toEqual([
				{ attempt: 1, passed: false },
				{ attempt: 2, passed: true }
			]);
			const live = await handle.db
				.select({ publicId: assignment.publicId, gold: studyQuestion.gold })
				.from(assignment)
				.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
				.where(inArray(assignment.publicId, liveShown));
			// One gold check in every two claims: exactly one of the two.
			expect(live.filter((l) => l.gold)).toHaveLength(1);
			const standing = await handle.db
				.select()
				.from(exclusion)
				.where(eq(exclusion.raterId, ada.id));
			expect(standing).toHaveLength(1);
			expect(standing[0].revokedAt).toBeNull();
		} finally {
			await handle.close();
		}
	});
});
