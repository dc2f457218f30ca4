import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import { findPasswordReset, passwordSchema, usePasswordReset } from '$lib/server/domain/people';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { setSessionCookie } from '$lib/server/hooks/auth';
import type { Actions, PageServerLoad } from './$types';

// Whoever holds the link may open this page; the token itself is the credential.
export const load: PageServerLoad = async ({ params }) => {
	const account = await findPasswordReset(getDb(), params.token);
	return { account };
};

const resetSchema = z
	.object({ password: passwordSchema, confirm: z.string() })
	.refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The passwords differ.' });

export const actions: Actions = {
	default: async ({ params, request, cookies }) => {
		const input = await readForm(request, resetSchema, {
			message: (errors) =>
				errors.password ? `Password ${errors.password}.` : Object.values(errors)[0]
		});
		if (!input.ok) return input.failure;
		const db = getDb();
		try {
			const account = await usePasswordReset(db, params.token, input.data.password);
			// Every earlier session ended with the reset; this browser starts the one new session.
			const { token, session } = await createSession(db, account.id);
			setSessionCookie(cookies, token, session.expiresAt);
		} catch (e) {
			return failWith(e);
		}
		redirect(303, '/');
	}
};
