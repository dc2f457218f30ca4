import { error, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import { acceptInvitation, findInvitation, passwordSchema } from '$lib/server/domain/people/users';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { setSessionCookie } from '$lib/server/hooks/auth';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params }) => {
	const invitation = await findInvitation(getDb(), params.token);
	if (!invitation)
		error(
			404,
			'This invitation link is invalid, already used or expired. Ask an organiser for a new one.'
		);
	return { email: invitation.email, displayName: invitation.displayName, roles: invitation.roles };
};

const acceptSchema = z
	.object({ password: passwordSchema, confirm: z.string() })
	.refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The passwords differ.' });

export const actions: Actions = {
	default: async ({ params, request, cookies }) => {
		const input = await readForm(request, acceptSchema, {
			message: (errors) =>
				errors.password ? `Password ${errors.password}.` : Object.values(errors)[0]
		});
		if (!input.ok) return input.failure;
		const db = getDb();
		try {
			const created = await acceptInvitation(db, params.token, input.data.password);
			const { token, session } = await createSession(db, created.id);
			setSessionCookie(cookies, token, session.expiresAt);
		} catch (e) {
			return failWith(e);
		}
		redirect(303, '/');
	}
};
