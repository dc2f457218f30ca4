import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { ROLES } from '$lib/server/db/schema/enums';
import {
	createInvitation,
	createUser,
	listUsers,
	setRoles,
	UserError
} from '$lib/server/domain/people/users';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return { users: await listUsers(getDb()), roles: ROLES };
};

function fields(form: FormData) {
	return {
		email: String(form.get('email') ?? ''),
		displayName: String(form.get('displayName') ?? ''),
		roles: form.getAll('roles').map(String),
		password: String(form.get('password') ?? ''),
		validHours: String(form.get('validHours') ?? '72')
	};
}

function problem(action: string, e: unknown, values: Record<string, unknown>) {
	if (e instanceof z.ZodError) {
		const issue = e.issues[0];
		return fail(400, {
			action,
			values,
			message: `${String(issue.path[0] ?? 'Input')} ${issue.message}.`
		});
	}
	if (e instanceof UserError) return fail(400, { action, values, message: e.message });
	throw e;
}

export const actions: Actions = {
	create: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = fields(await request.formData());
		const values = { ...input, password: '' };
		try {
			const created = await createUser(getDb(), input, actor.id);
			return { action: 'create', message: `Account created for ${created.email}.` };
		} catch (e) {
			return problem('create', e, values);
		}
	},
	invite: async ({ locals, request, url }) => {
		const actor = requireRole(locals, 'organiser');
		const input = fields(await request.formData());
		try {
			const { token, expiresAt } = await createInvitation(getDb(), input, actor.id);
			return {
				action: 'invite',
				message: `Invitation for ${input.email.trim().toLowerCase()} created. Send this link; it works once and expires ${expiresAt.toUTCString()}.`,
				link: `${url.origin}/invite/${token}`
			};
		} catch (e) {
			return problem('invite', e, { ...input, password: '' });
		}
	},
	roles: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const form = await request.formData();
		const userId = String(form.get('userId') ?? '');
		const roles = form.getAll('roles').map(String);
		if (userId === actor.id && !roles.includes('organiser')) {
			return fail(400, { action: 'roles', message: 'You cannot remove your own organiser role.' });
		}
		try {
			await setRoles(getDb(), userId, roles as never, actor.id);
			return { action: 'roles', message: 'Roles saved.' };
		} catch (e) {
			return problem('roles', e, {});
		}
	}
};
