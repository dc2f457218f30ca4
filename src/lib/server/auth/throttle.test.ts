import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent } from '../db/schema';
import { describeEachDb } from '../db/testing';
import { authenticate, createUser, type SignInResult } from '../domain/people/users';
import { ACCOUNT_FAILURES, ADDRESS_ACCOUNTS, FREE_FAILURES } from './throttle';

const PASSWORD = 'correct horse battery';
const at = (t0: Date, seconds: number) => new Date(t0.getTime() + seconds * 1000);
/** Only an attempt the throttle let through reaches the argon2id check and can be 'invalid'. */
const checked = (results: SignInResult[]) =>
	results.filter((r) => !r.ok && r.reason === 'invalid').length;

describeEachDb('sign-in throttling', (h) => {
	beforeEach(async () => {
		await createUser(h.db, {
			email: 'ana@example.org',
			displayName: 'Ana',
			roles: ['reviewer'],
			password: PASSWORD
		});
	});

	it('lets the right password in from another address after 26 wrong ones from one address', async () => {
		const t0 = new Date();
		for (let i = 0; i < 26; i++)
			await authenticate(h.db, 'ana@example.org', `guess-${i}`, '198.51.100.1', at(t0, i));
		// The guessing address itself stays locked out…
		expect(
			await authenticate(h.db, 'ana@example.org', PASSWORD, '198.51.100.1', at(t0, 27))
		).toMatchObject({ ok: false, reason: 'locked' });
		// …but the owner, elsewhere, is not.
		expect(
			(await authenticate(h.db, 'ana@example.org', PASSWORD, '203.0.113.9', at(t0, 28))).ok
		).toBe(true);
	});

	it('does not extend a lock for attempts it refused', async () => {
		const t0 = new Date();
		for (let i = 0; i < FREE_FAILURES; i++)
			await authenticate(h.db, 'ana@example.org', `guess-${i}`, '198.51.100.2', t0);
		const refused: SignInResult[] = [];
		for (let i = 1; i <= 20; i++)
			refused.push(
				await authenticate(h.db, 'ana@example.org', `more-${i}`, '198.51.100.2', at(t0, i))
			);
		expect(refused.every((r) => !r.ok && r.reason === 'locked')).toBe(true);
		// The first lock is 30 s from the last counted failure, whatever came in between.
		const after = await authenticate(h.db, 'ana@example.org', PASSWORD, '198.51.100.2', at(t0, 31));
		expect(after.ok).toBe(true);
	});

	it('stops one address spraying many accounts long before all are checked', async () => {
		const results: SignInResult[] = [];
		for (let i = 0; i < 30; i++)
			results.push(await authenticate(h.db, `user${i}@example.org`, 'Winter2026!', '198.51.100.3'));
		expect(checked(results)).toBe(ADDRESS_ACCOUNTS);
		expect(results.slice(ADDRESS_ACCOUNTS).every((r) => !r.ok && r.reason === 'locked')).toBe(true);
		// One audit event for the address, not one per account refused.
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'auth.sign_in_burst'));
		expect(events.map((e) => (e.after as { scope: string }).scope)).toEqual(['address_accounts']);
	});

	it('lets the owner in from their own address while others guess at the account', async () => {
		const t0 = new Date();
		const home = '203.0.113.20';
		expect((await authenticate(h.db, 'ana@example.org', PASSWORD, home, t0)).ok).toBe(true);
		const onceWrong = '198.51.200.1';
		await authenticate(h.db, 'ana@example.org', 'guess', onceWrong, at(t0, 1));
		// Guessing from enough addresses to slow the whole account down…
		let n = 0;
		for (let a = 0; n <= ACCOUNT_FAILURES; a++)
			for (let i = 0; i < FREE_FAILURES; i++, n++)
				await authenticate(h.db, 'ana@example.org', `guess-${n}`, `198.51.${a}.1`, at(t0, 60));
		// …refuses the addresses that failed on it, even once…
		expect(
			await authenticate(h.db, 'ana@example.org', PASSWORD, onceWrong, at(t0, 61))
		).toMatchObject({ ok: false, reason: 'locked' });
		// …and not the owner at home, even after a typo of their own.
		expect(
			await authenticate(h.db, 'ana@example.org', 'correct horse batery', home, at(t0, 62))
		).toMatchObject({ ok: false, reason: 'invalid' });
		expect((await authenticate(h.db, 'ana@example.org', PASSWORD, home, at(t0, 63))).ok).toBe(true);
		// Nor a colleague signing in for the first time from an address that never failed.
		expect(
			(await authenticate(h.db, 'ana@example.org', PASSWORD, '203.0.113.77', at(t0, 64))).ok
		).toBe(true);
	});

	it('slows the account down progressively, not for good', async () => {
		const t0 = new Date();
		for (let a = 0; a < ACCOUNT_FAILURES / FREE_FAILURES; a++)
			for (let i = 0; i < FREE_FAILURES; i++)
				await authenticate(h.db, 'ana@example.org', 'nope', `198.51.${a}.1`, t0);
		// A guessing address's own lock (30 s) has ended; the account's slowdown has too.
		const later = await authenticate(h.db, 'ana@example.org', PASSWORD, '198.51.0.1', at(t0, 31));
		expect(later.ok).toBe(true);
	});
});
