import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { holdRater, liftHold, listHolds } from '$lib/server/domain/quality';
import {
	benchmarkStudies,
	raterQualityReport,
	reviewedDatasets,
	reviewerQualityReport
} from '$lib/server/domain/rater-quality';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { RATER_HOLD_KINDS } from '$lib/constants';
import type { Actions, PageServerLoad } from './$types';

const querySchema = z.object({
	study: z.coerce.number().int().positive().optional().catch(undefined),
	dataset: z.coerce.number().int().positive().optional().catch(undefined)
});

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const [studies, datasets] = await Promise.all([benchmarkStudies(db), reviewedDatasets(db)]);
	const query = querySchema.parse(Object.fromEntries(url.searchParams));
	// A dataset's reviewers when one is asked for, else a study's raters (the newest by default).
	const dataset = datasets.find((d) => d.id === query.dataset) ?? null;
	if (dataset) {
		const [report, holds] = await Promise.all([
			reviewerQualityReport(db, { datasetId: dataset.id }),
			listHolds(db, null)
		]);
		return { studies, datasets, chosen: null, chosenDataset: dataset.id, report, holds };
	}
	const chosen = studies.find((s) => s.id === query.study) ?? studies[0] ?? null;
	const [report, holds] = chosen
		? await Promise.all([raterQualityReport(db, { studyId: chosen.id }), listHolds(db, chosen.id)])
		: [null, []];
	return { studies, datasets, chosen: chosen?.id ?? null, chosenDataset: null, report, holds };
};

// A hold in a study, or (no study: the form of a dataset's reviewers) in the review queue.
const placeSchema = {
	studyId: z.preprocess(
		(v) => (v === '' || v === undefined ? null : v),
		z.coerce.number().int().positive().nullable()
	),
	datasetId: z.coerce.number().int().positive().optional().catch(undefined)
};
const back = (p: { studyId: number | null; datasetId?: number }) =>
	p.studyId === null
		? `/admin/raters?dataset=${p.datasetId ?? ''}#holds`
		: `/admin/raters?study=${p.studyId}#holds`;
const holdSchema = z.object({
	...placeSchema,
	raterId: z.string().min(1, 'Choose the rater.').max(100),
	kind: z.enum(RATER_HOLD_KINDS, { message: 'Choose pause or retraining.' }),
	reason: z.string().trim().min(1, 'Say why, for the rater and the record.').max(2000)
});
const liftSchema = z.object({
	...placeSchema,
	holdId: z.coerce.number().int().positive(),
	note: z.string().trim().max(2000).default('')
});

export const actions: Actions = {
	hold: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, holdSchema);
		if (!input.ok) return input.failure;
		try {
			const { datasetId: _, ...hold } = input.data;
			await holdRater(getDb(), hold, user.id);
		} catch (e) {
			return failWith(e, { values: input.data });
		}
		redirect(303, back(input.data));
	},
	lift: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, liftSchema);
		if (!input.ok) return input.failure;
		try {
			await liftHold(getDb(), input.data.holdId, user.id, {
				by: 'organiser',
				note: input.data.note
			});
		} catch (e) {
			return failWith(e);
		}
		redirect(303, back(input.data));
	}
};
