import { fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	claimWork,
	currentWork,
	mustQualify,
	reviewerWorkday,
	reviewHistory
} from '$lib/server/domain/review';
import { reviewerHold } from '$lib/server/domain/quality';
import { failWith } from '$lib/server/errors';
import { TIME_ZONE_COOKIE } from '$lib/review/time-zone';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, cookies }) => {
	const user = requireRole(locals, 'reviewer', url);
	const db = getDb();
	const [workday, lease, history, qualify, hold] = await Promise.all([
		reviewerWorkday(db, user.id, cookies.get(TIME_ZONE_COOKIE)),
		currentWork(db, user.id),
		reviewHistory(db, user.id, 50),
		mustQualify(db, user.id),
		reviewerHold(db, user.id)
	]);
	return {
		workday,
		lease: lease && { publicId: lease.publicId },
		history,
		qualify,
		hold: hold && { kind: hold.kind, reason: hold.reason }
	};
};

export const actions: Actions = {
	start: async ({ locals }) => {
		const user = requireRole(locals, 'reviewer');
		let lease;
		try {
			lease = await claimWork(getDb(), user.id);
		} catch (e) {
			return failWith(e);
		}
		if (!lease) return fail(409, { message: 'There is nothing left for you to review right now.' });
		redirect(303, `/review/task/${lease.publicId}`);
	}
};
