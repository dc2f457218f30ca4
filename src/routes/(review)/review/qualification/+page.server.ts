import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	answerReviewGold,
	reviewerRoundStatus,
	reviewGoldFeedback
} from '$lib/server/domain/quality';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { VERDICTS } from '$lib/constants';
import type { Actions, PageServerLoad } from './$types';

const querySchema = z.object({
	after: z.coerce.number().int().positive().optional().catch(undefined)
});

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireRole(locals, 'reviewer', url);
	const db = getDb();
	const { after } = querySchema.parse(Object.fromEntries(url.searchParams));
	const [status, feedback] = await Promise.all([
		reviewerRoundStatus(db, user.id),
		after ? reviewGoldFeedback(db, user.id, after) : null
	]);
	// The time the pair was shown, on the server's clock: the answer's time on task runs from it.
	return { status, feedback, startedAt: Date.now() };
};

const answerForm = z.object({
	goldId: z.coerce.number().int().positive(),
	verdict: z.enum(VERDICTS, { message: 'Choose a verdict.' }),
	relevance: z.coerce
		.number({ message: 'Choose a relevance from 1 to 5.' })
		.int('Choose a relevance from 1 to 5.')
		.min(1, 'Choose a relevance from 1 to 5.')
		.max(5, 'Choose a relevance from 1 to 5.'),
	startedAt: z.coerce.number().int().nonnegative().optional()
});

export const actions: Actions = {
	answer: async ({ locals, request }) => {
		const user = requireRole(locals, 'reviewer');
		const input = await readForm(request, answerForm);
		if (!input.ok) return input.failure;
		const { goldId, verdict, relevance, startedAt } = input.data;
		const now = new Date();
		const spent = startedAt !== undefined ? now.getTime() - startedAt : null;
		try {
			await answerReviewGold(
				getDb(),
				user.id,
				{
					goldId,
					verdict,
					relevance,
					timeOnTaskMs: spent !== null && spent >= 0 && spent <= 86_400_000 ? spent : null
				},
				now
			);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/review/qualification?after=${goldId}`);
	}
};
