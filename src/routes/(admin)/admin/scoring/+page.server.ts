import { redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	createRun,
	enqueueRun,
	listCorpusSnapshots,
	listModelsForScoring,
	listRuns,
	newRunSchema
} from '$lib/server/domain/scoring-runs';
import { getJobQueue } from '$lib/server/jobs';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, depends }) => {
	requireRole(locals, 'organiser', url);
	depends('scoring:runs');
	const db = getDb();
	const [runs, models, snapshots] = await Promise.all([
		listRuns(db),
		listModelsForScoring(db),
		listCorpusSnapshots(db)
	]);
	return { runs, models, snapshots };
};

const runForm = field.withLists(['modelIds'], newRunSchema);

export const actions: Actions = {
	start: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, runForm);
		if (!input.ok) return input.failure;
		let runId: number;
		try {
			const db = getDb();
			runId = (await createRun(db, input.data, user.id)).id;
			await enqueueRun(getJobQueue(), db, runId);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/admin/scoring/${runId}`);
	}
};
