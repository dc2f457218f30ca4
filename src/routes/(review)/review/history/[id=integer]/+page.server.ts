import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	amendReview,
	judgementSchema,
	newFormKey,
	reviewWithRevisions
} from '$lib/server/domain/review';
import { itemForDisplay } from '$lib/server/domain/items';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'reviewer', url);
	const db = getDb();
	const found = await reviewWithRevisions(db, user.id, Number(params.id));
	if (!found) error(404, 'You have no review with this number.');
	const shown = await itemForDisplay(db, found.latest.itemId);
	if (!shown) error(404, 'The item no longer exists.');
	// Only what the reviewer needs to see the item: its workflow state, sample membership and
	// final outcome would tell a reviewer which items are double-checked and how others judged.
	const item = { id: shown.item.id, type: shown.item.type, paragraphId: shown.item.paragraphId };
	// A new idempotency key per page view: a double-clicked amendment is saved once.
	return { ...found, ...shown, item, key: newFormKey(), startedAt: Date.now() };
};

export const actions: Actions = {
	amend: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'reviewer');
		const input = await readForm(request, judgementSchema);
		if (!input.ok) return input.failure;
		let saved;
		try {
			saved = (await amendReview(getDb(), user.id, Number(params.id), input.data)).review;
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/review/history/${saved.id}?amended=1`);
	}
};
