import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	dashboardReportsOrProgress,
	isPending,
	readDashboardQuery,
	reportWaitFromEnv
} from '$lib/server/domain/agreement';
import { withdrawalSentence, withdrawalSummary } from '$lib/server/domain/consent';
import { STYLE_RESAMPLES } from '$lib/server/domain/studies';
import { thin } from './present';
import type { PageServerLoad } from './$types';

/** Dots per judge's scatter plot: a large study's answers are thinned before they reach the page. */
const MAX_DOTS = 1500;
/** A report not computed within this shows its progress; the page asks again until it is. */
const WAIT_MS = reportWaitFromEnv();

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const reports = await dashboardReportsOrProgress(
		db,
		readDashboardQuery(url.searchParams),
		WAIT_MS
	);
	// The figures follow each withdrawal's consent policy; the page says so.
	const study = reports.query.study;
	const withdrawals = study ? withdrawalSentence(await withdrawalSummary(db, study)) : null;
	const shown = reports.rubric;
	const rubric =
		shown && !isPending(shown)
			? {
					...shown,
					result: {
						...shown.result,
						judgePoints: shown.result.judgeRanking.flatMap((j) =>
							thin(
								shown.result.judgePoints.filter((p) => p.judge === j.judge),
								MAX_DOTS
							)
						)
					}
				}
			: shown;
	return { ...reports, rubric, withdrawals, styleResamples: STYLE_RESAMPLES, now: new Date() };
};
