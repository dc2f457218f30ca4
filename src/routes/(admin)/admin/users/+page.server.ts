import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { ROLES } from '$lib/constants';
import { createInvitation, createUser, listUsers, setRoles } from '$lib/server/domain/people/users';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return { users: await listUsers(getDb()), roles: ROLES };
};

// The forms as posted; the domain functions validate the values themselves (DomainError).
const personForm = z.object({
	email: z.string().default(''),
	displayName: z.string().default(''),
	roles: field.list(z.string()),
	password: z.string().default(''),
	validHours: z.string().default('72')
});
const rolesForm = z.object({ userId: z.string().default(''), roles: field.list(z.string()) });

export const actions: Actions = {
	create: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, personForm, { extra: { action: 'create' } });
		if (!input.ok) return input.failure;
		try {
			const created = await createUser(getDb(), input.data, actor.id);
			return { action: 'create', message: `Account created for ${created.email}.` };
		} catch (e) {
			return failWith(e, { action: 'create', values: input.values });
		}
	},
	invite: async ({ locals, request, url }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, personForm, { extra: { action: 'invite' } });
		if (!input.ok) return input.failure;
		try {
			const { token, expiresAt } = await createInvitation(getDb(), input.data, actor.id);
			return {
				action: 'invite',
				message: `Invitation for ${input.data.email.trim().toLowerCase()} created. Send this link; it works once and expires ${expiresAt.toUTCString()}.`,
				link: `${url.origin}/invite/${token}`
			};
		} catch (e) {
			return failWith(e, { action: 'invite', values: input.values });
		}
	},
	roles: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, rolesForm, { extra: { action: 'roles' } });
		if (!input.ok) return input.failure;
		const { userId, roles } = input.data;
		if (userId === actor.id && !roles.includes('organiser')) {
			return fail(403, { action: 'roles', message: 'You cannot remove your own organiser role.' });
		}
		try {
			await setRoles(getDb(), userId, roles as never, actor.id);
			return { action: 'roles', message: 'Roles saved.' };
		} catch (e) {
			return failWith(e, { action: 'roles' });
		}
	}
};
