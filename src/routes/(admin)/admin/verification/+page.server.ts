import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { verificationProgress } from '$lib/server/domain/verification';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	return { progress: await verificationProgress(getDb()) };
};
