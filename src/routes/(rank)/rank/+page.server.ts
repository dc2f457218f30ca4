import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { withdrawnStudies } from '$lib/server/domain/consent';
import { DESIGNS, claimNext, listOpenStudiesFor } from '$lib/server/domain/studies';
import { DomainError, failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireRole(locals, 'physician', url);
	const db = getDb();
	const [studies, withdrawn] = await Promise.all([
		listOpenStudiesFor(db, user.id),
		withdrawnStudies(db, user.id)
	]);
	return {
		studies: studies.map((s) => ({ ...s, withdrawn: withdrawn.has(s.id) })),
		finished: url.searchParams.get('finished') === '1'
	};
};

const startSchema = z.object({ studyId: z.coerce.number().int().positive() });

export const actions: Actions = {
	start: async ({ locals, request, url }) => {
		const user = requireRole(locals, 'physician');
		const input = await readForm(request, startSchema, { message: 'Choose a study.' });
		if (!input.ok) return input.failure;
		const db = getDb();
		const claim = await claimNext(db, input.data.studyId, user.id);
		// A study's own consent text is asked before the first claim in it.
		if (claim.status === 'none' && claim.reason === 'consent_pending')
			redirect(
				303,
				`/consent?${new URLSearchParams({ study: String(input.data.studyId), redirectTo: url.pathname })}`
			);
		if (claim.status === 'assigned') {
			const studies = await listOpenStudiesFor(db, user.id);
			const design = studies.find((s) => s.id === input.data.studyId)?.design ?? 'ranking';
			redirect(303, DESIGNS[design].screenPath(claim.publicId));
		}
		return failWith(
			new DomainError(
				'conflict',
				claim.reason === 'not_open'
					? 'This study is not open right now.'
					: claim.reason === 'withdrawn'
						? 'You have withdrawn from this study, so it has no more work for you.'
						: 'There is no question left for you in this study. Thank you!'
			)
		);
	}
};
