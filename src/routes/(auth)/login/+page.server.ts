import { fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { safeRedirect } from '$lib/server/auth/redirect';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import { authenticate } from '$lib/server/domain/people';
import { setSessionCookie } from '$lib/server/hooks/auth';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

const signInSchema = z.object({
	email: z.string().trim().min(1, 'Enter your email address.').max(320),
	password: z.string().min(1, 'Enter your password.').max(256)
});

export const load: PageServerLoad = ({ locals, url }) => {
	if (locals.user) redirect(303, safeRedirect(url.searchParams.get('redirectTo'), url.origin));
	return {};
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
