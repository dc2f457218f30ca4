import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { mergeSentences, splitSentence } from '$lib/server/domain/question-sets';
import { getStudy, SPLIT_PAGE, studyAnswerSplits } from '$lib/server/domain/studies';
import { failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

/**
 * An evidence study's answers split into sentences: editable (merge a sentence with the next,
 * split one after a word) until the study opens, then the split frozen at opening, read only.
 */
export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const study = await getStudy(db, Number(params.id));
	if (!study) error(404, 'No such study.');
	if (study.design !== 'evidence') error(404, 'Only an evidence study splits its answers.');
	const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
	const splits = await studyAnswerSplits(db, study, page);
	return {
		study: { id: study.id, name: study.name, state: study.state },
		page,
		pages: Math.max(1, Math.ceil(splits.total / SPLIT_PAGE)),
		total: splits.total,
		questions: splits.questions
	};
};

const target = {
	setResponseId: z.coerce.number().int().positive(),
	position: z.coerce.number().int().positive()
};

async function draftStudy(id: number) {
	const study = await getStudy(getDb(), id);
	if (!study || study.design !== 'evidence') error(404, 'No such evidence study.');
	return study;
}

export const actions: Actions = {
	merge: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		await draftStudy(Number(params.id));
		const input = await readForm(request, z.object(target));
		if (!input.ok) return input.failure;
		try {
			await mergeSentences(getDb(), input.data.setResponseId, input.data.position, user.id);
		} catch (e) {
			return failWith(e);
		}
		return { changed: `Sentences ${input.data.position} and ${input.data.position + 1} merged.` };
	},
	split: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		await draftStudy(Number(params.id));
		const input = await readForm(
			request,
			z.object({ ...target, atWord: z.coerce.number().int().positive() })
		);
		if (!input.ok) return input.failure;
		try {
			await splitSentence(
				getDb(),
				input.data.setResponseId,
				input.data.position,
				input.data.atWord,
				user.id
			);
		} catch (e) {
			return failWith(e);
		}
		return { changed: `Sentence ${input.data.position} split in two.` };
	}
};
