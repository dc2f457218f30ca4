import { fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listDatasets } from '$lib/server/domain/items/datasets';
import {
	freezeSchema,
	freezeSnapshot,
	listSnapshots,
	previewSnapshot
} from '$lib/server/domain/verification/snapshots';
import { failFromReviewError, formFields, zodFieldErrors } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

const previewSchema = z.object({
	threshold: z.coerce.number().int().min(1).max(5).catch(5)
});

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const { threshold } = previewSchema.parse(Object.fromEntries(url.searchParams));
	const datasets = await listDatasets(db);
	const previews = await Promise.all(
		datasets.map(async (d) => ({ dataset: d, ...(await previewSnapshot(db, d.id, threshold)) }))
	);
	return { threshold, previews, snapshots: await listSnapshots(db) };
};

export const actions: Actions = {
	freeze: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const values = formFields(await request.formData());
		const parsed = freezeSchema.safeParse(values);
		if (!parsed.success) return fail(400, { values, errors: zodFieldErrors(parsed.error) });
		try {
			await freezeSnapshot(getDb(), actor.id, parsed.data);
		} catch (e) {
			return failFromReviewError(e, { values });
		}
		redirect(303, '/admin/verification/snapshots?frozen=1');
	}
};
