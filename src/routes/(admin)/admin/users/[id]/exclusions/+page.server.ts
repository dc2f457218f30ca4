import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	dayRange,
	excludeJudgements,
	listExclusions,
	raterOf,
	raterStudies,
	revokeExclusion
} from '$lib/server/domain/exclusions';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const rater = await raterOf(db, params.id);
	if (!rater) error(404, 'There is no such person.');
	const [studies, exclusions] = await Promise.all([
		raterStudies(db, rater.id),
		listExclusions(db, { raterId: rater.id })
	]);
	return { rater, studies, exclusions };
};

const day = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}$/, 'Give a date as YYYY-MM-DD.')
	.refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Give a real date.');
const excludeForm = z
	.object({
		scope: z.string().regex(/^(all|\d+)$/, 'Choose every study or one study.'),
		firstDay: z.preprocess((v) => (v === '' ? undefined : v), day.optional()),
		lastDay: z.preprocess((v) => (v === '' ? undefined : v), day.optional()),
		reason: z.string().trim().min(1, 'Say why the judgements are excluded.').max(2000)
	})
	.refine((v) => !v.firstDay || !v.lastDay || v.firstDay <= v.lastDay, {
		message: 'The last day cannot come before the first.',
		path: ['lastDay']
	});
const revokeForm = z.object({
	exclusionId: z.coerce.number().int().positive(),
	reason: field.optionalText(2000)
});

export const actions: Actions = {
	exclude: async ({ locals, params, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, excludeForm, { extra: { action: 'exclude' } });
		if (!input.ok) return input.failure;
		const { scope, firstDay, lastDay, reason } = input.data;
		try {
			const { exclusion, questionsChanged, reviewTasksChanged } = await excludeJudgements(
				getDb(),
				{
					raterId: params.id,
					studyId: scope === 'all' ? null : Number(scope),
					...dayRange(firstDay, lastDay),
					reason
				},
				actor.id
			);
			const reopened = questionsChanged
				? ` ${questionsChanged} question${questionsChanged === 1 ? '' : 's'} reopened for other raters.`
				: '';
			const requeued = reviewTasksChanged
				? ` ${reviewTasksChanged} QA review${reviewTasksChanged === 1 ? '' : 's'} set aside; the item${reviewTasksChanged === 1 ? ' is' : 's are'} back in the review queue.`
				: '';
			return {
				action: 'exclude',
				message: `Exclusion ${exclusion.id} made: the judgements leave every statistic, leaderboard and export.${reopened}${requeued}`
			};
		} catch (e) {
			return failWith(e, { action: 'exclude', values: input.values });
		}
	},
	revoke: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, revokeForm, { extra: { action: 'revoke' } });
		if (!input.ok) return input.failure;
		try {
			const { exclusion, reviewTasksChanged } = await revokeExclusion(
				getDb(),
				input.data.exclusionId,
				actor.id,
				{ reason: input.data.reason }
			);
			const restored = reviewTasksChanged
				? ` ${reviewTasksChanged} QA review${reviewTasksChanged === 1 ? '' : 's'} taken back from the queue.`
				: '';
			return {
				action: 'revoke',
				message: `Exclusion ${exclusion.id} revoked: its judgements count again.${restored}`
			};
		} catch (e) {
			return failWith(e, { action: 'revoke' });
		}
	}
};
