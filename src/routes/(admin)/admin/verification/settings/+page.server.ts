import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listDatasets } from '$lib/server/domain/items';
import {
	datasetSettingsSchema,
	sampleSummaries,
	updateDatasetSettings
} from '$lib/server/domain/verification';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const [datasets, summaries] = await Promise.all([listDatasets(db), sampleSummaries(db)]);
	return {
		datasets: datasets.map((ds) => ({
			...ds,
			sample: summaries.get(ds.id) ?? { total: 0, sampled: 0, perType: [] }
		}))
	};
};

export const actions: Actions = {
	save: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const input = await readForm(request, datasetSettingsSchema, { extra: { action: 'save' } });
		if (!input.ok) return input.failure;
		try {
			const outcome = await updateDatasetSettings(getDb(), actor.id, input.data);
			if (outcome.status === 'confirm') {
				const { add, reopen, remove, ...plan } = outcome.plan;
				return {
					action: 'save',
					datasetId: input.data.datasetId,
					values: input.values,
					stale: outcome.stale,
					preview: { ...plan, added: add.length, reopened: reopen.length, removed: remove.length }
				};
			}
		} catch (e) {
			return failWith(e, { action: 'save', values: input.values });
		}
		return { action: 'save', datasetId: input.data.datasetId, message: 'Settings saved.' };
	}
};
