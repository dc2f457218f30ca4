import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	judgementSchema,
	leasedWork,
	renewWork,
	returnWork,
	reviewerWorkday,
	startWork,
	submitWork
} from '$lib/server/domain/review';
import { TIME_ZONE_COOKIE } from '$lib/review/time-zone';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { itemOnScreen } from './item-view';
import { match as isPublicId } from '../../../../../params/publicid';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url, cookies }) => {
	const user = requireRole(locals, 'reviewer', url);
	const db = getDb();
	const now = new Date();
	const [shown, workday] = await Promise.all([
		leasedWork(db, user.id, params.id),
		reviewerWorkday(db, user.id, cookies.get(TIME_ZONE_COOKIE), now)
	]);
	// The time the item was shown: the submission's time on task is measured from it, and the
	// lease countdown from it on the server's clock (a browser's clock may be wrong).
	return { shown: shown && itemOnScreen(shown), startedAt: now.getTime(), workday };
};

// `taskId` is the public id of the work on screen (a live task's or a hidden check's).
const publicIdSchema = z
	.string()
	.refine((v) => isPublicId(v), 'The form was incomplete; reload the page.');

const submitSchema = judgementSchema.and(z.object({ taskId: publicIdSchema }));

const leaseSchema = z.object({
	taskId: publicIdSchema,
	key: z.string().min(8).max(64)
});

const returnSchema = z.object({
	taskId: publicIdSchema,
	key: z.string().min(8).max(64),
	reason: z.string().trim().max(500).optional()
});

function nextPage(publicId: string | undefined) {
	return publicId ? `/review/task/${publicId}` : '/review?done=1';
}

export const actions: Actions = {
	submit: async ({ locals, request }) => {
		const user = requireRole(locals, 'reviewer');
		const input = await readForm(request, submitSchema);
		if (!input.ok) return input.failure;
		let result;
		try {
			const { taskId, ...judgement } = input.data;
			result = await submitWork(getDb(), user.id, { ...judgement, publicId: taskId });
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		// A page with JavaScript shows the next item from this answer (one request per judgement)
		// and counts the submission itself; without it, the browser follows the redirect to the next
		// item's page, which counts afresh.
		if (result.shown && request.headers.get('x-sveltekit-action') === 'true')
			return {
				next: { shown: itemOnScreen(result.shown), startedAt: Date.now() },
				counted: !result.duplicate
			};
		redirect(303, nextPage(result.next?.publicId));
	},
	renew: async ({ locals, request }) => {
		const user = requireRole(locals, 'reviewer');
		const input = await readForm(request, leaseSchema, {
			message: 'The form was incomplete; reload the page.'
		});
		if (!input.ok) return input.failure;
		let renewed;
		try {
			renewed = await renewWork(getDb(), user.id, {
				publicId: input.data.taskId,
				token: input.data.key
			});
		} catch (e) {
			return failWith(e);
		}
		if (request.headers.get('x-sveltekit-action') === 'true')
			return {
				renewed: { leaseExpiresAt: renewed.leaseExpiresAt.toISOString(), serverNow: Date.now() }
			};
		redirect(303, nextPage(input.data.taskId));
	},
	skip: async ({ locals, request }) => returnAction(locals, request, true),
	release: async ({ locals, request }) => returnAction(locals, request, false)
};

async function returnAction(locals: App.Locals, request: Request, skip: boolean) {
	const user = requireRole(locals, 'reviewer');
	const input = await readForm(request, returnSchema, {
		message: 'The form was incomplete; reload the page.'
	});
	if (!input.ok) return input.failure;
	try {
		const { taskId, key, reason } = input.data;
		await returnWork(getDb(), user.id, { publicId: taskId, token: key, reason, skip });
	} catch (e) {
		return failWith(e);
	}
	if (!skip) redirect(303, '/review');
	let next;
	try {
		next = await startWork(getDb(), user.id);
	} catch (e) {
		return failWith(e);
	}
	redirect(303, nextPage(next.lease?.publicId));
}
