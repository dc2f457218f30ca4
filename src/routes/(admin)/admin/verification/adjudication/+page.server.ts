import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { adjudicationQueue } from '$lib/server/domain/verification';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'adjudicator', url);
	return { queue: await adjudicationQueue(getDb()) };
};
