import { error, fail, redirect } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { getRubric, rubricDefinitionSchema, saveRubricVersion } from '$lib/server/domain/studies';
import { failWith } from '$lib/server/errors';
import { readForm, zodFieldErrors, type FormValues } from '$lib/server/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const rubric = await getRubric(getDb(), Number(params.id));
	if (!rubric) error(404, 'No such rubric.');
	const saved = url.searchParams.get('saved');
	return {
		...rubric,
		message:
			saved === 'unchanged'
				? 'Nothing changed since the latest version; no version was added.'
				: saved
					? `Saved as version ${saved}.`
					: null
	};
};

/** The builder posts the whole structure as one JSON field (typed by hand without JavaScript). */
const saveForm = z.object({
	definition: z.string().min(1, 'must not be empty').max(500_000),
	note: z.string().max(2000).default('')
});

/** A refusal about the definition, one message per zod path, in the shape every form shows. */
function refused(values: FormValues, message: string, errors: Record<string, string>) {
	return fail(400, {
		values,
		code: 'invalid' as const,
		message,
		errors,
		problems: [],
		records: [],
		recordCount: 0,
		recordKinds: {}
	});
}

export const actions: Actions = {
	save: async ({ locals, params, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, saveForm);
		if (!input.ok) return input.failure;
		let json: unknown;
		try {
			json = JSON.parse(input.data.definition);
		} catch {
			return refused(input.values, 'The rubric is not valid JSON.', {
				definition: 'is not valid JSON'
			});
		}
		const parsed = rubricDefinitionSchema.safeParse(json);
		if (!parsed.success)
			return refused(
				input.values,
				'Some fields need attention; see the messages beside them.',
				zodFieldErrors(parsed.error)
			);
		let saved: Awaited<ReturnType<typeof saveRubricVersion>>;
		try {
			saved = await saveRubricVersion(
				getDb(),
				Number(params.id),
				parsed.data,
				input.data.note,
				user.id
			);
		} catch (e) {
			return failWith(e, { values: input.values });
		}
		redirect(
			303,
			`/admin/rubrics/${params.id}?saved=${saved.created ? saved.version.version : 'unchanged'}`
		);
	}
};
