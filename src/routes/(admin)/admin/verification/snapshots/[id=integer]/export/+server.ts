import { error, json } from '@sveltejs/kit';
import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { QA_TYPES } from '$lib/constants';
import { snapshotExport } from '$lib/server/domain/verification';
import type { RequestHandler } from './$types';

const typeSchema = z.enum(QA_TYPES).optional();

/**
 * A snapshot's export as one JSON download: `{ snapshot, composition, files }` where `files`
 * maps `<type>.json` to the ClinIQLink records of that type; `?type=<type>` downloads just that
 * array, a file the ClinIQLink tools load as is.
 */
export const GET: RequestHandler = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const type = typeSchema.safeParse(url.searchParams.get('type') ?? undefined);
	if (!type.success) error(400, `type must be one of ${QA_TYPES.join(', ')}.`);
	const exported = await snapshotExport(getDb(), Number(params.id));
	if (!exported) error(404, `There is no snapshot ${params.id}.`);
	const slug = exported.snapshot.name.replace(/[^\w.-]+/g, '-');
	const body = type.data ? exported.files[`${type.data}.json`] : exported;
	const fileName = type.data ? `${slug}-${type.data}.json` : `${slug}.json`;
	return json(body, {
		headers: { 'content-disposition': `attachment; filename="${fileName}"` }
	});
};
