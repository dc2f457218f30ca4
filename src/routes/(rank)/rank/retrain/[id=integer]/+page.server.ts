import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { renderMarkdown } from '$lib/markdown';
import { liftHold, retraining } from '$lib/server/domain/quality';
import { failWith } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const r = await retraining(getDb(), Number(params.id), user.id);
	// No retraining stands for this rater in this study (or the study is not theirs): not found.
	if (!r) error(404, 'No retraining is asked of you in this study.');
	return {
		...r,
		missed: r.missed.map((m) => ({ ...m, explanationHtml: renderMarkdown(m.explanation) }))
	};
};

export const actions: Actions = {
	done: async ({ locals, params }) => {
		const user = requireRole(locals, 'physician');
		const db = getDb();
		const r = await retraining(db, Number(params.id), user.id);
		if (!r) error(404, 'No retraining is asked of you in this study.');
		try {
			await liftHold(db, r.holdId, user.id, { by: 'rater' });
		} catch (e) {
			return failWith(e);
		}
		redirect(303, '/rank');
	}
};
