import { error, redirect } from '@sveltejs/kit';
import type { AssignmentView } from '$lib/ranking/view';
import { renderMarkdown } from '$lib/markdown';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	DESIGNS,
	getAssignmentView,
	MAX_REASON,
	pairwiseForm,
	preferenceFormSchema,
	submitPreference,
	type PairwiseForm
} from '$lib/server/domain/studies';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { randomId } from '$lib/server/ids';
import type { Actions, PageServerLoad } from './$types';
import { feedbackPath } from '$lib/server/domain/quality';

/**
 * The preference screen of an assignment: the question and its two answers' texts in the order
 * they were placed (left first), the aspects asked about and a key. Nothing else of the answers
 * reaches the page: no ids, no labels of the view, so both sides render alike.
 */
function screenOf(view: AssignmentView, form: PairwiseForm) {
	const expired =
		view.assignment.state === 'expired' ||
		(view.assignment.state === 'leased' &&
			(!view.assignment.leaseExpiresAt || view.assignment.leaseExpiresAt <= new Date()));
	return {
		assignment: { publicId: view.assignment.publicId, state: view.assignment.state },
		study: { id: view.study.id, name: view.study.name },
		question: view.question,
		progress: view.progress,
		answers: view.candidates.map((c) => c.text) as [string, string],
		expired,
		instructionsHtml: renderMarkdown(view.study.instructions),
		aspects: form.aspects,
		maxReason: MAX_REASON,
		// A fresh key per showing: a resubmitted form (double click, retry) is stored once.
		idempotencyKey: randomId()
	};
}
export type PreferenceScreen = ReturnType<typeof screenOf>;

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const db = getDb();
	const view = await getAssignmentView(db, params.assignment, user.id);
	if (!view) error(404, 'No such pair in your queue.');
	if (view.study.design !== 'pairwise')
		redirect(303, DESIGNS[view.study.design].screenPath(params.assignment));
	const form = await pairwiseForm(db, view.study.id);
	if (!form || view.candidates.length !== 2) error(404, 'This study shows no pair here.');
	return screenOf(view, form);
};

export const actions: Actions = {
	submit: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'physician');
		// `use:enhance` posts with this header; such a post gets the next pair in its result (one
		// request per preference), a plain form post the redirect to it.
		const enhanced = request.headers.get('x-sveltekit-action') === 'true';
		const input = await readForm(request, preferenceFormSchema);
		if (!input.ok) return input.failure;
		const db = getDb();
		const view = await getAssignmentView(db, params.assignment, user.id);
		if (!view) error(404, 'No such pair in your queue.');
		let stored;
		try {
			stored = await submitPreference(
				db,
				user.id,
				view.study.id,
				{ ...input.data, assignmentId: params.assignment },
				{ next: true }
			);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		// A qualification round shows the expected answer after each question.
		const feedback = await feedbackPath(getDb(), params.assignment, user.id);
		if (feedback) redirect(303, feedback);
		const next = stored.next!;
		if (enhanced && next.status === 'assigned' && next.view?.candidates.length === 2) {
			const form = await pairwiseForm(db, next.view.study.id);
			if (form) return { next: screenOf(next.view, form) };
		}
		redirect(
			303,
			next.status === 'assigned' ? `/rank/pairwise/${next.publicId}` : '/rank?finished=1'
		);
	}
};
