import { redirect } from '@sveltejs/kit';
import { invalidateSession, SESSION_COOKIE } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => redirect(303, '/');

export const actions: Actions = {
	default: async ({ locals, cookies }) => {
		if (locals.session) await invalidateSession(getDb(), locals.session.id);
		cookies.delete(SESSION_COOKIE, { path: '/' });
		redirect(303, '/login');
	}
};
