import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listDisputes } from '$lib/server/domain/verification';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return listDisputes(getDb(), Object.fromEntries(url.searchParams));
};
