import { error, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { enqueueRun, getRun, rerunRun, scoreDistributions } from '$lib/server/domain/scoring-runs';
import { getJobQueue } from '$lib/server/jobs';
import { failWith } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url, depends }) => {
	requireRole(locals, 'organiser', url);
	depends('scoring:run');
	const db = getDb();
	const run = await getRun(db, Number(params.id));
	if (!run) error(404, `There is no scoring run ${params.id}.`);
	const distributions = run.state === 'done' ? await scoreDistributions(db, run.id) : [];
	return { run, distributions };
};

export const actions: Actions = {
	/** A new run over the same responses and the same recorded corpus. */
	rerun: async ({ locals, params }) => {
		const user = requireRole(locals, 'organiser');
		let runId: number;
		try {
			const db = getDb();
			runId = (await rerunRun(db, Number(params.id), user.id)).id;
			await enqueueRun(getJobQueue(), db, runId);
		} catch (e) {
			return failWith(e);
		}
		redirect(303, `/admin/scoring/${runId}`);
	}
};
