import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { exportRankings, rankingsCsv } from '$lib/server/domain/ranking/export';
import { getStudy } from '$lib/server/domain/ranking/studies';
import type { RequestHandler } from './$types';

const formatSchema = z.enum(['csv', 'json']);

export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const format = formatSchema.safeParse(params.format);
	if (!format.success) error(404, 'Export formats are csv and json.');
	const db = getDb();
	const study = await getStudy(db, Number(params.id));
	if (!study) error(404, 'No such study.');
	const rows = await exportRankings(db, study.id);
	const file = `study-${study.id}-rankings.${format.data}`;
	const body = format.data === 'csv' ? rankingsCsv(rows) : JSON.stringify(rows, null, 1);
	return new Response(body, {
		headers: {
			'content-type': format.data === 'csv' ? 'text/csv; charset=utf-8' : 'application/json',
			'content-disposition': `attachment; filename="${file}"`,
			'cache-control': 'no-store'
		}
	});
};
