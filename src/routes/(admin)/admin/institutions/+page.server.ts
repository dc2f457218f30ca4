import { error, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole, requireUser } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { createInstitution, listInstitutions } from '$lib/server/domain/institutions';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { INSTITUTION_KINDS } from '$lib/constants';
import type { Actions, PageServerLoad } from './$types';

// Organisers see every institution; a lead is sent to their own (the only one they may manage).
export const load: PageServerLoad = async ({ locals, url }) => {
	const me = requireUser(locals, url);
	if (!me.roles.includes('organiser')) {
		if (me.roles.includes('institution_lead'))
			redirect(303, `/admin/institutions/${me.institutionId}`);
		error(403, 'This page is for organisers and institution leads.');
	}
	return { institutions: await listInstitutions(getDb()), kinds: INSTITUTION_KINDS };
};

const createForm = z.object({ name: z.string().default(''), kind: z.string().default('') });

export const actions: Actions = {
	create: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, createForm);
		if (!input.ok) return input.failure;
		let id: number;
		try {
			id = (await createInstitution(getDb(), input.data, actor)).id;
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/admin/institutions/${id}`);
	}
};
