import { redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	DESIGNS,
	claimNext,
	listOpenStudiesFor,
	type ClaimRefusal
} from '$lib/server/domain/studies';
import { qualificationStatus, scoreAttempts, standingHolds } from '$lib/server/domain/quality';
import { withdrawnStudies } from '$lib/server/domain/consent';
import { DomainError, failWith } from '$lib/server/errors';
import { readForm } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const user = requireRole(locals, 'physician', url);
	const db = getDb();
	const [studies, withdrawn, holds] = await Promise.all([
		listOpenStudiesFor(db, user.id),
		withdrawnStudies(db, user.id),
		standingHolds(db, user.id)
	]);
	const rounds = await Promise.all(
		studies
			.filter((s) => s.purpose === 'qualification')
			.map((s) => qualificationStatus(db, s.id, user.id))
	);
	return {
		studies: studies.map((s) => ({
			...s,
			withdrawn: withdrawn.has(s.id),
			hold: holds.get(s.id) ?? null
		})),
		rounds: Object.fromEntries(rounds.filter((r) => r !== null).map((r) => [r.studyId, r])),
		finished: url.searchParams.get('finished') === '1'
	};
};

const startSchema = z.object({ studyId: z.coerce.number().int().positive() });

export const actions: Actions = {
	start: async ({ locals, request, url }) => {
		const user = requireRole(locals, 'physician');
		const input = await readForm(request, startSchema, { message: 'Choose a study.' });
		if (!input.ok) return input.failure;
		const db = getDb();
		// A round's finished attempt is scored before the next one starts.
		await scoreAttempts(db, input.data.studyId, user.id);
		const claim = await claimNext(db, input.data.studyId, user.id);
		// A study's own consent text is asked before the first claim in it.
		if (claim.status === 'none' && claim.reason === 'consent_pending')
			redirect(
				303,
				`/consent?${new URLSearchParams({ study: String(input.data.studyId), redirectTo: url.pathname })}`
			);
		if (claim.status === 'assigned') {
			const studies = await listOpenStudiesFor(db, user.id);
			const design = studies.find((s) => s.id === input.data.studyId)?.design ?? 'ranking';
			redirect(303, DESIGNS[design].screenPath(claim.publicId));
		}
		return failWith(new DomainError('conflict', REFUSALS[claim.reason]));
	}
};

/** What the rater reads when a study gives them nothing. */
const REFUSALS: Record<ClaimRefusal, string> = {
	not_open: 'This study is not open right now.',
	exhausted: 'There is no question left for you in this study. Thank you!',
	not_qualified: 'This study asks you to pass its qualification round first.',
	qualified:
		'You have passed this qualification round: the studies that require it are open to you.',
	attempts_used:
		'You have used every attempt at this qualification round. The organisers can tell you what comes next.',
	attempt_finished: 'Your last attempt is being scored; please try again in a moment.',
	withdrawn: 'You have withdrawn from this study, so it has no more work for you.',
	consent_pending: 'Please read and accept this study’s consent text first.',
	paused: 'The organisers have paused your work in this study; they will tell you when it resumes.',
	retraining:
		'The organisers ask you to go through the checks you missed before you go on in this study.'
};
