import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { DESIGNS, claimNext, listOpenStudiesFor } from '$lib/server/domain/studies';
import { DomainError, failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireRole(locals, 'physician', url);
	return {
		studies: await listOpenStudiesFor(getDb(), user.id),
		finished: url.searchParams.get('finished') === '1'
	};
};

const startSchema = z.object({ studyId: z.coerce.number().int().positive() });

export const actions: Actions = {
	start: async ({ locals, request }) => {
		const user = requireRole(locals, 'physician');
		const input = await readForm(request, startSchema, { message: 'Choose a study.' });
		if (!input.ok) return input.failure;
		const db = getDb();
		const claim = await claimNext(db, input.data.studyId, user.id);
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
					: 'There is no question left for you in this study. Thank you!'
			)
		);
	}
};
