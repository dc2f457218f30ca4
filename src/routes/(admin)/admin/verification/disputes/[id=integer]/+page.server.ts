import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	commentOnDispute,
	commentSchema,
	getDispute,
	transitionDispute,
	transitionSchema
} from '$lib/server/domain/verification';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const found = await getDispute(getDb(), Number(params.id));
	if (!found) error(404, `There is no dispute ${params.id}.`);
	return found;
};

export const actions: Actions = {
	comment: async ({ locals, params, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, commentSchema);
		if (!input.ok) return input.failure;
		try {
			await commentOnDispute(getDb(), actor.id, Number(params.id), input.data.body);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/admin/verification/disputes/${params.id}`);
	},
	transition: async ({ locals, params, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, transitionSchema);
		if (!input.ok) return input.failure;
		try {
			await transitionDispute(getDb(), actor.id, Number(params.id), input.data);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/admin/verification/disputes/${params.id}`);
	}
};
