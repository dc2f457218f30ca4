import { error, fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	amendReview,
	judgementSchema,
	newFormKey,
	reviewWithRevisions
} from '$lib/server/domain/review/reviews';
import { itemForDisplay } from '$lib/server/domain/items/display';
import { failFromReviewError, formFields, zodFieldErrors } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'reviewer', url);
	const db = getDb();
	const found = await reviewWithRevisions(db, user.id, Number(params.id));
	if (!found) error(404, 'You have no review with this number.');
	const shown = await itemForDisplay(db, found.latest.itemId);
	if (!shown) error(404, 'The item no longer exists.');
	// A new idempotency key per page view: a double-clicked amendment is saved once.
	return { ...found, ...shown, key: newFormKey(), startedAt: Date.now() };
};

export const actions: Actions = {
	amend: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'reviewer');
		const values = formFields(await request.formData());
		const parsed = judgementSchema.safeParse(values);
		if (!parsed.success) return fail(400, { values, errors: zodFieldErrors(parsed.error) });
		let saved;
		try {
			saved = (await amendReview(getDb(), user.id, Number(params.id), parsed.data)).review;
		} catch (e) {
			return failFromReviewError(e, { values });
		}
		redirect(303, `/review/history/${saved.id}?amended=1`);
	}
};
