import { error, fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import {
	acceptInvitation,
	findInvitation,
	passwordSchema,
	UserError
} from '$lib/server/domain/people/users';
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
		const parsed = acceptSchema.safeParse(Object.fromEntries(await request.formData()));
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			return fail(400, {
				message: issue.path[0] === 'password' ? `Password ${issue.message}.` : issue.message
			});
		}
		const db = getDb();
		try {
			const created = await acceptInvitation(db, params.token, parsed.data.password);
			const { token, session } = await createSession(db, created.id);
			setSessionCookie(cookies, token, session.expiresAt);
		} catch (e) {
			if (e instanceof UserError) return fail(400, { message: e.message });
			throw e;
		}
		redirect(303, '/');
	}
};
