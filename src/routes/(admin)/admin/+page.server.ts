import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { adminOverview } from '$lib/server/domain/items';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return adminOverview(getDb());
};
