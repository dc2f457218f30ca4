import type { Handle } from '@sveltejs/kit';
import { dev } from '$app/environment';
import { SESSION_COOKIE, validateSessionToken } from '../auth/session';
import { getDb } from '../db';
import { unstorable } from '../../schemas/text';

/**
 * Sets locals.user and locals.session (null when absent) from the session cookie: one database
 * statement per request. The cookie is written again only when the session's expiry moved.
 */
export const authHandle: Handle = async ({ event, resolve }) => {
	const token = event.cookies.get(SESSION_COOKIE);
	event.locals.user = null;
	event.locals.session = null;
	if (token) {
		// A cookie the database could not even look up (a NUL in it) is as good as forged.
		const result = unstorable(token) ? null : await validateSessionToken(getDb(), token);
		if (result) {
			event.locals.user = result.user;
			event.locals.session = result.session;
			if (result.renewed) setSessionCookie(event.cookies, token, result.session.expiresAt);
		} else {
			event.cookies.delete(SESSION_COOKIE, { path: '/' });
		}
	}
	return resolve(event);
};

/** Writes the session cookie: httpOnly, sameSite lax, secure outside development, path /. */
export function setSessionCookie(
	cookies: Parameters<Handle>[0]['event']['cookies'],
	token: string,
	expiresAt: Date
) {
	cookies.set(SESSION_COOKIE, token, {
		path: '/',
		httpOnly: true,
		sameSite: 'lax',
		secure: !dev && process.env.COOKIE_SECURE !== '0',
		expires: expiresAt
	});
}
