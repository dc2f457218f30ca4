import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	grantReviewerAttempts,
	importReviewGold,
	listGrants,
	MAX_GRANTED_ATTEMPTS,
	listReviewGold,
	MIN_CHECKS_TO_FLAG,
	retireReviewGold,
	reviewCheckResults,
	reviewerRoundResults,
	reviewerRoundSettings,
	updateReviewerRound
} from '$lib/server/domain/quality';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { goldImportAction, grantForm, MAX_GOLD_SIZE } from '$lib/server/gold-forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const [settings, gold, results, grants, checks] = await Promise.all([
		reviewerRoundSettings(db),
		listReviewGold(db),
		reviewerRoundResults(db),
		listGrants(db, null),
		reviewCheckResults(db)
	]);
	return {
		settings,
		gold: gold.map((g) => ({
			id: g.id,
			type: g.type,
			question: g.question,
			verdict: g.verdict,
			relevance: g.relevance,
			explanation: g.explanation,
			hasPassage: g.hasPassage,
			answers: g.answers
		})),
		results,
		maxGranted: MAX_GRANTED_ATTEMPTS,
		grants,
		checks,
		minChecks: MIN_CHECKS_TO_FLAG,
		maxSizeMb: MAX_GOLD_SIZE / 1024 / 1024
	};
};

const settingsForm = z.object({
	required: z
		.string()
		.optional()
		.transform((v) => v === 'on'),
	passMark: z.coerce
		.number({ message: 'Give the pass mark as a percentage.' })
		.gt(0, 'The pass mark must be above 0 %.')
		.max(100, 'The pass mark is at most 100 %.'),
	questionsPerAttempt: z.coerce
		.number({ message: 'Give the pairs per attempt.' })
		.int('Give a whole number.')
		.min(1, 'At least 1 pair an attempt.')
		.max(100, 'At most 100 pairs an attempt.'),
	maxAttempts: z.coerce
		.number({ message: 'Give the attempts allowed.' })
		.int('Give a whole number.')
		.min(1, 'At least 1 attempt.')
		.max(10, 'At most 10 attempts.'),
	// Empty: no hidden checks.
	checkEvery: z
		.string()
		.trim()
		.transform((v) => (v === '' ? null : Number(v)))
		.pipe(
			z
				.number({ message: 'Give a whole number, or leave it empty for no checks.' })
				.int('Give a whole number, or leave it empty for no checks.')
				.min(2, 'At most one check in every 2 items.')
				.max(1000, 'At least one check in every 1,000 items.')
				.nullable()
		)
});

const retireForm = z.object({ goldId: z.coerce.number().int().positive() });
const grants = grantForm('Choose the reviewer.');

export const actions: Actions = {
	settings: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, settingsForm, {
			extra: { kind: 'settings' as const },
			message: 'The settings were not saved; see the messages beside the fields.'
		});
		if (!input.ok) return input.failure;
		try {
			await updateReviewerRound(
				getDb(),
				{ ...input.data, passMark: input.data.passMark / 100 },
				user.id
			);
			return { kind: 'settings' as const, saved: true };
		} catch (e) {
			return failWith(e, { kind: 'settings' as const, values: input.values });
		}
	},
	/** Adds gold QA pairs from a JSON file or pasted text: all or nothing. */
	import: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		return goldImportAction(request, async (content) => {
			const { imported } = await importReviewGold(getDb(), content, user.id);
			return imported;
		});
	},
	/** Gives one reviewer more attempts than the round allows. */
	grant: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, grants, {
			extra: { kind: 'grant' as const },
			message: 'No attempt was added; see the messages beside the fields.'
		});
		if (!input.ok) return input.failure;
		try {
			const status = await grantReviewerAttempts(getDb(), input.data, user.id);
			return { kind: 'grant' as const, granted: input.data.attempts, left: status.attemptsLeft };
		} catch (e) {
			return failWith(e, { kind: 'grant' as const, values: input.values });
		}
	},
	/** Takes a pair out of the round; its answers and the attempts they scored stay. */
	retire: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, retireForm, { extra: { kind: 'retire' as const } });
		if (!input.ok) return input.failure;
		try {
			await retireReviewGold(getDb(), input.data.goldId, user.id);
			return { kind: 'retire' as const, retired: input.data.goldId };
		} catch (e) {
			return failWith(e, { kind: 'retire' as const });
		}
	}
};
