import { fail } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listDatasets } from '$lib/server/domain/items/datasets';
import { ensureReviewTasks } from '$lib/server/domain/review/queue';
import { drawSampleSchema, drawSecondarySample } from '$lib/server/domain/verification/sampling';
import {
	datasetSettingsSchema,
	updateDatasetSettings
} from '$lib/server/domain/verification/settings';
import { failFromReviewError, formFields, zodFieldErrors } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return { datasets: await listDatasets(getDb()) };
};

export const actions: Actions = {
	save: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const values = formFields(await request.formData());
		const parsed = datasetSettingsSchema.safeParse(values);
		if (!parsed.success)
			return fail(400, { action: 'save', values, errors: zodFieldErrors(parsed.error) });
		try {
			await updateDatasetSettings(getDb(), actor.id, parsed.data);
		} catch (e) {
			return failFromReviewError(e, { action: 'save', values });
		}
		return { action: 'save', datasetId: parsed.data.datasetId, message: 'Settings saved.' };
	},
	sample: async ({ locals, request }) => {
		const actor = requireRole(locals, 'organiser');
		const values = formFields(await request.formData());
		const parsed = drawSampleSchema.safeParse(values);
		if (!parsed.success)
			return fail(400, { action: 'sample', values, errors: zodFieldErrors(parsed.error) });
		try {
			const db = getDb();
			await ensureReviewTasks(db, parsed.data.datasetId);
			const r = await drawSecondarySample(db, actor.id, parsed.data);
			return {
				action: 'sample',
				datasetId: parsed.data.datasetId,
				message: `Drew ${r.sampled} of ${r.total} items for secondary review with seed ${r.seed}.`
			};
		} catch (e) {
			return failFromReviewError(e, { action: 'sample', values });
		}
	}
};
