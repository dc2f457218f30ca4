import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { dashboardReports, readDashboardQuery } from '$lib/server/domain/agreement';
import { STYLE_RESAMPLES } from '$lib/server/domain/studies';
import { thin } from './present';
import type { PageServerLoad } from './$types';

/** Dots per judge's scatter plot: a large study's answers are thinned before they reach the page. */
const MAX_DOTS = 1500;

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const reports = await dashboardReports(getDb(), readDashboardQuery(url.searchParams));
	const rubric = reports.rubric && {
		...reports.rubric,
		result: {
			...reports.rubric.result,
			judgePoints: reports.rubric.result.judgeRanking.flatMap((j) =>
				thin(
					reports.rubric!.result.judgePoints.filter((p) => p.judge === j.judge),
					MAX_DOTS
				)
			)
		}
	};
	return { ...reports, rubric, styleResamples: STYLE_RESAMPLES, now: new Date() };
};
