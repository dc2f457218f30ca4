import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listDatasets } from '$lib/server/domain/items';
import {
	freezeSchema,
	freezeSnapshot,
	listSnapshots,
	previewSnapshot,
	relevanceThreshold
} from '$lib/server/domain/verification';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

/** The preview's threshold: none unless one from 1 to 5 is asked for. */
const previewSchema = z.object({
	threshold: relevanceThreshold.catch(undefined)
});

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const { threshold } = previewSchema.parse(Object.fromEntries(url.searchParams));
	const datasets = await listDatasets(db);
	const previews = await Promise.all(
		datasets.map(async (d) => ({ dataset: d, ...(await previewSnapshot(db, d.id, threshold)) }))
	);
	return { threshold: threshold ?? null, previews, snapshots: await listSnapshots(db) };
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
