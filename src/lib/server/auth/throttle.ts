// Sign-in throttling. Every attempt is counted *before* the password is checked, in one atomic
// statement per key, so simultaneous attempts cannot slip past the allowance; a success takes its
// own attempt back. Three keys, each with its own allowance:
// - the account at one address (a person mistyping): 5 attempts, cleared by a success;
// - the account from anywhere (guessing spread over many addresses): 25;
// - the address for all accounts (one address trying many accounts; a shared address such as a
//   hospital's NAT must not lock everyone out after a few typos): 100.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEvent, signInThrottle } from '../db/schema';
import { sha256Hex } from '../ids';

/** Failed attempts allowed per account and address before it is locked. */
export const FREE_FAILURES = 5;
/** Failed attempts allowed per account across all addresses. */
export const ACCOUNT_FAILURES = 25;
/** Failed attempts allowed per address across all accounts. */
export const ADDRESS_FAILURES = 100;
/** The first lock; each further attempt over the allowance doubles it, up to MAX_LOCK_MS. */
const BASE_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;

export interface ThrottleKey {
	key: string;
	allowance: number;
	/**
	 * What the audit event of a burst on this key names: the normalised email, and the client
	 * address only as a SHA-256 prefix (enough to tell bursts from one address apart, nothing more).
	 */
	subject?: {
		scope: 'account_address' | 'account' | 'address';
		email?: string;
		addressHash?: string;
	};
}

/** The keys of one sign-in attempt (the email is expected normalised: trimmed, lower case). */
export function throttleKeys(email: string, address: string): ThrottleKey[] {
	const addressHash = sha256Hex(address).slice(0, 16);
	return [
		{
			key: `account-address:${email}|${address}`,
			allowance: FREE_FAILURES,
			subject: { scope: 'account_address', email, addressHash }
		},
		{ key: `account:${email}`, allowance: ACCOUNT_FAILURES, subject: { scope: 'account', email } },
		{
			key: `address:${address}`,
			allowance: ADDRESS_FAILURES,
			subject: { scope: 'address', addressHash }
		}
	];
}

/**
 * One audit event per burst: written by the attempt that first crosses a key's allowance (a key
 * that stays locked counts nothing more, and a later re-lock of the same burst writes nothing).
 * Never the password; the address only hashed.
 */
async function recordBurst(db: Db, k: ThrottleKey, failures: number, lockedUntil: Date) {
	await db.insert(auditEvent).values({
		actorId: null,
		action: 'auth.sign_in_burst',
		objectType: 'sign_in',
		objectId: k.subject?.email ?? `key:${sha256Hex(k.key).slice(0, 16)}`,
		after: {
			...(k.subject ?? { keyHash: sha256Hex(k.key).slice(0, 16) }),
			failures,
			allowance: k.allowance,
			lockedUntil
		}
	});
}

/**
 * Counts one attempt against a key, atomically. Returns 0 when the attempt may go on to the
 * password check, else the milliseconds until the key unlocks (the attempt then locks the key, or
 * the key was locked already and nothing is counted).
 */
async function claim(db: Db, k: ThrottleKey, now: Date): Promise<number> {
	const { key, allowance } = k;
	const [row] = await db
		.insert(signInThrottle)
		.values({ key, failures: 1, lastFailureAt: now })
		.onConflictDoUpdate({
			target: signInThrottle.key,
			set: { failures: sql`${signInThrottle.failures} + 1`, lastFailureAt: now },
			// A locked key counts nothing more until the lock ends.
			setWhere: sql`${signInThrottle.lockedUntil} is null or ${signInThrottle.lockedUntil} <= ${now.toISOString()}`
		})
		.returning({ failures: signInThrottle.failures });
	if (!row) {
		const [locked] = await db
			.select({ lockedUntil: signInThrottle.lockedUntil })
			.from(signInThrottle)
			.where(eq(signInThrottle.key, key));
		return Math.max(1, (locked?.lockedUntil?.getTime() ?? now.getTime()) - now.getTime());
	}
	if (row.failures <= allowance) return 0;
	const lockMs = Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (row.failures - allowance - 1));
	const lockedUntil = new Date(now.getTime() + lockMs);
	await db.update(signInThrottle).set({ lockedUntil }).where(eq(signInThrottle.key, key));
	if (row.failures === allowance + 1) await recordBurst(db, k, row.failures, lockedUntil);
	return lockMs;
}

/**
 * Counts a sign-in attempt against every key before the password is checked. Returns 0 when the
 * check may go ahead, else how long the caller must wait.
 */
export async function claimAttempt(db: Db, keys: ThrottleKey[], now = new Date()): Promise<number> {
	let wait = 0;
	for (const k of keys) wait = Math.max(wait, await claim(db, k, now));
	return wait;
}

/**
 * After a successful sign-in: the account at this address starts afresh, and the attempt is taken
 * back from the wider keys (a success is not a failure).
 */
export async function attemptSucceeded(db: Db, keys: ThrottleKey[]): Promise<void> {
	const [own, ...wider] = keys;
	await db.delete(signInThrottle).where(eq(signInThrottle.key, own.key));
	for (const k of wider)
		await db
			.update(signInThrottle)
			.set({ failures: sql`greatest(${signInThrottle.failures} - 1, 0)` })
			.where(eq(signInThrottle.key, k.key));
}
