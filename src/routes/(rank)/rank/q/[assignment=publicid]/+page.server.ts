import { error, redirect } from '@sveltejs/kit';
import type { AssignmentView, RankingScreen } from '$lib/ranking/view';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { randomId } from '$lib/server/ids';
import { renderMarkdown } from '$lib/markdown';
import {
	DESIGNS,
	getAssignmentView,
	rankingFormSchema,
	submitRankingAndNext
} from '$lib/server/domain/studies';
import type { Actions, PageServerLoad } from './$types';
import { feedbackPath } from '$lib/server/domain/quality';

/** The ranking screen of an assignment's view. */
function screenOf(view: AssignmentView): RankingScreen {
	const expired =
		view.assignment.state === 'expired' ||
		(view.assignment.state === 'leased' &&
			(!view.assignment.leaseExpiresAt || view.assignment.leaseExpiresAt <= new Date()));
	return {
		...view,
		expired,
		instructionsHtml: renderMarkdown(view.study.instructions),
		// A fresh key per showing: a resubmitted form (double click, retry) is stored once.
		idempotencyKey: randomId()
	};
}

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const view = await getAssignmentView(getDb(), params.assignment, user.id);
	if (!view) error(404, 'No such question in your queue.');
	if (view.study.design !== 'ranking')
		redirect(303, DESIGNS[view.study.design].screenPath(params.assignment));
	return screenOf(view);
};

export const actions: Actions = {
	submit: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'physician');
		// `use:enhance` posts with this header; such a post gets the next question in its result
		// (one request per ranking), a plain form post the redirect to it.
		const enhanced = request.headers.get('x-sveltekit-action') === 'true';
		const input = await readForm(request, rankingFormSchema);
		if (!input.ok) return input.failure;
		let next;
		try {
			const submission = { ...input.data, assignmentId: params.assignment };
			next = (await submitRankingAndNext(getDb(), user.id, submission)).next;
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		// A qualification round shows the expected answer after each question.
		const feedback = await feedbackPath(getDb(), params.assignment, user.id);
		if (feedback) redirect(303, feedback);
		if (enhanced && next.status === 'assigned' && next.view) return { next: screenOf(next.view) };
		redirect(303, next.status === 'assigned' ? `/rank/q/${next.publicId}` : '/rank?finished=1');
	}
};
