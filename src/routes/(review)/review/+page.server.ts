import { fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { claimNext, currentLease, queueStats } from '$lib/server/domain/review/queue';
import { reviewHistory } from '$lib/server/domain/review/reviews';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireRole(locals, 'reviewer', url);
	const db = getDb();
	const [stats, lease, history] = await Promise.all([
		queueStats(db, user.id),
		currentLease(db, user.id),
		reviewHistory(db, user.id, 50)
	]);
	return { stats, lease, history };
};

export const actions: Actions = {
	start: async ({ locals }) => {
		const user = requireRole(locals, 'reviewer');
		const lease = await claimNext(getDb(), user.id);
		if (!lease) return fail(409, { message: 'There is nothing left for you to review right now.' });
		redirect(303, `/review/task/${lease.taskId}`);
	}
};
