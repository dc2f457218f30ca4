import { fail } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	feedbackFilterSchema,
	listFeedback,
	resolveFeedback,
	resolveFeedbackSchema
} from '$lib/server/domain/verification/feedback';
import { failFromReviewError, formFields, zodFieldErrors } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const filter = feedbackFilterSchema.parse(Object.fromEntries(url.searchParams));
	return { filter, notes: await listFeedback(getDb(), filter) };
};

export const actions: Actions = {
	resolve: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const values = formFields(await request.formData());
		const parsed = resolveFeedbackSchema.safeParse(values);
		if (!parsed.success) return fail(400, { values, errors: zodFieldErrors(parsed.error) });
		try {
			await resolveFeedback(getDb(), actor.id, parsed.data);
		} catch (e) {
			return failFromReviewError(e, { values });
		}
		return { message: 'Note resolved.' };
	}
};
