import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { adjudicate, adjudicationCase, adjudicationSchema } from '$lib/server/domain/verification';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'adjudicator', url);
	const reveal = url.searchParams.get('names') === 'show';
	const found = await adjudicationCase(getDb(), Number(params.id), reveal);
	if (!found) error(404, `There is no item ${params.id}.`);
	return { ...found, reveal };
};

export const actions: Actions = {
	decide: async ({ locals, params, request }) => {
		const actor = requireRole(locals, 'adjudicator');
		const input = await readForm(request, adjudicationSchema, { fields: { itemId: params.id } });
		if (!input.ok) return input.failure;
		try {
			await adjudicate(getDb(), actor.id, input.data);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, '/admin/verification/adjudication');
	}
};
