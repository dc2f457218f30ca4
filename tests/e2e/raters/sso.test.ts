import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createSession } from '../../../src/lib/server/auth/session';
import { user } from '../../../src/lib/server/db/schema';
import { createInstitution, type Actor } from '../../../src/lib/server/domain/institutions';
import { createUser } from '../../../src/lib/server/domain/people/users';
import {
	startTestProvider,
	type TestProvider
} from '../../../src/lib/server/fixtures/oidc-provider';
import { E2E_ACCOUNTS } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';

// Single sign-on end to end, through a real OpenID provider (oidc-provider with its development
// login pages) on 127.0.0.1: an organiser sets up an institution and invites its lead; a physician
// signs in with the institution, lands on the application form prefilled, applies; the lead
// approves; the physician's next sign-in makes the account, physician of that institution. Leads
// stay within their own institution, and a forged callback is refused.
const SHOTS = process.env.SHOTS_DIR;
const INSTITUTION = 'St Example Medical School';
const DOMAIN = 'stexample.test';

let provider: TestProvider | null = null;
let hospitalLeadToken = '';
let hospitalId = 0;
// Carried from test to test (they run in order on one portal).
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
		}
	}
});
test.describe.configure({ mode: 'serial', timeout: 120_000 });

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

/** No serious or critical WCAG 2.1 A/AA violation on the page as it is now. */
async function expectAccessible(page: Page, label: string) {
	const scan = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.analyze();
	const bad = scan.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
	expect(bad, `axe on ${label}`).toEqual([]);
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

test('an organiser sets up the institution with its OpenID provider and invites its lead', async ({
	page,
	portal
}) => {
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

test('a physician signs in with the institution, lands on the application form prefilled and applies', async ({
	page
}) => {
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

test("the institution's lead accepts the invitation, approves the application and sees the link", async ({
	page
}) => {
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

test('the physician signs in with the institution again and is now a physician of it', async ({
	page
}) => {
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

test("the other institution's lead cannot open this institution", async ({ page, portal }) => {
	await useSession(page, portal.url, hospitalLeadToken);
	const res = await page.goto(institutionPath);
	expect(res?.status()).toBe(403);
	await page.goto('/admin/institutions');
	await expect(page).toHaveURL(new RegExp(`/admin/institutions/${hospitalId}$`));
	await expect(page.getByRole('heading', { name: 'City Hospital', level: 1 })).toBeVisible();
});

test('a callback with a forged state, or without a sign-in in progress, is refused', async ({
	page
}) => {
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

test('the public application form has no serious accessibility violation', async ({ page }) => {
	await page.context().clearCookies();
	await page.goto('/apply');
	await expect(page.getByLabel('Institution')).toBeVisible();
	await expectAccessible(page, 'public application form');
	await shoot(page, 'apply-public');
});
