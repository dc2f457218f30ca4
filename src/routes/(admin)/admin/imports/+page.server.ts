import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	type ImportCounts,
	importPassages,
	importQaFiles,
	importResponses,
	MATCH_BY,
	MATCH_BY_LABELS
} from '$lib/server/domain/imports';
import { listImports } from '$lib/server/domain/items';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import { chosenFiles, streamed } from '$lib/server/uploads';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return {
		imports: await listImports(getDb(), 100),
		matchBy: MATCH_BY.map((value) => ({ value, label: MATCH_BY_LABELS[value] }))
	};
};

const qaForm = z.object({ files: chosenFiles('Choose at least one JSON file.') });
const passagesForm = z.object({ file: chosenFiles('Choose a JSON or CSV file.') });
const responsesForm = z.object({
	files: chosenFiles('Choose at least one file.'),
	model: field.optionalText(200),
	match_by: z.enum(['auto', ...MATCH_BY], 'Choose how outputs name their items.').default('auto'),
	unmatched: z
		.enum(['reject', 'skip'], 'Choose what happens to unmatched outputs.')
		.default('reject')
});

/** Runs an import and maps its outcome to what the page shows. */
async function run<K extends string>(kind: K, work: () => Promise<ImportCounts>) {
	try {
		return { kind, ok: true as const, counts: await work() };
	} catch (e) {
		return failWith(e, { kind, ok: false as const });
	}
}

export const actions: Actions = {
	qa: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, qaForm, { extra: { kind: 'qa', ok: false as const } });
		if (!input.ok) return input.failure;
		const files = streamed(input.data.files);
		return run('qa', () =>
			importQaFiles(getDb(), files, { actor: { userId: user.id, label: user.email } })
		);
	},
	passages: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, passagesForm, {
			extra: { kind: 'passages', ok: false as const }
		});
		if (!input.ok) return input.failure;
		const [file] = streamed(input.data.file);
		return run('passages', () =>
			importPassages(getDb(), file, { actor: { userId: user.id, label: user.email } })
		);
	},
	responses: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, responsesForm, {
			extra: { kind: 'responses', ok: false as const }
		});
		if (!input.ok) return input.failure;
		const files = streamed(input.data.files);
		const { model, match_by: matchBy, unmatched } = input.data;
		return run('responses', () =>
			importResponses(getDb(), files, {
				actor: { userId: user.id, label: user.email },
				model,
				matchBy,
				unmatched
			})
		);
	}
};
