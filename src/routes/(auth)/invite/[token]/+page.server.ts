import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { createSession } from '$lib/server/auth/session';
import { getDb } from '$lib/server/db';
import { getInstitution } from '$lib/server/domain/institutions';
import {
	acceptInvitation,
	findInvitation,
	type InvitationLinkState,
	invitationLinkState,
	passwordSchema
} from '$lib/server/domain/people';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { setSessionCookie } from '$lib/server/hooks/auth';
import type { Actions, PageServerLoad } from './$types';

/** Why a link does not work, told to whoever opens it (they hold the link, so nothing leaks). */
const CLOSED: Record<Exclude<InvitationLinkState, 'open'>, { title: string; message: string }> = {
	revoked: {
		title: 'Invitation revoked',
		message:
			'This invitation was revoked by an organiser, so the link no longer works. Ask them for a new one if you still need an account.'
	},
	used: {
		title: 'Invitation already used',
		message: 'This invitation was already used. Sign in with the account it created.'
	},
	expired: {
		title: 'Invitation expired',
		message: 'This invitation link has expired. Ask an organiser to send you a new one.'
	},
	unknown: {
		title: 'Invitation link not valid',
		message:
			'This invitation link is not valid (a newer link may have replaced it). Ask an organiser for a new one.'
	}
};

export const load: PageServerLoad = async ({ params }) => {
	const db = getDb();
	const invitation = await findInvitation(db, params.token);
	if (!invitation) {
		const state = await invitationLinkState(db, params.token);
		return { closed: CLOSED[state === 'open' ? 'unknown' : state] };
	}
	const institution = await getInstitution(db, invitation.institutionId);
	return {
		closed: null,
		email: invitation.email,
		displayName: invitation.displayName,
		roles: invitation.roles,
		// The invitation's institution signs its people in itself: accepting with it links the account.
		sso:
			institution?.ssoIssuer && institution.secretSet
				? {
						name: institution.name,
						href: `/login/sso/${institution.id}?invitation=${encodeURIComponent(params.token)}`
					}
				: null
	};
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
