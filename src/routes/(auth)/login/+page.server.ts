import { fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { safeRedirect } from '$lib/server/auth/redirect';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import { ssoInstitutions } from '$lib/server/domain/institutions';
import { authenticate } from '$lib/server/domain/people';
import { setSessionCookie } from '$lib/server/hooks/auth';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

const signInSchema = z.object({
	email: z.string().trim().min(1, 'Enter your email address.').max(320),
	password: z.string().min(1, 'Enter your password.').max(256)
});

/** Why a sign-in through an institution did not finish (`?sso=` from the callback). */
const SSO_FAILURES: Record<string, string> = {
	cancelled: 'The sign-in at your institution was cancelled or refused. Try again.',
	unverified:
		'The sign-in at your institution could not be verified (it may have been started in another tab). Start again.',
	unreachable:
		'Your institution’s sign-in service could not be reached or answered unexpectedly. Try again later, or sign in with a password.',
	expired: 'The sign-in at your institution took too long or was started elsewhere. Start again.',
	off: 'Single sign-on is no longer set up for that institution.'
};

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.user) redirect(303, safeRedirect(url.searchParams.get('redirectTo'), url.origin));
	const sso = url.searchParams.get('sso');
	return {
		institutions: await ssoInstitutions(getDb()),
		ssoFailure: sso ? (SSO_FAILURES[sso] ?? null) : null,
		redirectTo: url.searchParams.get('redirectTo')
	};
};

export const actions: Actions = {
	default: async ({ request, cookies, url, getClientAddress }) => {
		const input = await readForm(request, signInSchema);
		if (!input.ok) return input.failure;
		const { values } = input;
		const db = getDb();
		const result = await authenticate(
			db,
			input.data.email,
			input.data.password,
			getClientAddress()
		);
		if (!result.ok && result.reason === 'locked') {
			const minutes = Math.ceil(result.retryAfterMs / 60_000);
			return fail(429, {
				values,
				message: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
			});
		}
		if (!result.ok && result.reason === 'disabled')
			return fail(403, {
				values,
				message: 'This account is deactivated. Ask an organiser to reactivate it.'
			});
		if (!result.ok) return fail(400, { values, message: 'Wrong email or password.' });
		const { token, session } = await createSession(db, result.user.id);
		setSessionCookie(cookies, token, session.expiresAt);
		redirect(303, safeRedirect(url.searchParams.get('redirectTo'), url.origin));
	}
};
