import { fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listImports } from '$lib/server/domain/items/items';
import {
	checkEligibility,
	createStudy,
	listModelsWithCounts,
	listSnapshotsForStudies,
	listStudies,
	selectionSchema,
	StudyError
} from '$lib/server/domain/ranking/studies';
import { readStudyForm } from './study-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const [studies, models, snapshots, imports] = await Promise.all([
		listStudies(db),
		listModelsWithCounts(db),
		listSnapshotsForStudies(db),
		listImports(db, 100)
	]);
	return {
		studies,
		models,
		snapshots,
		imports: imports
			.filter((i) => i.kind === 'qa')
			.map((i) => ({ id: i.id, label: `#${i.id} ${i.fileName}` }))
	};
};

export const actions: Actions = {
	preview: async ({ locals, request }) => {
		requireRole(locals, 'organiser');
		const read = readStudyForm(await request.formData());
		if (!read.ok) return fail(400, { values: read.values, message: read.message });
		const selection = selectionSchema.safeParse(read.input.selection);
		if (!selection.success)
			return fail(400, { values: read.values, message: 'The question set is not valid.' });
		const { eligible, missing } = await checkEligibility(
			getDb(),
			selection.data,
			read.input.modelIds ?? []
		);
		return {
			values: read.values,
			preview: {
				eligible: eligible.length,
				missing: missing.slice(0, 200),
				missingCount: missing.length
			}
		};
	},
	create: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const read = readStudyForm(await request.formData());
		if (!read.ok) return fail(400, { values: read.values, message: read.message });
		let id: number;
		try {
			id = (await createStudy(getDb(), read.input, user.id)).id;
		} catch (e) {
			if (e instanceof z.ZodError) {
				const issue = e.issues[0];
				return fail(400, {
					values: read.values,
					message: `${issue.path.join('.')} ${issue.message}.`
				});
			}
			if (e instanceof StudyError) return fail(400, { values: read.values, message: e.message });
			throw e;
		}
		redirect(303, `/admin/studies/${id}`);
	}
};
