import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { dashboardReports, readDashboardQuery } from '$lib/server/domain/agreement';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const reports = await dashboardReports(getDb(), readDashboardQuery(url.searchParams));
	return { ...reports, now: new Date() };
};
