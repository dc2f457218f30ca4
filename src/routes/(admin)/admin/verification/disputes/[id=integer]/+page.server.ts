import { error, fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	commentOnDispute,
	commentSchema,
	getDispute,
	transitionDispute,
	transitionSchema
} from '$lib/server/domain/verification/disputes';
import { failFromReviewError, formFields, zodFieldErrors } from '$lib/server/forms';
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
		const values = formFields(await request.formData());
		const parsed = commentSchema.safeParse(values);
		if (!parsed.success) return fail(400, { values, errors: zodFieldErrors(parsed.error) });
		try {
			await commentOnDispute(getDb(), actor.id, Number(params.id), parsed.data.body);
		} catch (e) {
			return failFromReviewError(e, { values });
		}
		redirect(303, `/admin/verification/disputes/${params.id}`);
	},
	transition: async ({ locals, params, request }) => {
		const actor = requireRole(locals, 'organiser');
		const values = formFields(await request.formData());
		const parsed = transitionSchema.safeParse(values);
		if (!parsed.success) return fail(400, { values, errors: zodFieldErrors(parsed.error) });
		try {
			await transitionDispute(getDb(), actor.id, Number(params.id), parsed.data);
		} catch (e) {
			return failFromReviewError(e, { values });
		}
		redirect(303, `/admin/verification/disputes/${params.id}`);
	}
};
