import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { randomId } from '$lib/server/ids';
import { renderMarkdown } from '$lib/markdown';
import { getAssignmentView } from '$lib/server/domain/ranking/queue';
import { rankingFormSchema, submitRankingAndNext } from '$lib/server/domain/ranking/rankings';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const view = await getAssignmentView(getDb(), params.assignment, user.id);
	if (!view) error(404, 'No such question in your queue.');
	const expired =
		view.assignment.state === 'expired' ||
		(view.assignment.state === 'leased' &&
			(!view.assignment.leaseExpiresAt || view.assignment.leaseExpiresAt <= new Date()));
	return {
		...view,
		expired,
		instructionsHtml: renderMarkdown(view.study.instructions),
		// A fresh key per page view: a resubmitted form (double click, retry) is stored once.
		idempotencyKey: randomId()
	};
};

export const actions: Actions = {
	submit: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'physician');
		const input = await readForm(request, rankingFormSchema);
		if (!input.ok) return input.failure;
		let next;
		try {
			const submission = { ...input.data, assignmentId: params.assignment };
			next = (await submitRankingAndNext(getDb(), user.id, submission)).next;
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, next.status === 'assigned' ? `/rank/q/${next.publicId}` : '/rank?finished=1');
	}
};
