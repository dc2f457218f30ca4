// The organiser's people and audit journey at the laptop size most users have: revoke an
// invitation, deactivate an account that holds a review lease, reset a password through a one-time
// link, and find each of these on the audit log with its filters. Every page it visits is scanned
// with axe-core. (Each test uses its own accounts and addresses, so none depends on another.)
import type { Browser, Page } from '@playwright/test';
import { E2E_ACCOUNTS, E2E_PASSWORD, type E2eAccount } from '../support/accounts';
import { expect, loginAs, test } from '../fixtures';
import { expectAccessible } from '../support/axe';

const NEW_PASSWORD = 'amber lantern quietly 47';

test.beforeEach(async ({ page }) => {
	test.setTimeout(120_000);
	await page.setViewportSize({ width: 1366, height: 768 });
});

async function pageFor(browser: Browser, account: E2eAccount): Promise<Page> {
	const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
	const page = await context.newPage();
	await loginAs(page, account);
	return page;
}

/** The audit page filtered by `query`; returns the table's body rows. */
async function auditRows(page: Page, query: Record<string, string>) {
	await page.goto(`/admin/audit?${new URLSearchParams(query)}`);
	return page.locator('tbody tr');
}

test('an organiser revokes an invitation: its link then says so, and the audit log has it', async ({
	page
}) => {
	await loginAs(page, 'organiser');
	await page.goto('/admin/users');
	await page.waitForLoadState('networkidle');
	await expectAccessible(page, 'People page');
	const invite = page.locator('form[action="?/invite"]');
	await invite.getByLabel('Email').fill('nora.new@example.org');
	await invite.getByLabel('Name').fill('Nora New');
	await invite.getByLabel('reviewer').check();
	await invite.getByRole('button', { name: 'Create invitation link' }).click();
	const linkField = page.getByLabel(/Invitation link/);
	await expect(linkField).toBeVisible();
	const link = await linkField.inputValue();
	expect(link).toMatch(/\/invite\/[a-z0-9]{32}$/);
	await page.getByRole('button', { name: 'Copy link' }).click();
	await expect(page.getByRole('status').filter({ hasText: /Copied|Ctrl\+C/ })).toBeVisible();

	const row = page.getByRole('row', { name: /nora\.new@example\.org/ });
	await expect(row).toContainText('Eve Organiser');
	await expect(row).toContainText(/P-[A-Z0-9]+/);
	await expectAccessible(page, 'People page with a new link');

	// The link works before the revocation…
	const visitor = await (await page.context().browser()!.newContext()).newPage();
	await visitor.goto(link);
	await expect(visitor.getByRole('heading', { name: 'Welcome, Nora New' })).toBeVisible();
	await expectAccessible(visitor, 'Invite page');

	page.once('dialog', (d) => d.accept());
	await row.getByRole('button', { name: /Revoke/ }).click();
	await expect(page.getByRole('status').filter({ hasText: 'revoked' })).toBeVisible();
	await expect(page.getByRole('row', { name: /nora\.new@example\.org/ })).toHaveCount(0);

	// … and says it was revoked after.
	await visitor.goto(link);
	await expect(visitor.getByRole('heading', { name: 'Invitation revoked' })).toBeVisible();
	await expect(visitor.getByRole('textbox')).toHaveCount(0);
	await expectAccessible(visitor, 'Invite page, revoked');

	const rows = await auditRows(page, { action: 'invitation.revoke' });
	await expect(rows).toHaveCount(1);
	await expect(rows.first()).toContainText('Invitation revoked');
	await expect(rows.first()).toContainText('Eve Organiser');
	await expect(rows.first()).toContainText('UTC');
	await expectAccessible(page, 'Audit page, filtered by action');
});

test('deactivating a reviewer who holds a lease signs them out and returns the item to the queue', async ({
	page,
	browser
}) => {
	await loginAs(page, 'organiser');
	const leasedNow = async () => {
		await page.goto('/admin/verification');
		const text = await page.getByText(/leased now/).textContent();
		return Number(/(\d+) leased now/.exec(text ?? '')?.[1]);
	};
	const leasedBefore = await leasedNow();

	const reviewer = await pageFor(browser, 'reviewer3');
	await reviewer.goto('/review');
	await reviewer.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(reviewer).toHaveURL(/\/review\/task\/[a-z2-9]{24}/);
	// Each lease has its own address: the task is recognised by its question.
	const question = (await reviewer.locator('h2.question').innerText()).trim();
	expect(await leasedNow()).toBe(leasedBefore + 1);

	await page.goto('/admin/users');
	await page.waitForLoadState('networkidle');
	const row = page.getByRole('row', { name: new RegExp(E2E_ACCOUNTS.reviewer3.displayName) });
	page.once('dialog', (d) => d.accept());
	await row.getByRole('button', { name: /Deactivate/ }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Account deactivated' })).toContainText(
		'1 session ended, 1 leased task returned to the queue'
	);
	await expect(row).toContainText('Deactivated');
	await expect(row.getByRole('button', { name: /Reactivate/ })).toBeVisible();

	// Their next request lands on sign-in, and signing in again is refused.
	await reviewer.reload();
	await expect(reviewer).toHaveURL(/\/login/);
	await reviewer.waitForLoadState('networkidle');
	await reviewer.getByLabel('Email').fill(E2E_ACCOUNTS.reviewer3.email);
	await reviewer.getByLabel('Password').fill(E2E_PASSWORD);
	await reviewer.getByRole('button', { name: 'Sign in' }).click();
	await expect(reviewer.getByRole('alert')).toHaveText(
		'This account is deactivated. Ask an organiser to reactivate it.'
	);
	await expectAccessible(reviewer, 'Login page with an error');

	// The item is back in the queue, and another reviewer is given that very task.
	expect(await leasedNow()).toBe(leasedBefore);
	const other = await pageFor(browser, 'reviewer');
	await other.goto('/review');
	await other.getByRole('button', { name: 'Start reviewing' }).click();
	await expect(other).toHaveURL(/\/review\/task\/[a-z2-9]{24}$/);
	await expect(other.locator('h2.question')).toHaveText(question);

	// Found through the filter form: the action, who did it, and the kind of object.
	await page.goto('/admin/audit');
	await page.waitForLoadState('networkidle');
	await page.getByLabel('Action').selectOption({ label: 'Account deactivated' });
	const organiser = page.getByLabel('Who').locator('option', { hasText: 'Eve Organiser' });
	await expect(organiser).toHaveText(/^Eve Organiser · P-[A-Z0-9]+$/);
	await page.getByLabel('Who').selectOption({ label: (await organiser.textContent())! });
	await page.getByLabel('Object type').selectOption({ label: 'Account' });
	await page.getByRole('button', { name: 'Apply' }).click();
	await expect(page).toHaveURL(/action=user\.deactivate&actor=[a-z0-9]+&objectType=user/);
	const event = page.locator('tbody tr');
	await expect(event).toHaveCount(1);
	await expect(event).toContainText('Account deactivated');
	await expect(event).toContainText('Eve Organiser');
	await expect(event.getByRole('link')).toHaveAttribute('href', /\/admin\/users#user-/);
	await event.locator('summary').click();
	await expect(event).toContainText('reviewTasksReturned');
});

test('a password-reset link sets a new password once and ends the other sessions', async ({
	page,
	browser
}) => {
	await loginAs(page, 'organiser');
	const signedIn = await pageFor(browser, 'reviewer2');
	await signedIn.goto('/review');
	await expect(signedIn).toHaveURL(/\/review$/);

	await page.goto('/admin/users');
	await page.waitForLoadState('networkidle');
	const row = page.getByRole('row', { name: new RegExp(E2E_ACCOUNTS.reviewer2.displayName) });
	await row.getByRole('button', { name: /Reset password/ }).click();
	const link = await page.getByLabel(/Password-reset link/).inputValue();
	expect(link).toMatch(/\/reset\/[a-z0-9]{32}$/);

	const holder = await (await browser.newContext()).newPage();
	await holder.setViewportSize({ width: 1366, height: 768 });
	await holder.goto(link);
	await expect(holder.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
	await expectAccessible(holder, 'Reset page');
	await holder.waitForLoadState('networkidle');
	await holder.getByLabel('New password').fill(NEW_PASSWORD);
	await holder.getByLabel('Repeat the password').fill(NEW_PASSWORD);
	await holder.getByRole('button', { name: 'Set the new password' }).click();
	await expect(holder).toHaveURL(/\/$/);
	await expect(holder.getByRole('heading', { name: /Hello/ })).toBeVisible();

	// The session that was open elsewhere has ended; the link works once only.
	await signedIn.reload();
	await expect(signedIn).toHaveURL(/\/login/);
	await holder.goto(link);
	await expect(holder.getByRole('heading', { name: 'Reset link not valid' })).toBeVisible();

	// The new password signs in; the old one no longer does.
	const fresh = await (await browser.newContext()).newPage();
	await fresh.goto('/login');
	await expectAccessible(fresh, 'Login page');
	await fresh.waitForLoadState('networkidle');
	await fresh.getByLabel('Email').fill(E2E_ACCOUNTS.reviewer2.email);
	await fresh.getByLabel('Password').fill(NEW_PASSWORD);
	await fresh.getByRole('button', { name: 'Sign in' }).click();
	await expect(fresh).toHaveURL(/\/$/);

	const rows = await auditRows(page, {
		action: 'user.*',
		from: new Date().toISOString().slice(0, 10)
	});
	await expect(rows.filter({ hasText: 'Password-reset link issued' })).toHaveCount(1);
	await expect(rows.filter({ hasText: 'Password reset' })).toHaveCount(1);
	await expectAccessible(page, 'Audit page, filtered by family and date');
});

// The journey's correction step — an item corrected through its form, then found on the audit log
// by the item it changed — is in corrections.test.ts, beside the form's other tests.
