import { error } from '@sveltejs/kit';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { getItem } from '$lib/server/domain/items';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	requireRole(locals, 'organiser', url);
	const found = await getItem(getDb(), Number(params.id));
	if (!found) error(404, `There is no item ${params.id}.`);
	return found;
};
