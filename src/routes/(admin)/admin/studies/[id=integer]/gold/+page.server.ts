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
import { field, readForm } from '$lib/server/forms';
import { checkQualityFields, qualityFormFields, qualityFromForm } from '../../quality-form';
import type { Actions, PageServerLoad } from './$types';

/** Largest gold file (bytes) or pasted text (characters): 10,000 records fit with room to spare. */
const MAX_GOLD_SIZE = 8 * 1024 * 1024;

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

const importForm = z.object({
	file: field.file(),
	text: z.string().default('')
});

const settingsForm = z.object(qualityFormFields).superRefine(checkQualityFields);

const removeForm = z.object({ questionId: z.coerce.number().int().positive() });

const grantForm = z.object({
	raterId: z.string().min(1, 'Choose the rater.').max(100),
	attempts: z.coerce
		.number({ message: 'Give the number of attempts to add.' })
		.int('Give a whole number of attempts.')
		.min(1, 'Add at least one attempt.')
		.max(MAX_GRANTED_ATTEMPTS, `Add at most ${MAX_GRANTED_ATTEMPTS} attempts at once.`),
	reason: z.string().trim().min(1, 'Say why, for the record.').max(2000)
});

export const actions: Actions = {
	/** Makes questions gold from a JSON file or pasted text: all or nothing. */
	import: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, importForm, { extra: { kind: 'import' as const } });
		if (!input.ok) return input.failure;
		const { file, text } = input.data;
		const extra = { kind: 'import' as const, text: text.length <= 200_000 ? text : '' };
		try {
			if ((file?.size ?? 0) > MAX_GOLD_SIZE || text.length > MAX_GOLD_SIZE)
				throw new DomainError(
					'invalid',
					`The gold file is larger than ${MAX_GOLD_SIZE / 1024 / 1024} MB, the most one may be.`
				);
			const chosen = file !== undefined && file.size > 0;
			if (chosen && text.trim() !== '')
				throw new DomainError('invalid', 'Choose a gold file or paste its JSON, not both.');
			const content = chosen ? await file.text() : text;
			if (content.trim() === '')
				throw new DomainError('invalid', 'Choose a gold file or paste its JSON.');
			const { questions } = await importGold(getDb(), Number(params.id), content, user.id);
			return { kind: 'import' as const, imported: questions };
		} catch (e) {
			return failWith(e, extra);
		}
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
		const input = await readForm(request, grantForm, {
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
