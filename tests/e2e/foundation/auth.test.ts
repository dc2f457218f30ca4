import { E2E_ACCOUNTS, E2E_PASSWORD } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';

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
