import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { session, user, type Session, type User } from '../db/schema';
import { randomId, sha256Hex } from '../ids';

export const SESSION_COOKIE = 'session';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session lives 14 days and slides forward when used in its second week. */
export const SESSION_LIFETIME_MS = 14 * DAY_MS;
const SESSION_RENEW_BEFORE_MS = 7 * DAY_MS;

export type SessionUser = Pick<
	User,
	'id' | 'email' | 'displayName' | 'pseudonym' | 'roles' | 'institutionId'
>;
export interface ValidatedSession {
	session: Session;
	user: SessionUser;
	/** Whether this validation slid the expiry forward (the cookie must then be written again). */
	renewed: boolean;
}

/** Creates a session and returns it with its `<id>.<secret>` token (the secret is not stored). */
export async function createSession(db: Db, userId: string, now = new Date()) {
	const id = randomId();
	const secret = randomId();
	const [row] = await db
		.insert(session)
		.values({
			id,
			userId,
			secretHash: sha256Hex(secret),
			createdAt: now,
			expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS)
		})
		.returning();
	return { session: row, token: `${id}.${secret}` };
}

function sessionLookup(db: Db) {
	return db
		.select({
			session,
			user: {
				id: user.id,
				email: user.email,
				displayName: user.displayName,
				pseudonym: user.pseudonym,
				roles: user.roles,
				institutionId: user.institutionId,
				disabledAt: user.disabledAt
			}
		})
		.from(session)
		.innerJoin(user, eq(session.userId, user.id))
		.where(eq(session.id, sql.placeholder('id')))
		.limit(1)
		.prepare('session_with_user');
}

// Every request validates its session: the query is built once per database, not per request.
const lookups = new WeakMap<Db, ReturnType<typeof sessionLookup>>();

/**
 * Validates a token in one statement (session and user together): constant-time secret check,
 * expiry, sliding renewal. Only a renewal (at most once a week per session) or an expired or
 * disabled session writes. Null when invalid.
 */
export async function validateSessionToken(
	db: Db,
	token: string,
	now = new Date()
): Promise<ValidatedSession | null> {
	const parts = token.split('.');
	if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
	const [id, secret] = parts;
	let lookup = lookups.get(db);
	if (!lookup) lookups.set(db, (lookup = sessionLookup(db)));
	const [row] = await lookup.execute({ id });
	if (!row) return null;
	const expected = new TextEncoder().encode(row.session.secretHash);
	const actual = new TextEncoder().encode(sha256Hex(secret));
	if (!constantTimeEqual(expected, actual)) return null;
	if (row.user.disabledAt || row.session.expiresAt.getTime() <= now.getTime()) {
		await db.delete(session).where(eq(session.id, id));
		return null;
	}
	let renewed = false;
	if (row.session.expiresAt.getTime() - now.getTime() < SESSION_RENEW_BEFORE_MS) {
		const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
		await db.update(session).set({ expiresAt }).where(eq(session.id, id));
		row.session.expiresAt = expiresAt;
		renewed = true;
	}
	const { disabledAt: _disabled, ...sessionUser } = row.user;
	return { session: row.session, user: sessionUser, renewed };
}

/** Ends one session (sign-out). */
export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
	await db.delete(session).where(eq(session.id, sessionId));
}
