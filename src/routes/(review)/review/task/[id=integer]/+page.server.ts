import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { claimNext, leasedItem, returnTask } from '$lib/server/domain/review/queue';
import { reviewInputSchema, submitAndNext } from '$lib/server/domain/review/reviews';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { itemOnScreen } from './item-view';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'reviewer', url);
	const shown = await leasedItem(getDb(), user.id, Number(params.id));
	// The time the item was shown; the submission's time on task is measured from it.
	return { shown: shown && itemOnScreen(shown), startedAt: Date.now() };
};

const returnSchema = z.object({
	taskId: z.coerce.number().int().positive(),
	key: z.string().min(8).max(64),
	reason: z.string().trim().max(500).optional()
});

function nextPage(taskId: number | undefined) {
	return taskId ? `/review/task/${taskId}` : '/review?done=1';
}

export const actions: Actions = {
	submit: async ({ locals, request }) => {
		const user = requireRole(locals, 'reviewer');
		const input = await readForm(request, reviewInputSchema);
		if (!input.ok) return input.failure;
		let result;
		try {
			result = await submitAndNext(getDb(), user.id, input.data);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		// A page with JavaScript shows the next item from this answer (one request per judgement);
		// without it, the browser follows the redirect to the next item's page.
		if (result.shown && request.headers.get('x-sveltekit-action') === 'true')
			return { next: { shown: itemOnScreen(result.shown), startedAt: Date.now() } };
		redirect(303, nextPage(result.next?.taskId));
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
		await returnTask(getDb(), user.id, { taskId, token: key, reason, skip });
	} catch (e) {
		return failWith(e);
	}
	if (!skip) redirect(303, '/review');
	const next = await claimNext(getDb(), user.id);
	redirect(303, nextPage(next?.taskId));
}
