import { error, redirect } from '@sveltejs/kit';
import type { AssignmentView } from '$lib/ranking/view';
import { renderMarkdown } from '$lib/markdown';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	DESIGNS,
	frozenRubric,
	getAssignmentView,
	scoreFormSchema,
	submitScores,
	type FrozenRubric
} from '$lib/server/domain/studies';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { randomId } from '$lib/server/ids';
import type { Actions, PageServerLoad } from './$types';
import { feedbackPath } from '$lib/server/domain/quality';

/** The scoring screen of an assignment: its blinded view, the study's frozen rubric and a key. */
function screenOf(view: AssignmentView, rubric: FrozenRubric) {
	const expired =
		view.assignment.state === 'expired' ||
		(view.assignment.state === 'leased' &&
			(!view.assignment.leaseExpiresAt || view.assignment.leaseExpiresAt <= new Date()));
	return {
		...view,
		expired,
		instructionsHtml: renderMarkdown(view.study.instructions),
		rubric: rubric.definition,
		// A fresh key per showing: a resubmitted form (double click, retry) is stored once.
		idempotencyKey: randomId()
	};
}
export type ScoringScreen = ReturnType<typeof screenOf>;

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const db = getDb();
	const view = await getAssignmentView(db, params.assignment, user.id);
	if (!view) error(404, 'No such question in your queue.');
	if (view.study.design !== 'rubric')
		redirect(303, DESIGNS[view.study.design].screenPath(params.assignment));
	const rubric = await frozenRubric(db, view.study.id);
	if (!rubric) error(404, 'This study has no rubric.');
	return screenOf(view, rubric);
};

export const actions: Actions = {
	submit: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'physician');
		// `use:enhance` posts with this header; such a post gets the next question in its result
		// (one request per score sheet), a plain form post the redirect to it.
		const enhanced = request.headers.get('x-sveltekit-action') === 'true';
		const input = await readForm(request, scoreFormSchema);
		if (!input.ok) return input.failure;
		const db = getDb();
		const view = await getAssignmentView(db, params.assignment, user.id);
		if (!view) error(404, 'No such question in your queue.');
		let stored;
		try {
			stored = await submitScores(
				db,
				user.id,
				view.study.id,
				view.candidates.map((c) => c.id),
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
		if (enhanced && next.status === 'assigned' && next.view) {
			const rubric = await frozenRubric(db, next.view.study.id);
			if (rubric) return { next: screenOf(next.view, rubric) };
		}
		redirect(
			303,
			next.status === 'assigned' ? `/rank/rubric/${next.publicId}` : '/rank?finished=1'
		);
	}
};
