import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { dashboardReports, readDashboardQuery } from '$lib/server/domain/agreement';
import { withdrawalSentence, withdrawalSummary } from '$lib/server/domain/consent';
import { STYLE_RESAMPLES } from '$lib/server/domain/studies';
import { thin } from './present';
import type { PageServerLoad } from './$types';

/** Dots per judge's scatter plot: a large study's answers are thinned before they reach the page. */
const MAX_DOTS = 1500;

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const reports = await dashboardReports(db, readDashboardQuery(url.searchParams));
	// The figures follow each withdrawal's consent policy; the page says so.
	const study = reports.query.study;
	const withdrawals = study ? withdrawalSentence(await withdrawalSummary(db, study)) : null;
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
	return { ...reports, rubric, withdrawals, styleResamples: STYLE_RESAMPLES, now: new Date() };
};
