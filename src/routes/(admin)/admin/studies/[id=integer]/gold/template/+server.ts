import { error } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { goldTemplate } from '$lib/server/domain/quality';
import { getStudy } from '$lib/server/domain/studies';
import type { RequestHandler } from './$types';

/** A gold file to fill in: every question of the study with each of its labels null. */
export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const study = await getStudy(db, Number(params.id));
	if (!study) error(404, 'No such study.');
	const records = await goldTemplate(db, study.id);
	return new Response(JSON.stringify(records, null, 2) + '\n', {
		headers: {
			'content-type': 'application/json; charset=utf-8',
			'content-disposition': `attachment; filename="study-${study.id}-gold-template.json"`
		}
	});
};
