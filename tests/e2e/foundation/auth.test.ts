import type { APIRequestContext } from '@playwright/test';
import { hashPassword } from '../../../src/lib/server/auth/password';
import { ADDRESS_ACCOUNTS, FREE_FAILURES } from '../../../src/lib/server/auth/throttle';
import { user } from '../../../src/lib/server/db/schema';
import { E2E_ACCOUNTS, E2E_PASSWORD } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';

const SPRAYED = 30;

// The portal reads the client's address from X-Forwarded-For, as behind the deployment's load
// balancer, so a test can sign in from several addresses; requests without one come from here.
test.use({
	portalEnv: { ADDRESS_HEADER: 'x-forwarded-for', XFF_DEPTH: '1' },
	extraHTTPHeaders: { 'x-forwarded-for': '192.0.2.1' },
	prepareDatabase: {
		async prepare(db) {
			// Accounts for a spraying attack; one real argon2id hash is enough for all of them.
			const passwordHash = await hashPassword(E2E_PASSWORD);
			await db.insert(user).values(
				Array.from({ length: SPRAYED }, (_, i) => ({
					id: `sprayed-${i}`,
					email: `sprayed${i}@test.local`,
					displayName: `Sprayed ${i}`,
					pseudonym: `P-SPRAY${i}`,
					roles: ['reviewer' as const],
					passwordHash
				}))
			);
		}
	}
});
// The first test also starts this file's portal and prepares its database.
test.describe.configure({ timeout: 90_000 });

/** The sign-in form posted from `address`: 303 signed in, 400 wrong password, 429 throttled. */
async function signIn(
	request: APIRequestContext,
	baseURL: string,
	email: string,
	password: string,
	address: string
): Promise<number> {
	const response = await request.post('/login', {
		form: { email, password },
		headers: { origin: baseURL, accept: 'text/html', 'x-forwarded-for': address },
		maxRedirects: 0
	});
	return response.status();
}

test('a wrong password shows a clear error and no session', async ({ page }) => {
	await page.goto('/login');
	await page.getByLabel('Email').fill(E2E_ACCOUNTS.reviewer3.email);
	await page.getByLabel('Password').fill('not-the-password');
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('alert')).toHaveText('Wrong email or password.');
	await page.goto('/');
	await expect(page).toHaveURL(/\/login/);
});

test('an organiser signs in with the form and out again', async ({ page }) => {
	await page.goto('/admin/items');
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fitems/);
	await page.getByLabel('Email').fill(E2E_ACCOUNTS.organiser.email);
	await page.getByLabel('Password').fill(E2E_PASSWORD);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page).toHaveURL(/\/admin\/items$/);
	await expect(page.getByRole('heading', { name: 'QA items' })).toBeVisible();
	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page).toHaveURL(/\/login$/);
	await page.goto('/admin/items');
	await expect(page).toHaveURL(/\/login/);
});

test('a reviewer is refused the organiser pages', async ({ page }) => {
	await loginAs(page, 'reviewer');
	for (const path of ['/admin', '/admin/items', '/admin/imports', '/admin/users']) {
		const response = await page.goto(path);
		expect(response?.status(), path).toBe(403);
		await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
	}
	const post = await page.request.post('/admin/imports?/qa', {
		multipart: {
			files: { name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('[]') }
		},
		headers: { origin: new URL(page.url()).origin }
	});
	expect(post.status()).toBe(403);
});

test('the health check names the database kind', async ({ request, portal }) => {
	const response = await request.get('/healthz');
	expect(response.status()).toBe(200);
	const body = await response.json();
	expect(body.status).toBe('ok');
	expect(body.database).toBe(portal.kind);
});

test('wrong passwords from one address do not lock the owner out elsewhere', async ({
	request,
	portal
}) => {
	const email = E2E_ACCOUNTS.reviewer2.email;
	const statuses: number[] = [];
	for (let i = 0; i < 26; i++)
		statuses.push(await signIn(request, portal.url, email, `guess-${i}`, '198.51.100.10'));
	expect(statuses.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(400));
	expect(statuses.slice(FREE_FAILURES).every((s) => s === 429)).toBe(true);
	expect(await signIn(request, portal.url, email, E2E_PASSWORD, '203.0.113.10')).toBe(303);
});

test('attempts refused while locked do not make the lock longer', async ({ request, portal }) => {
	test.setTimeout(90_000);
	const email = E2E_ACCOUNTS.reviewer3.email;
	for (let i = 0; i < FREE_FAILURES; i++)
		expect(await signIn(request, portal.url, email, `guess-${i}`, '198.51.100.11')).toBe(400);
	for (let i = 0; i < 20; i++)
		expect(await signIn(request, portal.url, email, `more-${i}`, '198.51.100.11')).toBe(429);
	// The lock is 30 s from the last failure that was checked.
	await new Promise((r) => setTimeout(r, 31_000));
	expect(await signIn(request, portal.url, email, E2E_PASSWORD, '198.51.100.11')).toBe(303);
});

test('one address spraying many accounts is stopped long before all are checked', async ({
	request,
	portal
}) => {
	const statuses: number[] = [];
	for (let i = 0; i < SPRAYED; i++)
		statuses.push(
			await signIn(request, portal.url, `sprayed${i}@test.local`, 'Winter2026!', '198.51.100.12')
		);
	// 400 is an answer from the argon2id check; 429 never reached it.
	expect(statuses.filter((s) => s === 400)).toHaveLength(ADDRESS_ACCOUNTS);
	expect(statuses.filter((s) => s === 429)).toHaveLength(SPRAYED - ADDRESS_ACCOUNTS);
});

test('the owner signs in from their own address while others guess at the account', async ({
	page,
	request,
	portal
}) => {
	const { email } = E2E_ACCOUNTS.physician2;
	await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.30' });
	const signInWithForm = async () => {
		await page.goto('/login');
		await page.getByLabel('Email').fill(email);
		await page.getByLabel('Password').fill(E2E_PASSWORD);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
	};
	await signInWithForm();
	await page.context().clearCookies();
	// Five addresses, five wrong guesses each: all the failures the account allows.
	for (let a = 0; a < 5; a++)
		for (let i = 0; i < FREE_FAILURES; i++)
			expect(await signIn(request, portal.url, email, `guess-${a}-${i}`, `198.51.${a}.20`)).toBe(
				400
			);
	// From now on an address that fails on the account is slowed down after one guess…
	expect(await signIn(request, portal.url, email, 'one-more-guess', '198.51.9.20')).toBe(400);
	expect(await signIn(request, portal.url, email, E2E_PASSWORD, '198.51.9.20')).toBe(429);
	// …and the owner at home is not.
	await signInWithForm();
});
