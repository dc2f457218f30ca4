import { redirect } from '@sveltejs/kit';
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
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
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
		const input = await readForm(request, freezeSchema);
		if (!input.ok) return input.failure;
		try {
			await freezeSnapshot(getDb(), actor.id, input.data);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, '/admin/verification/snapshots?frozen=1');
	}
};
