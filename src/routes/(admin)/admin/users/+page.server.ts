import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { ROLES } from '$lib/constants';
import { HOME_INSTITUTION_ID, listInstitutions } from '$lib/server/domain/institutions';
import {
	createInvitation,
	createUser,
	deactivateUser,
	issuePasswordReset,
	listInvitations,
	listUsers,
	reactivateUser,
	resendInvitation,
	revokeInvitation,
	setRoles,
	type LeasedWork
} from '$lib/server/domain/people';
import { releasePhysicianLeases } from '$lib/server/domain/studies';
import { returnLeasedTasks } from '$lib/server/domain/review';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

// What a deactivation gives back, in its transaction: people sits below review and ranking, so
// the page hands it their steps.
const leasedWork: LeasedWork = {
	reviewTasks: returnLeasedTasks,
	rankingLeases: releasePhysicianLeases
};

export const load: PageServerLoad = async ({ locals, url }) => {
	const me = requireRole(locals, 'organiser', url);
	const db = getDb();
	const [users, invitations, institutions] = await Promise.all([
		listUsers(db),
		listInvitations(db),
		listInstitutions(db)
	]);
	return {
		users,
		invitations,
		roles: ROLES,
		me: me.id,
		institutions: institutions.map((i) => ({ id: i.id, name: i.name })),
		homeInstitution: HOME_INSTITUTION_ID
	};
};

// The forms as posted; the domain functions validate the values themselves (DomainError).
const personForm = z.object({
	email: z.string().default(''),
	displayName: z.string().default(''),
	roles: field.list(z.string()),
	password: z.string().default(''),
	validHours: z.string().default('72'),
	institutionId: z.string().optional()
});
const rolesForm = z.object({ userId: z.string().min(1), roles: field.list(z.string()) });
const userForm = z.object({ userId: z.string().min(1, 'Choose an account.') });
const invitationForm = z.object({ invitationId: z.string().min(1, 'Choose an invitation.') });

const until = (d: Date) => d.toUTCString().replace('GMT', 'UTC');

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
				message: `Invitation for ${input.data.email.trim().toLowerCase()} created. Send this link; it works once and expires ${until(expiresAt)}.`,
				link: `${url.origin}/invite/${token}`,
				linkLabel: 'Invitation link'
			};
		} catch (e) {
			return failWith(e, { action: 'invite', values: input.values });
		}
	},
	resend: async ({ locals, request, url }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, invitationForm, { extra: { action: 'resend' } });
		if (!input.ok) return input.failure;
		try {
			const fresh = await resendInvitation(getDb(), input.data.invitationId, actor.id);
			return {
				action: 'resend',
				message: `New invitation link for ${fresh.email}; the previous link no longer works. It works once and expires ${until(fresh.expiresAt)}.`,
				link: `${url.origin}/invite/${fresh.token}`,
				linkLabel: 'Invitation link'
			};
		} catch (e) {
			return failWith(e, { action: 'resend' });
		}
	},
	revoke: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, invitationForm, { extra: { action: 'revoke' } });
		if (!input.ok) return input.failure;
		try {
			const { email } = await revokeInvitation(getDb(), input.data.invitationId, actor.id);
			return {
				action: 'revoke',
				message: `Invitation for ${email} revoked; its link no longer works.`
			};
		} catch (e) {
			return failWith(e, { action: 'revoke' });
		}
	},
	roles: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, rolesForm, { extra: { action: 'roles' } });
		if (!input.ok) return input.failure;
		try {
			await setRoles(getDb(), input.data.userId, input.data.roles as never, actor.id);
			return { action: 'roles', message: 'Roles saved.' };
		} catch (e) {
			return failWith(e, { action: 'roles' });
		}
	},
	deactivate: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, userForm, { extra: { action: 'deactivate' } });
		if (!input.ok) return input.failure;
		try {
			const done = await deactivateUser(getDb(), input.data.userId, actor.id, leasedWork);
			const work = done.reviewTasksReturned.length + done.assignmentsReleased.length;
			return {
				action: 'deactivate',
				message: `Account deactivated: ${done.sessionsEnded} session${done.sessionsEnded === 1 ? '' : 's'} ended, ${work} leased task${work === 1 ? '' : 's'} returned to the queue.`
			};
		} catch (e) {
			return failWith(e, { action: 'deactivate' });
		}
	},
	reactivate: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, userForm, { extra: { action: 'reactivate' } });
		if (!input.ok) return input.failure;
		try {
			await reactivateUser(getDb(), input.data.userId, actor.id);
			return { action: 'reactivate', message: 'Account reactivated; it can sign in again.' };
		} catch (e) {
			return failWith(e, { action: 'reactivate' });
		}
	},
	reset: async ({ locals, request, url }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, userForm, { extra: { action: 'reset' } });
		if (!input.ok) return input.failure;
		try {
			const reset = await issuePasswordReset(getDb(), input.data.userId, actor.id);
			return {
				action: 'reset',
				message: `Password-reset link for ${reset.email}. Send it to them; it works once, expires ${until(reset.expiresAt)}, and using it signs them out everywhere.`,
				link: `${url.origin}/reset/${reset.token}`,
				linkLabel: 'Password-reset link'
			};
		} catch (e) {
			return failWith(e, { action: 'reset' });
		}
	}
};
