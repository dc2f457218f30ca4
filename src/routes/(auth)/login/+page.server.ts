import { fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import { authenticate } from '$lib/server/domain/people/users';
import { setSessionCookie } from '$lib/server/hooks/auth';
import type { Actions, PageServerLoad } from './$types';

const signInSchema = z.object({
	email: z.string().trim().min(1, 'Enter your email address.').max(320),
	password: z.string().min(1, 'Enter your password.').max(256)
});

/** Only same-site paths are followed after sign-in. */
function safeRedirect(target: string | null): string {
	return target && target.startsWith('/') && !target.startsWith('//') ? target : '/';
}

export const load: PageServerLoad = ({ locals, url }) => {
	if (locals.user) redirect(303, safeRedirect(url.searchParams.get('redirectTo')));
	return {};
};

export const actions: Actions = {
	default: async ({ request, cookies, url, getClientAddress }) => {
		const form = Object.fromEntries(await request.formData());
		const parsed = signInSchema.safeParse(form);
		const email = typeof form.email === 'string' ? form.email : '';
		if (!parsed.success) {
			return fail(400, { email, message: parsed.error.issues[0].message });
		}
		const db = getDb();
		const result = await authenticate(
			db,
			parsed.data.email,
			parsed.data.password,
			getClientAddress()
		);
		if (!result.ok && result.reason === 'locked') {
			const minutes = Math.ceil(result.retryAfterMs / 60_000);
			return fail(429, {
				email,
				message: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
			});
		}
		if (!result.ok) return fail(400, { email, message: 'Wrong email or password.' });
		const { token, session } = await createSession(db, result.user.id);
		setSessionCookie(cookies, token, session.expiresAt);
		redirect(303, safeRedirect(url.searchParams.get('redirectTo')));
	}
};
