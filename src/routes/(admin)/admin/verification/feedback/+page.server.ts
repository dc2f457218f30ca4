import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	listFeedback,
	resolveFeedback,
	resolveFeedbackSchema
} from '$lib/server/domain/verification';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return listFeedback(getDb(), Object.fromEntries(url.searchParams));
};

export const actions: Actions = {
	resolve: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, resolveFeedbackSchema);
		if (!input.ok) return input.failure;
		try {
			await resolveFeedback(getDb(), actor.id, input.data);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		return { message: 'Note resolved.' };
	}
};
