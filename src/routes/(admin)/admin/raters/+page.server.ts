import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { benchmarkStudies, raterQualityReport } from '$lib/server/domain/rater-quality';
import type { PageServerLoad } from './$types';

const querySchema = z.object({
	study: z.coerce.number().int().positive().optional().catch(undefined)
});

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const studies = await benchmarkStudies(db);
	const { study } = querySchema.parse(Object.fromEntries(url.searchParams));
	const chosen = studies.find((s) => s.id === study) ?? studies[0] ?? null;
	const report = chosen ? await raterQualityReport(db, { studyId: chosen.id }) : null;
	return { studies, chosen: chosen?.id ?? null, report };
};
