import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { renderMarkdown } from '$lib/markdown';
import { withdrawalSentence, withdrawalSummary } from '$lib/server/domain/consent';
import {
	auditView,
	changeStudyState,
	evidenceSummary,
	getStudy,
	importJudgeFile,
	listJudges,
	pairCount,
	pairedQuestionCount,
	previewStudyAudit,
	studyAudit,
	studyPairing,
	studyRubric,
	type StudyBlindingAudit,
	studyProgress
} from '$lib/server/domain/studies';
import { goldAccuracy, listGold } from '$lib/server/domain/quality';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import { chosenFiles, streamed } from '$lib/server/uploads';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const study = await getStudy(db, Number(params.id));
	if (!study) error(404, 'No such study.');
	return {
		study,
		instructionsHtml: renderMarkdown(study.instructions),
		progress: await studyProgress(db, study.id),
		rubric: study.design === 'rubric' ? await studyRubric(db, study.id) : null,
		pairwise: study.design === 'pairwise' ? await pairwiseDesign(study.id) : null,
		evidence: study.design === 'evidence' ? await evidenceSummary(db, study.id) : null,
		// A draft has no candidates yet: its audit runs on request (the `audit` action).
		blinding: study.state === 'draft' ? null : view(await studyAudit(db, study.id)),
		judges: await listJudges(db, study.id),
		withdrawals: withdrawalSentence(await withdrawalSummary(db, study.id)),
		quality: await qualitySummary(study)
	};
};

/** The gold and qualification section: gold questions, the required round, flagged raters. */
async function qualitySummary(study: {
	id: number;
	purpose: string;
	qualificationStudyId: number | null;
}) {
	const db = getDb();
	const [gold, accuracy, required] = await Promise.all([
		listGold(db, study.id),
		study.purpose === 'benchmark' ? goldAccuracy(db, study.id) : [],
		study.qualificationStudyId ? getStudy(db, study.qualificationStudyId) : null
	]);
	return {
		gold: gold.length,
		flagged: accuracy.filter((a) => a.flagged).length,
		required: required ? { id: required.id, name: required.name } : null
	};
}

/** A pairwise study's pairing with its numbers of pairs and questions (0 until it first opens). */
async function pairwiseDesign(studyId: number) {
	const db = getDb();
	const pairing = await studyPairing(db, studyId);
	if (!pairing) return null;
	const [pairs, questions] = await Promise.all([
		pairCount(db, studyId),
		pairedQuestionCount(db, studyId)
	]);
	return { ...pairing, pairs, questions };
}

const view = (a: StudyBlindingAudit) => auditView(a.shown, a.raw, a.attacks);

const transition = z.object({
	transition: z.enum(['open', 'pause', 'close']),
	/** "Open anyway": the organiser has read the warnings the first attempt listed. */
	confirm: field.checkbox()
});

const judgeForm = z.object({
	file: chosenFiles('Choose a JSON or JSON Lines file.'),
	judge: field.optionalText(200)
});

export const actions: Actions = {
	state: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, transition, { message: 'Unknown change.' });
		if (!input.ok) return input.failure;
		try {
			const study = await changeStudyState(
				getDb(),
				Number(params.id),
				input.data.transition,
				user.id,
				{ confirm: input.data.confirm }
			);
			return { message: `The study is now ${study.state}.` };
		} catch (e) {
			return failWith(e);
		}
	},
	audit: async ({ locals, params }) => {
		requireRole(locals, 'organiser');
		try {
			return { preview: view(await previewStudyAudit(getDb(), Number(params.id))) };
		} catch (e) {
			return failWith(e);
		}
	},
	/** Imports an automatic judge's scores and preferences (one file, all-or-nothing). */
	judge: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, judgeForm, {
			extra: { kind: 'judge' as const, ok: false as const }
		});
		if (!input.ok) return input.failure;
		const [file] = streamed(input.data.file);
		try {
			const result = await importJudgeFile(getDb(), Number(params.id), file, {
				judge: input.data.judge,
				actor: { userId: user.id, label: user.email }
			});
			return { kind: 'judge' as const, ok: true as const, judged: result };
		} catch (e) {
			return failWith(e, { kind: 'judge' as const, ok: false as const });
		}
	}
};
