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
import { documentCount, importDocuments } from '$lib/server/domain/documents';
import {
	importQuestions,
	importRuns,
	importSetResponses,
	listQuestionSets,
	RUN_FORMAT_LABELS
} from '$lib/server/domain/question-sets';
import { failWith } from '$lib/server/errors';
import { field, readForm } from '$lib/server/forms';
import { chosenFiles, streamed } from '$lib/server/uploads';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return {
		imports: await listImports(getDb(), 100),
		questionSets: await listQuestionSets(getDb()),
		documents: await documentCount(getDb()),
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

/** A question set's name (the domain checks it again). */
const setName = (missing: string) =>
	z
		.string({ error: missing })
		.trim()
		.min(1, missing)
		.max(200, 'A set name is at most 200 characters.');

const questionsForm = z.object({
	files: chosenFiles('Choose at least one JSON or JSONL file.'),
	set: setName('Give the question set a name.'),
	description: field.optionalText(20_000)
});
const setResponsesForm = z.object({
	files: chosenFiles('Choose at least one JSON or JSONL file.'),
	set: setName('Choose a question set.')
});

const documentsForm = z.object({ files: chosenFiles('Choose at least one JSONL or JSON file.') });
const runsForm = z.object({
	files: chosenFiles('Choose at least one run file.'),
	set: setName('Choose a question set.'),
	missing_documents: z
		.enum(['reject', 'keep'], 'Choose what happens to cited PMIDs without an abstract.')
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
	},
	questions: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, questionsForm, {
			extra: { kind: 'questions', ok: false as const }
		});
		if (!input.ok) return input.failure;
		const files = streamed(input.data.files);
		const { set, description } = input.data;
		return run('questions', () =>
			importQuestions(getDb(), files, {
				setName: set,
				description,
				actor: { userId: user.id, label: user.email }
			})
		);
	},
	setResponses: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, setResponsesForm, {
			extra: { kind: 'setResponses', ok: false as const }
		});
		if (!input.ok) return input.failure;
		const files = streamed(input.data.files);
		return run('setResponses', () =>
			importSetResponses(getDb(), files, {
				setName: input.data.set,
				actor: { userId: user.id, label: user.email }
			})
		);
	},
	documents: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, documentsForm, {
			extra: { kind: 'documents', ok: false as const }
		});
		if (!input.ok) return input.failure;
		const files = streamed(input.data.files);
		return run('documents', () =>
			importDocuments(getDb(), files, { userId: user.id, label: user.email })
		);
	},
	runs: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const input = await readForm(request, runsForm, {
			extra: { kind: 'runs', ok: false as const }
		});
		if (!input.ok) return input.failure;
		const files = streamed(input.data.files);
		return run('runs', async () => {
			const r = await importRuns(
				getDb(),
				files,
				{ setName: input.data.set, missingDocuments: input.data.missing_documents },
				{ userId: user.id, label: user.email }
			);
			return {
				...r,
				formats: r.formats.map((f) => ({ ...f, label: RUN_FORMAT_LABELS[f.format] }))
			};
		});
	}
};
