import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { disputeFilterSchema, listDisputes } from '$lib/server/domain/verification/disputes';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const filter = disputeFilterSchema.parse(Object.fromEntries(url.searchParams));
	return { filter, disputes: await listDisputes(getDb(), filter) };
};
