import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { amendWork, historyEntry, judgementSchema, newFormKey } from '$lib/server/domain/review';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'reviewer', url);
	// Live reviews and hidden checks alike, in one shape: only what the reviewer needs to see the
	// item and their own judgements — no item state, sample membership, outcome or number.
	const entry = await historyEntry(getDb(), user.id, params.id);
	if (!entry) error(404, 'You have no review with this id.');
	// A new idempotency key per page view: a double-clicked amendment is saved once.
	return { ...entry, key: newFormKey(), startedAt: Date.now() };
};

export const actions: Actions = {
	amend: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'reviewer');
		const input = await readForm(request, judgementSchema);
		if (!input.ok) return input.failure;
		try {
			await amendWork(getDb(), user.id, params.id, input.data);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/review/history/${params.id}?amended=1`);
	}
};
