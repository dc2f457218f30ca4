// Sign-in throttling, after OWASP's Authentication and Credential Stuffing Prevention cheat
// sheets: guessing is slowed down per key with progressive delays, and no one can lock an
// account's owner out by guessing at it. Four keys per attempt, each with its own allowance:
// - the account at one address (a person mistyping, or one address guessing): 5 failures;
// - the account from anywhere (guessing spread over many addresses): 25 failures, after which
//   only the addresses that have already failed on the account are slowed down — an address
//   that has not, or where the account signed in within 30 days, goes on to the password check;
// - the address for all accounts (a shared address such as a hospital's NAT must not lock
//   everyone out after a few typos): 100 failures;
// - the accounts an address failed on (password spraying: a few guesses at many accounts):
//   10 distinct accounts.
// A key that reaches its allowance is locked for 30 s; each further failure after the lock ends
// doubles it, up to 15 min. Attempts a lock refuses are not counted anywhere, so they cannot
// prolong it. A key's count restarts after an hour without a counted failure.
//
// Every attempt is counted *before* the password is checked, in one transaction holding the
// attempt's rows, so simultaneous attempts cannot slip past an allowance; a success takes its
// own attempt back.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { auditEvent, signInThrottle, type SignInThrottle } from '../db/schema';
import { sha256Hex } from '../ids';

/** Failed attempts allowed per account and address before it is locked. */
export const FREE_FAILURES = 5;
/** Failed attempts per account across all addresses before addresses failing on it slow down. */
export const ACCOUNT_FAILURES = 25;
/** Failed attempts allowed per address across all accounts. */
export const ADDRESS_FAILURES = 100;
/** Distinct accounts an address may fail on before it is locked. */
export const ADDRESS_ACCOUNTS = 10;
/** The first lock; each further failure over the allowance doubles it, up to MAX_LOCK_MS. */
const BASE_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;
/** A key's count restarts after this long without a counted failure. */
const QUIET_RESET_MS = 60 * 60_000;
/** How long a correct password keeps an address known for its account. */
const KNOWN_ADDRESS_MS = 30 * 86_400_000;

export type ThrottleScope = 'account_address' | 'account' | 'address' | 'address_accounts';

export interface ThrottleKey {
	key: string;
	allowance: number;
	/**
	 * What the audit event of a burst on this key names: the normalised email, and the client
	 * address only as a SHA-256 prefix (enough to tell bursts from one address apart, nothing more).
	 */
	subject: { scope: ThrottleScope; email?: string; addressHash?: string };
}

interface AttemptKeys {
	accountAddress: ThrottleKey;
	account: ThrottleKey;
	address: ThrottleKey;
	addressAccounts: ThrottleKey;
}

/** The keys of one sign-in attempt (the email is expected normalised: trimmed, lower case). */
export function throttleKeys(email: string, address: string): AttemptKeys {
	const addressHash = sha256Hex(address).slice(0, 16);
	return {
		accountAddress: {
			key: `account-address:${email}|${address}`,
			allowance: FREE_FAILURES,
			subject: { scope: 'account_address', email, addressHash }
		},
		account: {
			key: `account:${email}`,
			allowance: ACCOUNT_FAILURES,
			subject: { scope: 'account', email }
		},
		address: {
			key: `address:${address}`,
			allowance: ADDRESS_FAILURES,
			subject: { scope: 'address', addressHash }
		},
		addressAccounts: {
			key: `address-accounts:${address}`,
			allowance: ADDRESS_ACCOUNTS,
			subject: { scope: 'address_accounts', addressHash }
		}
	};
}

/**
 * One audit event per burst: written by the attempt that locks a key for the first time since its
 * count (re)started. Never the password; the address only hashed.
 */
async function recordBurst(tx: Tx, k: ThrottleKey, failures: number, lockedUntil: Date) {
	await tx.insert(auditEvent).values({
		actorId: null,
		action: 'auth.sign_in_burst',
		objectType: 'sign_in',
		objectId: k.subject.email ?? `address:${k.subject.addressHash}`,
		after: { ...k.subject, failures, allowance: k.allowance, lockedUntil }
	});
}

/** A key's failures that still count at `now`, and its lock if one is running. */
function current(row: SignInThrottle, now: Date) {
	const lockedUntil = row.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
	const quiet = !lockedUntil && now.getTime() - row.lastFailureAt.getTime() >= QUIET_RESET_MS;
	return { failures: quiet ? 0 : row.failures, lockedUntil };
}

function lockMs(failures: number, allowance: number): number {
	return Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (failures - allowance));
}

/**
 * Counts a sign-in attempt before the password is checked. Returns 0 when the check may go
 * ahead, else the milliseconds until the attempt could be made (and then nothing is counted).
 */
export async function claimAttempt(
	db: Db,
	email: string,
	address: string,
	now = new Date()
): Promise<number> {
	const keys = throttleKeys(email, address);
	const all = Object.values(keys).sort((a, b) => (a.key < b.key ? -1 : 1));
	return db.transaction(async (tx) => {
		// Every attempt on the same keys waits here for the one before it: rows taken in one order.
		await tx
			.insert(signInThrottle)
			.values(all.map((k) => ({ key: k.key, failures: 0, lastFailureAt: now })))
			.onConflictDoNothing();
		const rows = await tx
			.select()
			.from(signInThrottle)
			.where(
				inArray(
					signInThrottle.key,
					all.map((k) => k.key)
				)
			)
			.orderBy(signInThrottle.key)
			.for('update');
		const row = (k: ThrottleKey) => rows.find((r) => r.key === k.key)!;
		const state = Object.fromEntries(
			Object.entries(keys).map(([name, k]) => [name, current(row(k), now)])
		) as Record<keyof AttemptKeys, ReturnType<typeof current>>;
		const lastSuccess = row(keys.accountAddress).lastSuccessAt;
		const known = lastSuccess !== null && now.getTime() - lastSuccess.getTime() < KNOWN_ADDRESS_MS;

		const locks = [state.accountAddress.lockedUntil];
		if (!known) {
			// Someone guessing elsewhere slows only the addresses that failed on the account too.
			if (state.accountAddress.failures > 0) locks.push(state.account.lockedUntil);
			locks.push(state.address.lockedUntil, state.addressAccounts.lockedUntil);
		}
		const until = Math.max(0, ...locks.map((l) => l?.getTime() ?? 0));
		if (until > 0) return Math.max(1, until - now.getTime());

		const counted: (keyof AttemptKeys)[] = ['accountAddress', 'account', 'address'];
		// An address counts once per account it fails on.
		if (state.accountAddress.failures === 0) counted.push('addressAccounts');
		for (const name of counted) {
			const k = keys[name];
			const failures = state[name].failures + 1;
			const lockedUntil =
				failures >= k.allowance ? new Date(now.getTime() + lockMs(failures, k.allowance)) : null;
			await tx
				.update(signInThrottle)
				.set({ failures, lastFailureAt: now, lockedUntil })
				.where(eq(signInThrottle.key, k.key));
			if (lockedUntil && failures === k.allowance) await recordBurst(tx, k, failures, lockedUntil);
		}
		return 0;
	});
}

/**
 * After a correct password: the account at this address starts afresh and is known there, and
 * the attempt is taken back from the wider keys (a success is not a failure).
 */
export async function attemptSucceeded(
	db: Db,
	email: string,
	address: string,
	now = new Date()
): Promise<void> {
	const keys = throttleKeys(email, address);
	await db.transaction(async (tx) => {
		await tx
			.update(signInThrottle)
			.set({ failures: 0, lockedUntil: null, lastSuccessAt: now })
			.where(eq(signInThrottle.key, keys.accountAddress.key));
		for (const k of [keys.account, keys.address, keys.addressAccounts]) {
			const left = sql`greatest(${signInThrottle.failures} - 1, 0)`;
			await tx
				.update(signInThrottle)
				.set({
					failures: left,
					lockedUntil: sql`case when ${left} < ${k.allowance} then null else ${signInThrottle.lockedUntil} end`
				})
				.where(eq(signInThrottle.key, k.key));
		}
	});
}
