import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { liftHold, reviewRetraining } from '$lib/server/domain/quality';
import { failWith } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireRole(locals, 'reviewer', url);
	const r = await reviewRetraining(getDb(), user.id);
	if (!r) error(404, 'No retraining is asked of you.');
	return { reason: r.reason, missed: r.missed, checks: r.checks };
};

export const actions: Actions = {
	done: async ({ locals }) => {
		const user = requireRole(locals, 'reviewer');
		const db = getDb();
		const r = await reviewRetraining(db, user.id);
		if (!r) error(404, 'No retraining is asked of you.');
		try {
			await liftHold(db, r.holdId, user.id, { by: 'rater' });
		} catch (e) {
			return failWith(e);
		}
		redirect(303, '/review');
	}
};
