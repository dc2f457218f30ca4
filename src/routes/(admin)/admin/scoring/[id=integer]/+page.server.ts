import { error } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { scoreDistributions } from '$lib/server/domain/scoring-runs/results';
import { getRun } from '$lib/server/domain/scoring-runs/runs';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url, depends }) => {
	requireRole(locals, 'organiser', url);
	depends('scoring:run');
	const db = getDb();
	const run = await getRun(db, Number(params.id));
	if (!run) error(404, `There is no scoring run ${params.id}.`);
	const distributions = run.state === 'done' ? await scoreDistributions(db, run.id) : [];
	return { run, distributions };
};
