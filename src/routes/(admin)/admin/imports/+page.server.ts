import { fail } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { ImportRejected } from '$lib/server/domain/imports/import-errors';
import { listImports } from '$lib/server/domain/items/items';
import { importPassages } from '$lib/server/domain/imports/passage-import';
import { importQaFiles, type ImportFile } from '$lib/server/domain/imports/qa-import';
import { importResponses } from '$lib/server/domain/imports/response-import';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return { imports: await listImports(getDb(), 100) };
};

async function filesOf(form: FormData, field: string): Promise<ImportFile[]> {
	const files = form.getAll(field).filter((f): f is File => f instanceof File && f.size > 0);
	return Promise.all(files.map(async (f) => ({ fileName: f.name, text: await f.text() })));
}

/** Runs an import and maps its outcome to what the page shows. */
async function run(
	kind: string,
	work: () => Promise<{
		created: number;
		updated: number;
		unchanged: number;
		total: number;
		importId: number;
	}>
) {
	try {
		const counts = await work();
		return { kind, ok: true as const, counts };
	} catch (e) {
		if (e instanceof ImportRejected) {
			return fail(400, {
				kind,
				ok: false as const,
				message: e.message.split('. ')[0] + '.',
				errors: e.errors.slice(0, 200),
				errorCount: e.errors.length
			});
		}
		throw e;
	}
}

export const actions: Actions = {
	qa: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const files = await filesOf(await request.formData(), 'files');
		if (!files.length)
			return fail(400, {
				kind: 'qa',
				ok: false as const,
				message: 'Choose at least one JSON file.',
				errors: [],
				errorCount: 0
			});
		return run('qa', () =>
			importQaFiles(getDb(), files, { actor: { userId: user.id, label: user.email } })
		);
	},
	passages: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const [file] = await filesOf(await request.formData(), 'file');
		if (!file)
			return fail(400, {
				kind: 'passages',
				ok: false as const,
				message: 'Choose a JSON or CSV file.',
				errors: [],
				errorCount: 0
			});
		return run('passages', () =>
			importPassages(getDb(), file, { actor: { userId: user.id, label: user.email } })
		);
	},
	responses: async ({ locals, request }) => {
		const user = requireRole(locals, 'organiser');
		const form = await request.formData();
		const files = await filesOf(form, 'files');
		const model = String(form.get('model') ?? '').trim() || undefined;
		if (!files.length)
			return fail(400, {
				kind: 'responses',
				ok: false as const,
				message: 'Choose at least one file.',
				errors: [],
				errorCount: 0
			});
		return run('responses', () =>
			importResponses(getDb(), files, { actor: { userId: user.id, label: user.email }, model })
		);
	}
};
