import { fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	createRun,
	listModelsForScoring,
	listRuns,
	newRunSchema,
	ScoringRunError,
	startRun
} from '$lib/server/domain/scoring-runs/runs';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url, depends }) => {
	requireRole(locals, 'organiser', url);
	depends('scoring:runs');
	const db = getDb();
	const [runs, models] = await Promise.all([listRuns(db), listModelsForScoring(db)]);
	return { runs, models };
};

export const actions: Actions = {
	start: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const form = await request.formData();
		const values = {
			modelIds: form.getAll('modelIds').map(String),
			mode: String(form.get('mode') ?? ''),
			embedder: String(form.get('embedder') ?? '')
		};
		const parsed = newRunSchema.safeParse(values);
		if (!parsed.success) {
			const errors: Record<string, string> = {};
			for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
			return fail(400, { values, errors });
		}
		let runId: number;
		try {
			const db = getDb();
			runId = (await createRun(db, parsed.data, user.id)).id;
			startRun(db, runId);
		} catch (e) {
			if (e instanceof ScoringRunError) return fail(400, { values, errors: { form: e.message } });
			throw e;
		}
		redirect(303, `/admin/scoring/${runId}`);
	}
};
