import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	feedbackFilterSchema,
	listFeedback,
	resolveFeedback,
	resolveFeedbackSchema
} from '$lib/server/domain/verification/feedback';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const filter = feedbackFilterSchema.parse(Object.fromEntries(url.searchParams));
	return { filter, notes: await listFeedback(getDb(), filter) };
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
