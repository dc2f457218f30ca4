import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	grantReviewerAttempts,
	importReviewGold,
	listReviewerGrants,
	listReviewGold,
	MIN_CHECKS_TO_FLAG,
	retireReviewGold,
	reviewCheckResults,
	reviewerRoundResults,
	reviewerRoundSettings,
	updateReviewerRound
} from '$lib/server/domain/quality';
import { DomainError, failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

/** Largest gold file (bytes) or pasted text (characters). */
const MAX_GOLD_SIZE = 8 * 1024 * 1024;

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const [settings, gold, results, grants, checks] = await Promise.all([
		reviewerRoundSettings(db),
		listReviewGold(db),
		reviewerRoundResults(db),
		listReviewerGrants(db),
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

const importForm = z.object({ file: field.file(), text: z.string().default('') });
const retireForm = z.object({ goldId: z.coerce.number().int().positive() });
const grantForm = z.object({
	raterId: z.string().min(1, 'Choose the reviewer.').max(100),
	attempts: z.coerce
		.number({ message: 'Give the number of attempts to add.' })
		.int('Give a whole number of attempts.')
		.min(1, 'Add at least one attempt.')
		.max(10, 'Add at most 10 attempts at once.'),
	reason: z.string().trim().min(1, 'Say why, for the record.').max(2000)
});

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
		const input = await readForm(request, importForm, { extra: { kind: 'import' as const } });
		if (!input.ok) return input.failure;
		const { file, text } = input.data;
		const extra = { kind: 'import' as const, text: text.length <= 200_000 ? text : '' };
		try {
			if ((file?.size ?? 0) > MAX_GOLD_SIZE || text.length > MAX_GOLD_SIZE)
				throw new DomainError(
					'invalid',
					`The gold file is larger than ${MAX_GOLD_SIZE / 1024 / 1024} MB, the most one may be.`
				);
			const chosen = file !== undefined && file.size > 0;
			if (chosen && text.trim() !== '')
				throw new DomainError('invalid', 'Choose a gold file or paste its JSON, not both.');
			const content = chosen ? await file.text() : text;
			if (content.trim() === '')
				throw new DomainError('invalid', 'Choose a gold file or paste its JSON.');
			const { imported } = await importReviewGold(getDb(), content, user.id);
			return { kind: 'import' as const, imported };
		} catch (e) {
			return failWith(e, extra);
		}
	},
	/** Gives one reviewer more attempts than the round allows. */
	grant: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, grantForm, {
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
