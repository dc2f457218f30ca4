import { error, fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	adjudicate,
	adjudicationCase,
	adjudicationSchema
} from '$lib/server/domain/verification/adjudication';
import { failFromReviewError, formFields, zodFieldErrors } from '$lib/server/forms';
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
		const values: Record<string, string> = {
			...formFields(await request.formData()),
			itemId: params.id
		};
		const parsed = adjudicationSchema.safeParse(values);
		if (!parsed.success) return fail(400, { values, errors: zodFieldErrors(parsed.error) });
		try {
			await adjudicate(getDb(), actor.id, parsed.data);
		} catch (e) {
			return failFromReviewError(e, { values });
		}
		redirect(303, '/admin/verification/adjudication');
	}
};
