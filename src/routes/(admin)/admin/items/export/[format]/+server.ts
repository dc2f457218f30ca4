import { error } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { exportItems, itemsCsv, parseItemQuery } from '$lib/server/domain/items';
import type { RequestHandler } from './$types';

const formatSchema = z.enum(['csv', 'json']);

/**
 * The item table as a download: every item its filters select (all pages), in its sort order,
 * with state, outcome, final verdict and relevance, provenance, held, whether a current review was
 * made without the item's passage, and review counts.
 */
export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const format = formatSchema.safeParse(params.format);
	if (!format.success) error(404, 'Export formats are csv and json.');
	const rows = await exportItems(getDb(), parseItemQuery(url.searchParams));
	const body = format.data === 'csv' ? itemsCsv(rows) : JSON.stringify(rows, null, 1);
	return new Response(body, {
		headers: {
			'content-type': format.data === 'csv' ? 'text/csv; charset=utf-8' : 'application/json',
			'content-disposition': `attachment; filename="items.${format.data}"`,
			'cache-control': 'no-store'
		}
	});
};
