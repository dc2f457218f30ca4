import { DomainError } from '../errors';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { session, signInThrottle, user } from '../db/schema';
import { describeEachDb } from '../db/testing';
import {
	acceptInvitation,
	authenticate,
	createInvitation,
	createUser,
	findInvitation
} from '../domain/people/users';
import { hasRole, requireRole } from './guards';
import {
	createSession,
	invalidateSession,
	SESSION_LIFETIME_MS,
	validateSessionToken
} from './session';
import { passwordWeakness } from './password';
import { ACCOUNT_FAILURES, claimAttempt, FREE_FAILURES } from './throttle';

const DAY = 86_400_000;

describeEachDb('accounts and sessions', (h) => {
	let userId: string;
	beforeEach(async () => {
		const u = await createUser(h.db, {
			email: 'Ana@Example.org',
			displayName: 'Ana',
			roles: ['reviewer'],
			password: 'correct horse battery'
		});
		userId = u.id;
	});

	it('stores an argon2id hash, never the password, and lower-cases the email', async () => {
		const [row] = await h.db.select().from(user).where(eq(user.id, userId));
		expect(row.email).toBe('ana@example.org');
		expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
		expect(row.passwordHash).not.toContain('correct horse');
	});

	it('signs in with the right password only', async () => {
		expect(
			(await authenticate(h.db, ' ANA@example.org ', 'correct horse battery', '10.0.0.1')).ok
		).toBe(true);
		expect(await authenticate(h.db, 'ana@example.org', 'wrong password', '10.0.0.1')).toEqual({
			ok: false,
			reason: 'invalid'
		});
		expect(await authenticate(h.db, 'nobody@example.org', 'whatever', '10.0.0.1')).toEqual({
			ok: false,
			reason: 'invalid'
		});
	});

	it('locks an account at an address after repeated failures, even for the right password', async () => {
		for (let i = 0; i < FREE_FAILURES; i++)
			expect(await authenticate(h.db, 'ana@example.org', 'nope', '10.0.0.1')).toMatchObject({
				reason: 'invalid'
			});
		const locked = await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.1');
		expect(locked).toMatchObject({ ok: false, reason: 'locked' });
		expect((locked as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
		// Another person behind another address is not locked out by it.
		expect(
			(await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.2')).ok
		).toBe(true);
	});

	it('counts simultaneous attempts before checking: 30 at once get exactly the allowance of checks', async () => {
		const results = await Promise.all(
			Array.from({ length: 30 }, () => authenticate(h.db, 'ana@example.org', 'nope', '10.0.0.7'))
		);
		expect(results.filter((r) => !r.ok && r.reason === 'invalid')).toHaveLength(FREE_FAILURES);
		expect(results.filter((r) => !r.ok && r.reason === 'locked')).toHaveLength(30 - FREE_FAILURES);
	});

	it('clears the account at an address on success, and keeps an address open for other accounts', async () => {
		for (let i = 0; i < FREE_FAILURES - 1; i++)
			await authenticate(h.db, 'ana@example.org', 'nope', '10.0.0.3');
		expect(
			(await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.3')).ok
		).toBe(true);
		// The slate is clean again: as many mistakes as before are allowed.
		for (let i = 0; i < FREE_FAILURES - 1; i++)
			expect(await authenticate(h.db, 'ana@example.org', 'nope', '10.0.0.3')).toMatchObject({
				reason: 'invalid'
			});
		expect(
			(await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.3')).ok
		).toBe(true);
		// Many accounts failing behind one shared address do not lock a colleague there.
		for (let i = 0; i < 12; i++)
			await authenticate(h.db, `someone${i}@example.org`, 'nope', '10.0.0.3');
		expect(
			(await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.3')).ok
		).toBe(true);
	});

	it('slows down the addresses guessing at an account from many places', async () => {
		for (let i = 0; i < ACCOUNT_FAILURES; i++)
			await authenticate(h.db, 'ana@example.org', 'nope', `10.1.${i}.1`);
		expect(
			await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.1.0.1')
		).toMatchObject({ reason: 'locked' });
		const rows = await h.db.select().from(signInThrottle);
		expect(rows.find((r) => r.key === 'account:ana@example.org')?.failures).toBe(ACCOUNT_FAILURES);
	});

	it('locks a key at its allowance, without counting while locked, then doubles the lock', async () => {
		const claim = (seconds: number) =>
			claimAttempt(h.db, 'ana@example.org', '10.9.9.9', new Date(now.getTime() + seconds * 1000));
		const now = new Date('2026-01-01T00:00:00Z');
		for (let i = 0; i < FREE_FAILURES; i++) expect(await claim(0)).toBe(0);
		expect(await claim(0)).toBe(30_000);
		expect(await claim(10)).toBe(20_000);
		const own = () =>
			h.db
				.select()
				.from(signInThrottle)
				.where(eq(signInThrottle.key, 'account-address:ana@example.org|10.9.9.9'));
		expect((await own())[0].failures).toBe(FREE_FAILURES);
		// After the lock one more attempt is checked; failing, it locks twice as long.
		expect(await claim(31)).toBe(0);
		expect(await claim(32)).toBe(59_000);
		expect((await own())[0].failures).toBe(FREE_FAILURES + 1);
	});

	it('stores only a hash of the session secret and validates the token', async () => {
		const { token } = await createSession(h.db, userId);
		const [row] = await h.db.select().from(session);
		expect(row.secretHash).not.toContain(token.split('.')[1]);
		const valid = await validateSessionToken(h.db, token);
		expect(valid?.user).toMatchObject({ id: userId, roles: ['reviewer'] });
		expect(await validateSessionToken(h.db, `${token.split('.')[0]}.forgedsecret`)).toBeNull();
		expect(await validateSessionToken(h.db, 'garbage')).toBeNull();
	});

	it('expires sessions, and slides the expiry forward when used in the second week', async () => {
		const start = new Date('2026-01-01T00:00:00Z');
		const { token } = await createSession(h.db, userId, start);
		const at10Days = new Date(start.getTime() + 10 * DAY);
		const at3Days = new Date(start.getTime() + 3 * DAY);
		const firstWeek = await validateSessionToken(h.db, token, at3Days);
		expect(firstWeek?.renewed).toBe(false);
		expect(firstWeek?.session.expiresAt.getTime()).toBe(start.getTime() + SESSION_LIFETIME_MS);
		const renewed = await validateSessionToken(h.db, token, at10Days);
		expect(renewed?.renewed).toBe(true);
		expect(renewed?.session.expiresAt.getTime()).toBe(at10Days.getTime() + SESSION_LIFETIME_MS);
		const [stored] = await h.db.select().from(session);
		expect(stored.expiresAt.getTime()).toBe(at10Days.getTime() + SESSION_LIFETIME_MS);
		const past = new Date(at10Days.getTime() + SESSION_LIFETIME_MS + 1);
		expect(await validateSessionToken(h.db, token, past)).toBeNull();
		expect(await h.db.select().from(session)).toHaveLength(0);
	});

	it('signing out ends the session', async () => {
		const { token, session: s } = await createSession(h.db, userId);
		await invalidateSession(h.db, s.id);
		expect(await validateSessionToken(h.db, token)).toBeNull();
	});

	it('a disabled account loses its sessions', async () => {
		const { token } = await createSession(h.db, userId);
		await h.db.update(user).set({ disabledAt: new Date() }).where(eq(user.id, userId));
		expect(await validateSessionToken(h.db, token)).toBeNull();
	});

	it('invitations work once and expire', async () => {
		const now = new Date('2026-03-01T00:00:00Z');
		const { token } = await createInvitation(
			h.db,
			{ email: 'new@example.org', displayName: 'New', roles: ['physician'], validHours: 24 },
			userId,
			now
		);
		expect(await findInvitation(h.db, token, new Date(now.getTime() + 25 * 3_600_000))).toBeNull();
		const created = await acceptInvitation(
			h.db,
			token,
			'a long enough password',
			new Date(now.getTime() + 3_600_000)
		);
		expect(created.roles).toEqual(['physician']);
		await expect(
			acceptInvitation(h.db, token, 'a long enough password', now)
		).rejects.toBeInstanceOf(DomainError);
	});

	it('refuses passwords that are easy to guess, saying why', async () => {
		for (const weak of [
			'          ',
			'aaaaaaaaaaaa',
			'password1234',
			'123456789012',
			'qwertyuiopas'
		]) {
			const refused = await createUser(h.db, {
				email: 'weak@example.org',
				displayName: 'Weak',
				roles: ['reviewer'],
				password: weak
			}).catch((e: unknown) => e);
			expect(refused, JSON.stringify(weak)).toBeInstanceOf(DomainError);
			expect((refused as DomainError).message).toMatch(/^password is too easy to guess/);
		}
		expect(passwordWeakness('correct horse battery')).toBeNull();
		expect(passwordWeakness('aaaaaaaaaaaa')).toMatch(/repeat/i);
	});

	it('refuses a second account for the same email', async () => {
		await expect(
			createUser(h.db, {
				email: 'ana@example.org',
				displayName: 'A',
				roles: ['physician'],
				password: 'another password'
			})
		).rejects.toThrow(/already exists/);
	});
});

describe('role guards', () => {
	const locals = (roles: string[] | null) =>
		({
			user: roles ? { id: 'u', email: 'e', displayName: 'd', pseudonym: 'p', roles } : null,
			session: null
		}) as unknown as App.Locals;

	it('redirects anonymous users to sign in and refuses other roles with 403', () => {
		expect(() => requireRole(locals(null), 'organiser', new URL('http://x/admin'))).toThrow(
			expect.objectContaining({ status: 303, location: '/login?redirectTo=%2Fadmin' })
		);
		expect(() => requireRole(locals(['reviewer']), 'organiser')).toThrow(
			expect.objectContaining({ status: 403 })
		);
		expect(requireRole(locals(['reviewer', 'organiser']), 'organiser').roles).toContain(
			'organiser'
		);
	});

	it('organisers act as adjudicators; reviewers do not', () => {
		expect(hasRole({ roles: ['organiser'] }, 'adjudicator')).toBe(true);
		expect(hasRole({ roles: ['reviewer'] }, 'adjudicator')).toBe(false);
		expect(hasRole({ roles: ['reviewer', 'adjudicator'] }, 'adjudicator')).toBe(true);
	});
});
