import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	exportBlindingAudit,
	exportRankings,
	getStudy,
	rankingsCsv
} from '$lib/server/domain/studies';
import type { RequestHandler } from './$types';

/** The rankings as CSV or JSON, or the blinding audit (JSON). */
const formatSchema = z.enum(['csv', 'json', 'blinding']);

export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const format = formatSchema.safeParse(params.format);
	if (!format.success) error(404, 'Export formats are csv, json and blinding.');
	const db = getDb();
	const study = await getStudy(db, Number(params.id));
	if (!study) error(404, 'No such study.');
	if (format.data === 'blinding') {
		const audit = await exportBlindingAudit(db, study.id);
		if (!audit) error(409, 'A draft study has no frozen answers to audit yet.');
		return new Response(JSON.stringify(audit, null, 1), {
			headers: {
				'content-type': 'application/json',
				'content-disposition': `attachment; filename="study-${study.id}-blinding-audit.json"`,
				'cache-control': 'no-store'
			}
		});
	}
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
