import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireInstitutionAccess } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	approveApplication,
	deactivateMember,
	declineApplication,
	getInstitution,
	institutionMembers,
	inviteMember,
	listApplications,
	reactivateMember,
	saveSsoSettings,
	updateInstitution,
	type Actor
} from '$lib/server/domain/institutions';
import type { LeasedWork } from '$lib/server/domain/people';
import { returnLeasedTasks } from '$lib/server/domain/review';
import { releasePhysicianLeases } from '$lib/server/domain/studies';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import { APPLICABLE_ROLES, INSTITUTION_KINDS, ROLES } from '$lib/constants';
import type { Actions, PageServerLoad, RequestEvent } from './$types';

// What a deactivation gives back, in its transaction (as on the people page).
const leasedWork: LeasedWork = {
	reviewTasks: returnLeasedTasks,
	rankingLeases: releasePhysicianLeases
};

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const id = Number(params.id);
	const me = requireInstitutionAccess(locals, id, url);
	const db = getDb();
	const institution = await getInstitution(db, id);
	if (!institution) error(404, 'No such institution.');
	const [members, applications] = await Promise.all([
		institutionMembers(db, id),
		listApplications(db, id)
	]);
	const organiser = me.roles.includes('organiser');
	return {
		institution,
		members,
		applications,
		organiser,
		me: me.id,
		kinds: INSTITUTION_KINDS,
		inviteRoles: organiser ? ROLES : APPLICABLE_ROLES,
		redirectUri: `${url.origin}/login/sso/callback`
	};
};

/** The signed-in organiser or this institution's lead, as the domain's actor. */
function actorOf({ locals, params }: Pick<RequestEvent, 'locals' | 'params'>): Actor & {
	institution: number;
} {
	const institution = Number(params.id);
	const user = requireInstitutionAccess(locals, institution);
	return { id: user.id, roles: user.roles, institutionId: user.institutionId, institution };
}

const until = (d: Date) => d.toUTCString().replace('GMT', 'UTC');

const detailsForm = z.object({ name: z.string().default(''), kind: z.string().default('') });
const ssoForm = z.object({
	issuer: z.string().default(''),
	clientId: z.string().default(''),
	clientSecret: z.string().optional(),
	domains: z.string().default('')
});
const inviteForm = z.object({
	email: z.string().default(''),
	displayName: z.string().default(''),
	roles: field.list(z.string()),
	validHours: z.string().default('72')
});
const userForm = z.object({ userId: z.string().min(1, 'Choose an account.') });
const applicationForm = z.object({ applicationId: z.coerce.number().int().positive() });
const declineForm = applicationForm.extend({ note: z.string().default('') });

export const actions: Actions = {
	details: async (event) => {
		const actor = actorOf(event);
		const input = await readForm(event.request, detailsForm, { extra: { action: 'details' } });
		if (!input.ok) return input.failure;
		try {
			await updateInstitution(getDb(), actor.institution, input.data, actor);
			return { action: 'details', message: 'Institution saved.' };
		} catch (e) {
			return failWith(e, { action: 'details', values: input.values });
		}
	},
	sso: async (event) => {
		const actor = actorOf(event);
		const input = await readForm(event.request, ssoForm, { extra: { action: 'sso' } });
		if (!input.ok) return input.failure;
		try {
			await saveSsoSettings(getDb(), actor.institution, input.data, actor);
			return {
				action: 'sso',
				message: input.data.issuer.trim()
					? 'Single sign-on settings saved.'
					: 'Single sign-on turned off for this institution.'
			};
		} catch (e) {
			return failWith(e, { action: 'sso', values: input.values });
		}
	},
	invite: async (event) => {
		const actor = actorOf(event);
		const input = await readForm(event.request, inviteForm, { extra: { action: 'invite' } });
		if (!input.ok) return input.failure;
		try {
			const { token, expiresAt } = await inviteMember(
				getDb(),
				actor,
				actor.institution,
				input.data
			);
			return {
				action: 'invite',
				message: `Invitation for ${input.data.email.trim().toLowerCase()} created. Send this link; it works once and expires ${until(expiresAt)}.`,
				link: `${event.url.origin}/invite/${token}`,
				linkLabel: 'Invitation link'
			};
		} catch (e) {
			return failWith(e, { action: 'invite', values: input.values });
		}
	},
	approve: async (event) => {
		const actor = actorOf(event);
		const input = await readForm(event.request, applicationForm, { extra: { action: 'approve' } });
		if (!input.ok) return input.failure;
		try {
			const done = await approveApplication(getDb(), actor, input.data.applicationId);
			return {
				action: 'approve',
				message: `Application of ${done.email} approved. Send them this invitation link; it works once and expires ${until(done.expiresAt)}.${done.sso ? ' They applied through single sign-on, so signing in with the institution again also finishes their account.' : ''}`,
				link: `${event.url.origin}/invite/${done.token}`,
				linkLabel: 'Invitation link'
			};
		} catch (e) {
			return failWith(e, { action: 'approve' });
		}
	},
	decline: async (event) => {
		const actor = actorOf(event);
		const input = await readForm(event.request, declineForm, { extra: { action: 'decline' } });
		if (!input.ok) return input.failure;
		try {
			const done = await declineApplication(
				getDb(),
				actor,
				input.data.applicationId,
				input.data.note
			);
			return { action: 'decline', message: `Application of ${done.email} declined.` };
		} catch (e) {
			return failWith(e, { action: 'decline', values: input.values });
		}
	},
	deactivate: async (event) => {
		const actor = actorOf(event);
		const input = await readForm(event.request, userForm, { extra: { action: 'deactivate' } });
		if (!input.ok) return input.failure;
		try {
			const done = await deactivateMember(getDb(), actor, input.data.userId, leasedWork);
			const work = done.reviewTasksReturned.length + done.assignmentsReleased.length;
			return {
				action: 'deactivate',
				message: `Account deactivated: ${done.sessionsEnded} session${done.sessionsEnded === 1 ? '' : 's'} ended, ${work} leased task${work === 1 ? '' : 's'} returned to the queue.`
			};
		} catch (e) {
			return failWith(e, { action: 'deactivate' });
		}
	},
	reactivate: async (event) => {
		const actor = actorOf(event);
		const input = await readForm(event.request, userForm, { extra: { action: 'reactivate' } });
		if (!input.ok) return input.failure;
		try {
			await reactivateMember(getDb(), actor, input.data.userId);
			return { action: 'reactivate', message: 'Account reactivated; it can sign in again.' };
		} catch (e) {
			return failWith(e, { action: 'reactivate' });
		}
	}
};
