import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireUser } from '$lib/server/auth/guards';
import { safeRedirect } from '$lib/server/auth/redirect';
import { getDb } from '$lib/server/db';
import { acceptConsent, lastAcceptedVersion, pendingConsents } from '$lib/server/domain/consent';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { renderMarkdown } from '$lib/markdown';
import type { Actions, PageServerLoad } from './$types';

/** The study whose own text is asked too (`?study=`), when the link names one. */
function studyOf(url: URL): number | null {
	const value = Number(url.searchParams.get('study'));
	return Number.isSafeInteger(value) && value > 0 ? value : null;
}

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireUser(locals, url);
	const studyId = studyOf(url);
	const back = safeRedirect(url.searchParams.get('redirectTo') ?? '/', url.origin);
	const db = getDb();
	const [text] = await pendingConsents(db, user.id, studyId);
	// Nothing (left) to accept: on to the work.
	if (!text) redirect(303, back);
	const accepted = await lastAcceptedVersion(db, user.id, text.studyId);
	return {
		text: {
			id: text.id,
			version: text.version,
			title: text.title,
			studyText: text.studyId !== null,
			publishedAt: text.publishedAt,
			bodyHtml: renderMarkdown(text.body),
			withdrawnJudgements: text.withdrawnJudgements
		},
		studyId: text.studyId,
		acceptedBefore: accepted,
		/** Carried by the form: where to go once nothing is left to accept. */
		back,
		askedStudy: studyId
	};
};

const acceptSchema = z.object({
	consentTextId: z.coerce.number().int().positive(),
	redirectTo: z.string().default('/'),
	study: z.string().default(''),
	agree: z.literal('yes', { message: 'Tick the box to say you agree.' })
});

export const actions: Actions = {
	accept: async ({ locals, request, url }) => {
		const user = requireUser(locals, url);
		const input = await readForm(request, acceptSchema);
		if (!input.ok) return input.failure;
		try {
			await acceptConsent(getDb(), user.id, input.data.consentTextId);
		} catch (e) {
			return failWith(e);
		}
		// Back to this page: it asks the next pending text, or goes on to `redirectTo`.
		const query = new URLSearchParams({
			redirectTo: safeRedirect(input.data.redirectTo, url.origin)
		});
		if (/^\d+$/.test(input.data.study)) query.set('study', input.data.study);
		redirect(303, `/consent?${query}`);
	}
};
