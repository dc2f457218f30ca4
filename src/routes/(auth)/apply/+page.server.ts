import { z } from 'zod';
import {
	openIdentity,
	sealedInstitution,
	SSO_IDENTITY_COOKIE,
	type SignedIdentity
} from '$lib/server/auth/oidc';
import { getDb } from '$lib/server/db';
import { listInstitutions, ssoConfig, submitApplication } from '$lib/server/domain/institutions';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { APPLICABLE_ROLES } from '$lib/constants';
import type { Cookies } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';

/** The identity a sign-in at an institution's provider left for this form, when still valid. */
async function carriedIdentity(cookies: Cookies): Promise<SignedIdentity | null> {
	const value = cookies.get(SSO_IDENTITY_COOKIE);
	const institutionId = sealedInstitution(value);
	if (!institutionId) return null;
	const config = await ssoConfig(getDb(), institutionId);
	return config ? openIdentity(value, config.clientSecret) : null;
}

export const load: PageServerLoad = async ({ cookies, locals }) => {
	const identity = await carriedIdentity(cookies);
	const institutions = (await listInstitutions(getDb())).map((i) => ({ id: i.id, name: i.name }));
	return {
		institutions,
		roles: APPLICABLE_ROLES,
		signedIn: Boolean(locals.user),
		identity: identity && {
			institutionId: identity.institutionId,
			institution: institutions.find((i) => i.id === identity.institutionId)?.name ?? '',
			email: identity.email,
			name: identity.name
		}
	};
};

// As posted; the domain validates the values (applicationSchema).
const applyForm = z.object({
	displayName: z.string().default(''),
	email: z.string().default(''),
	institutionId: z.string().default(''),
	role: z.string().default(''),
	specialty: z.string().optional(),
	yearsOfPractice: z.string().optional(),
	yearOfStudy: z.string().optional()
});

export const actions: Actions = {
	default: async ({ request, cookies }) => {
		const input = await readForm(request, applyForm);
		if (!input.ok) return input.failure;
		const identity = await carriedIdentity(cookies);
		// With a signed identity, the institution and the address are the provider's, not the form's.
		const data = identity
			? { ...input.data, email: identity.email, institutionId: identity.institutionId }
			: input.data;
		try {
			const created = await submitApplication(
				getDb(),
				data,
				identity && { issuer: identity.issuer, subject: identity.subject }
			);
			cookies.delete(SSO_IDENTITY_COOKIE, { path: '/' });
			return { submitted: true, sso: Boolean(identity), email: created.email };
		} catch (e) {
			return failWith(e, { values: input.values });
		}
	}
};
