import { error, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { withdrawalPreview, withdrawFromStudy } from '$lib/server/domain/consent';
import { releaseStudyLeases } from '$lib/server/domain/studies';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const preview = await withdrawalPreview(getDb(), user.id, Number(params.id));
	if (!preview) error(404, 'There is no such study.');
	return { preview };
};

const confirmSchema = z.object({
	confirm: z.literal('yes', { message: 'Tick the box to confirm that you withdraw.' })
});

export const actions: Actions = {
	withdraw: async ({ locals, params, request, url }) => {
		const user = requireRole(locals, 'physician');
		const input = await readForm(request, confirmSchema);
		if (!input.ok) return input.failure;
		try {
			// The withdrawal gives back the rater's live leases in the study in its own transaction.
			await withdrawFromStudy(getDb(), user.id, Number(params.id), releaseStudyLeases);
		} catch (e) {
			return failWith(e);
		}
		redirect(303, url.pathname);
	}
};
