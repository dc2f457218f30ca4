import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { createRubric, listRubrics } from '$lib/server/domain/studies';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return { rubrics: await listRubrics(getDb()) };
};

const newRubric = z.object({
	name: z.string().trim().min(1, 'must not be empty').max(200),
	template: z.enum(['hdceval', 'blank'], { message: 'choose a starting point' })
});

export const actions: Actions = {
	create: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, newRubric);
		if (!input.ok) return input.failure;
		let id: number;
		try {
			id = (await createRubric(getDb(), input.data, user.id)).rubric.id;
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/admin/rubrics/${id}`);
	}
};
