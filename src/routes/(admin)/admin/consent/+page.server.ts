import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { WITHDRAWAL_POLICIES } from '$lib/constants';
import {
	consentHistory,
	consentStudyChoices,
	MAX_CONSENT_BODY,
	newestConsent,
	publishConsent
} from '$lib/server/domain/consent';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const [scopes, studies, portal] = await Promise.all([
		consentHistory(db),
		consentStudyChoices(db),
		newestConsent(db, null)
	]);
	return {
		scopes,
		studies,
		// The form starts from the portal's newest text: a new version is usually an edit of it.
		draft: portal
			? { title: portal.title, body: portal.body, withdrawnJudgements: portal.withdrawnJudgements }
			: null,
		published: url.searchParams.get('published'),
		maxBody: MAX_CONSENT_BODY
	};
};

const publishSchema = z.object({
	scope: z.union([z.literal('portal'), z.coerce.number().int().positive()], {
		message: 'Choose whose text this is.'
	}),
	title: z.string().default(''),
	body: z.string().default(''),
	withdrawnJudgements: z.enum(WITHDRAWAL_POLICIES, {
		message: 'Choose what happens to a withdrawing rater’s judgements.'
	})
});

export const actions: Actions = {
	publish: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, publishSchema);
		if (!input.ok) return input.failure;
		const { scope, ...text } = input.data;
		let version: number;
		try {
			({ version } = await publishConsent(
				getDb(),
				{ ...text, studyId: scope === 'portal' ? null : scope },
				actor.id
			));
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/admin/consent?published=${scope}-${version}`);
	}
};
