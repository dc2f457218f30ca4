import { fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { claimNext, currentLease, reviewerWorkday, reviewHistory } from '$lib/server/domain/review';
import { TIME_ZONE_COOKIE } from '$lib/review/time-zone';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, cookies }) => {
	const user = requireRole(locals, 'reviewer', url);
	const db = getDb();
	const [workday, lease, history] = await Promise.all([
		reviewerWorkday(db, user.id, cookies.get(TIME_ZONE_COOKIE)),
		currentLease(db, user.id),
		reviewHistory(db, user.id, 50)
	]);
	return { workday, lease, history };
};

export const actions: Actions = {
	start: async ({ locals }) => {
		const user = requireRole(locals, 'reviewer');
		const lease = await claimNext(getDb(), user.id);
		if (!lease) return fail(409, { message: 'There is nothing left for you to review right now.' });
		redirect(303, `/review/task/${lease.taskId}`);
	}
};
