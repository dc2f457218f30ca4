import { error, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { renderMarkdown } from '$lib/markdown';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	DESIGNS,
	evidenceScreen,
	getAssignmentView,
	saveEvidenceStep,
	submitEvidence,
	type EvidenceScreen
} from '$lib/server/domain/studies';
import { DomainError, failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';
import { feedbackPath } from '$lib/server/domain/quality';

/**
 * What the assessor's screen needs of an answer: the question, the answer's sentences with their
 * citations, the cited documents, what was saved and where the lease stands. Nothing names the
 * answer's model, run or candidate: the view's candidates never reach the page.
 */
function screenOf(screen: EvidenceScreen) {
	const { view } = screen;
	const lapsed =
		view.assignment.state === 'expired' ||
		(view.assignment.state === 'leased' &&
			(!view.assignment.leaseExpiresAt || view.assignment.leaseExpiresAt <= new Date()));
	return {
		assignment: { publicId: view.assignment.publicId, state: view.assignment.state },
		study: { id: view.study.id, name: view.study.name },
		question: view.question,
		progress: view.progress,
		mode: screen.mode,
		sentences: screen.sentences,
		documents: screen.documents,
		saved: screen.saved,
		submitted: screen.submitted,
		// A lapsed lease is taken again by the next save while the answer is still free.
		lapsed,
		instructionsHtml: renderMarkdown(view.study.instructions)
	};
}
export type EvidenceScreenData = ReturnType<typeof screenOf>;

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const db = getDb();
	const screen = await evidenceScreen(db, user.id, params.assignment);
	if (!screen) {
		const view = await getAssignmentView(db, params.assignment, user.id);
		if (view && view.study.design !== 'evidence')
			redirect(303, DESIGNS[view.study.design].screenPath(params.assignment));
		error(404, 'No such answer in your queue.');
	}
	return screenOf(screen);
};

const timeSchema = z.coerce.number().int().min(0).max(86_400_000).catch(0);
const saveSchema = z.object({ step: z.string().max(200_000), timeOnTaskMs: timeSchema });
const submitSchema = z.object({ timeOnTaskMs: timeSchema });

function parseStep(json: string): unknown {
	try {
		return JSON.parse(json);
	} catch {
		throw new DomainError('invalid', 'This step is not well formed; reload the answer.');
	}
}

export const actions: Actions = {
	save: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'physician');
		const input = await readForm(request, saveSchema);
		if (!input.ok) return input.failure;
		try {
			const saved = await saveEvidenceStep(
				getDb(),
				user.id,
				params.assignment,
				parseStep(input.data.step),
				{ timeOnTaskMs: input.data.timeOnTaskMs }
			);
			return { saved: true, leased: saved.leased };
		} catch (e) {
			return failWith(e);
		}
	},
	// The screen posts this with fetch after its last save; a plain form post (no script) works
	// alike. Either way a finished answer redirects to the next one, or to the list when none is left.
	submit: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'physician');
		const input = await readForm(request, submitSchema);
		if (!input.ok) return input.failure;
		let done;
		try {
			done = await submitEvidence(getDb(), user.id, params.assignment, {
				next: true,
				timeOnTaskMs: input.data.timeOnTaskMs
			});
		} catch (e) {
			return failWith(e);
		}
		// A qualification round shows the expected answer after each question.
		const feedback = await feedbackPath(getDb(), params.assignment, user.id);
		if (feedback) redirect(303, feedback);
		const next = done.next;
		redirect(
			303,
			next?.status === 'assigned' ? `/rank/evidence/${next.publicId}` : '/rank?finished=1'
		);
	}
};
