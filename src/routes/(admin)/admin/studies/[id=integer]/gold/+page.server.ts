import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	MAX_GRANTED_ATTEMPTS,
	goldAccuracy,
	grantAttempts,
	importGold,
	listGold,
	listGrants,
	removeGold,
	roundResults
} from '$lib/server/domain/quality';
import {
	getStudy,
	listQualificationRounds,
	updateQualitySettings
} from '$lib/server/domain/studies';
import { DomainError, failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import { checkQualityFields, qualityFormFields, qualityFromForm } from '../../quality-form';
import { goldImportAction, grantForm, MAX_GOLD_SIZE } from '$lib/server/gold-forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const study = await getStudy(db, Number(params.id));
	if (!study) error(404, 'No such study.');
	const benchmark = study.purpose === 'benchmark';
	const [gold, accuracy, results, rounds, grants] = await Promise.all([
		listGold(db, study.id),
		benchmark ? goldAccuracy(db, study.id) : [],
		benchmark ? [] : roundResults(db, study.id),
		listQualificationRounds(db),
		benchmark ? [] : listGrants(db, study.id)
	]);
	const required = study.qualificationStudyId
		? await getStudy(db, study.qualificationStudyId)
		: null;
	return {
		study: {
			id: study.id,
			name: study.name,
			design: study.design,
			state: study.state,
			purpose: study.purpose,
			questions: study.questions,
			qualificationStudyId: study.qualificationStudyId,
			goldEvery: study.goldEvery,
			passMark: study.passMark,
			questionsPerAttempt: study.questionsPerAttempt,
			maxAttempts: study.maxAttempts
		},
		required: required ? { id: required.id, name: required.name } : null,
		rounds: rounds
			.filter((r) => r.design === study.design && r.id !== study.id)
			.map((r) => ({ id: r.id, name: r.name, design: r.design })),
		gold,
		accuracy,
		results,
		grants,
		maxGranted: MAX_GRANTED_ATTEMPTS,
		maxSizeMb: MAX_GOLD_SIZE / 1024 / 1024
	};
};

const settingsForm = z.object(qualityFormFields).superRefine(checkQualityFields);

const removeForm = z.object({ questionId: z.coerce.number().int().positive() });

const grants = grantForm('Choose the rater.');

export const actions: Actions = {
	/** Makes questions gold from a JSON file or pasted text: all or nothing. */
	import: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		return goldImportAction(request, async (content) => {
			const { questions } = await importGold(getDb(), Number(params.id), content, user.id);
			return questions;
		});
	},
	/** Turns one gold question back into an ordinary one. */
	remove: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, removeForm, { extra: { kind: 'remove' as const } });
		if (!input.ok) return input.failure;
		await removeGold(getDb(), Number(params.id), [input.data.questionId], user.id);
		return { kind: 'remove' as const, removed: input.data.questionId };
	},
	/** Gives one rater of a qualification round more attempts than the round allows. */
	grant: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, grants, {
			extra: { kind: 'grant' as const },
			message: 'No attempt was added; see the messages beside the fields.'
		});
		if (!input.ok) return input.failure;
		try {
			const { status } = await grantAttempts(
				getDb(),
				{ studyId: Number(params.id), ...input.data },
				user.id
			);
			return { kind: 'grant' as const, granted: input.data.attempts, left: status.attemptsLeft };
		} catch (e) {
			return failWith(e, { kind: 'grant' as const, values: input.values });
		}
	},
	/** Changes the study's quality settings (not its purpose). */
	settings: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, settingsForm, {
			extra: { kind: 'settings' as const },
			message: 'The settings were not saved; see the messages beside the fields.'
		});
		if (!input.ok) return input.failure;
		const { purpose, ...settings } = qualityFromForm(input.data);
		const db = getDb();
		const study = await getStudy(db, Number(params.id));
		if (!study) error(404, 'No such study.');
		if (purpose !== study.purpose)
			return failWith(
				new DomainError('invalid', 'A study keeps the purpose it was created with.', {
					field: 'purpose'
				}),
				{ kind: 'settings' as const, values: input.values }
			);
		try {
			await updateQualitySettings(db, study.id, settings, user.id);
			return { kind: 'settings' as const, saved: true };
		} catch (e) {
			return failWith(e, { kind: 'settings' as const, values: input.values });
		}
	}
};
