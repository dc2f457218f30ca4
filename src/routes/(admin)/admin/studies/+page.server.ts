import { redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listImports } from '$lib/server/domain/items';
import { listQuestionSets } from '$lib/server/domain/question-sets';
import {
	checkEligibility,
	checkSetEligibility,
	listRubrics,
	createStudy,
	DEFAULT_PRESENTATION,
	listModelsWithCounts,
	listSnapshotsForStudies,
	listQualificationRounds,
	listStudies,
	selectionSchema,
	TYPES_WITH_DETAIL
} from '$lib/server/domain/studies';
import { DomainError, failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { studyFormMessage, studyFormSchema } from './study-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const [studies, models, snapshots, imports, questionSets, rubrics, rounds] = await Promise.all([
		listStudies(db),
		listModelsWithCounts(db),
		listSnapshotsForStudies(db),
		listImports(db, 100),
		listQuestionSets(db),
		listRubrics(db),
		listQualificationRounds(db)
	]);
	return {
		presentation: { defaults: DEFAULT_PRESENTATION, types: TYPES_WITH_DETAIL },
		studies,
		rounds: rounds.map((r) => ({ id: r.id, name: r.name, design: r.design })),
		models,
		snapshots,
		questionSets: questionSets.map((q) => ({
			id: q.id,
			name: q.name,
			questions: q.questions,
			models: q.models
		})),
		rubrics: rubrics.map((r) => ({ id: r.id, name: r.name, latestVersion: r.latestVersion })),
		imports: imports
			.filter((i) => i.kind === 'qa')
			.map((i) => ({ id: i.id, label: `#${i.id} ${i.fileName}` }))
	};
};

export const actions: Actions = {
	preview: async ({ locals, request }) => {
		requireRole(locals, 'organiser');
		const input = await readForm(request, studyFormSchema, { message: studyFormMessage });
		if (!input.ok) return input.failure;
		const { values } = input;
		if (input.data.questionSetId) {
			const set = await checkSetEligibility(
				getDb(),
				input.data.questionSetId,
				input.data.modelIds ?? []
			);
			return {
				values,
				preview: {
					eligible: set.eligible.length,
					missing: set.missing.slice(0, 200).map((m) => ({
						itemId: m.externalId,
						question: m.question,
						models: m.models
					})),
					missingCount: set.missing.length
				}
			};
		}
		const selection = selectionSchema.safeParse(input.data.selection);
		if (!selection.success)
			return failWith(new DomainError('invalid', 'The question set is not valid.'), { values });
		const { eligible, missing } = await checkEligibility(
			getDb(),
			selection.data,
			input.data.modelIds ?? []
		);
		return {
			values,
			preview: {
				eligible: eligible.length,
				missing: missing.slice(0, 200),
				missingCount: missing.length
			}
		};
	},
	create: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, studyFormSchema, { message: studyFormMessage });
		if (!input.ok) return input.failure;
		const { confirm, ...study } = input.data;
		let id: number;
		try {
			id = (await createStudy(getDb(), study, user.id, { confirm })).id;
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(303, `/admin/studies/${id}`);
	}
};
