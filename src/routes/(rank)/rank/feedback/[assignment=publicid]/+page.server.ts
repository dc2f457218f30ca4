import { error } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { renderMarkdown } from '$lib/markdown';
import { assignmentFeedback } from '$lib/server/domain/quality';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const feedback = await assignmentFeedback(getDb(), params.assignment, user.id);
	// Only a submitted question of a qualification round has feedback; anything else (a hidden
	// gold check in live work included) is not found, alike.
	if (!feedback) error(404, 'No feedback for this question.');
	return { ...feedback, explanationHtml: renderMarkdown(feedback.explanation) };
};
