import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { signInThrottle } from '../db/schema';

/** Failures allowed before a key is locked; each further failure doubles the lock. */
export const FREE_FAILURES = 5;
const BASE_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;

/** Milliseconds the key is still locked for, or 0. */
export async function lockRemainingMs(db: Db, key: string, now = new Date()): Promise<number> {
	const [row] = await db.select().from(signInThrottle).where(eq(signInThrottle.key, key));
	if (!row?.lockedUntil) return 0;
	return Math.max(0, row.lockedUntil.getTime() - now.getTime());
}

/** Records a failed sign-in for a key and locks it once it has failed too often. */
export async function recordFailure(db: Db, key: string, now = new Date()): Promise<void> {
	const [row] = await db
		.insert(signInThrottle)
		.values({ key, failures: 1, lastFailureAt: now })
		.onConflictDoUpdate({
			target: signInThrottle.key,
			set: { failures: sql`${signInThrottle.failures} + 1`, lastFailureAt: now }
		})
		.returning();
	if (row.failures >= FREE_FAILURES) {
		const lockMs = Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (row.failures - FREE_FAILURES));
		await db
			.update(signInThrottle)
			.set({ lockedUntil: new Date(now.getTime() + lockMs) })
			.where(eq(signInThrottle.key, key));
	}
}

/** Clears a key after a successful sign-in. */
export async function clearFailures(db: Db, key: string): Promise<void> {
	await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}
