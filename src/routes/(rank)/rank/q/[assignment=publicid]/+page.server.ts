import { error, fail, redirect } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { randomId } from '$lib/server/ids';
import { renderMarkdown } from '$lib/markdown';
import { claimNext, getAssignmentView } from '$lib/server/domain/ranking/queue';
import { submitRanking, type Submission } from '$lib/server/domain/ranking/rankings';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const user = requireRole(locals, 'physician', url);
	const view = await getAssignmentView(getDb(), params.assignment, user.id);
	if (!view) error(404, 'No such question in your queue.');
	const expired =
		view.assignment.state === 'expired' ||
		(view.assignment.state === 'leased' &&
			(!view.assignment.leaseExpiresAt || view.assignment.leaseExpiresAt <= new Date()));
	return {
		...view,
		expired,
		instructionsHtml: renderMarkdown(view.study.instructions),
		// A fresh key per page view: a resubmitted form (double click, retry) is stored once.
		idempotencyKey: randomId()
	};
};

/** Reads the ranking form: `rank.<id>`, `tag.<id>`, `comment.<id>` per shown response. */
function submissionFromForm(form: FormData, assignmentId: string): Submission {
	const ids = new Set<string>();
	for (const key of form.keys()) {
		const m = /^(?:rank|tag|comment)\.(.+)$/.exec(key);
		if (m) ids.add(m[1]);
	}
	const text = (key: string) => String(form.get(key) ?? '').trim();
	const time = Number(text('timeOnTaskMs'));
	return {
		assignmentId,
		idempotencyKey: text('idempotencyKey'),
		timeOnTaskMs: text('timeOnTaskMs') && Number.isInteger(time) ? time : undefined,
		confirmInconsistent: text('confirm') === '1',
		entries: [...ids].map((id) => {
			const rank = text(`rank.${id}`);
			const tag = text(`tag.${id}`);
			return {
				candidateId: id,
				rank: /^\d+$/.test(rank) ? Number(rank) : null,
				tag: (tag || null) as Submission['entries'][number]['tag'],
				comment: text(`comment.${id}`)
			};
		})
	};
}

export const actions: Actions = {
	submit: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'physician');
		const form = await request.formData();
		const submission = submissionFromForm(form, params.assignment);
		const values = Object.fromEntries(
			[...form.entries()]
				.filter(([k]) => /^(rank|tag|comment)\./.test(k))
				.map(([k, v]) => [k, String(v)])
		);
		const db = getDb();
		const result = await submitRanking(db, user.id, submission);
		switch (result.status) {
			case 'stored':
			case 'duplicate': {
				const next = await claimNext(db, result.studyId, user.id);
				if (next.status === 'assigned') redirect(303, `/rank/q/${next.publicId}`);
				redirect(303, '/rank?finished=1');
				break;
			}
			case 'invalid':
				return fail(400, { values, problems: result.problems, warnings: [] as string[] });
			case 'needs_confirmation':
				return fail(400, { values, problems: [] as string[], warnings: result.warnings });
			case 'refused':
				return fail(409, { values, problems: [result.message], warnings: [] as string[] });
		}
	}
};
