import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listDatasets } from '$lib/server/domain/items/datasets';
import { ensureReviewTasks } from '$lib/server/domain/review/queue';
import { drawSampleSchema, drawSecondarySample } from '$lib/server/domain/verification/sampling';
import {
	datasetSettingsSchema,
	updateDatasetSettings
} from '$lib/server/domain/verification/settings';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return { datasets: await listDatasets(getDb()) };
};

export const actions: Actions = {
	save: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, datasetSettingsSchema, { extra: { action: 'save' } });
		if (!input.ok) return input.failure;
		try {
			await updateDatasetSettings(getDb(), actor.id, input.data);
		} catch (e) {
			return failWith(e, { action: 'save', values: input.values });
		}
		return { action: 'save', datasetId: input.data.datasetId, message: 'Settings saved.' };
	},
	sample: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, drawSampleSchema, { extra: { action: 'sample' } });
		if (!input.ok) return input.failure;
		try {
			const db = getDb();
			await ensureReviewTasks(db, input.data.datasetId);
			const r = await drawSecondarySample(db, actor.id, input.data);
			return {
				action: 'sample',
				datasetId: input.data.datasetId,
				message: `Drew ${r.sampled} of ${r.total} items for secondary review with seed ${r.seed}.`
			};
		} catch (e) {
			return failWith(e, { action: 'sample', values: input.values });
		}
	}
};
