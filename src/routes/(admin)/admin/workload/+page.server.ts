import { z } from 'zod';
import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { sortRows, workload } from '$lib/server/domain/workload';
import type { PageServerLoad } from './$types';

// Header ids of the two tables and the row field each sorts by: one `sort` parameter, so the
// table whose header was chosen is sorted and the other keeps the order by name.
const reviewerSorts = {
	'r-name': 'name',
	'r-today': 'today',
	'r-week': 'week',
	'r-median': 'medianMs',
	'r-skipped': 'skippedShare',
	'r-checked': 'checkedShare'
} as const;
const physicianSorts = {
	'p-name': 'name',
	'p-today': 'today',
	'p-week': 'week',
	'p-median': 'medianMs',
	'p-lapsed': 'lapsedShare'
} as const;

const querySchema = z.object({
	sort: z
		.enum([
			...(Object.keys(reviewerSorts) as (keyof typeof reviewerSorts)[]),
			...(Object.keys(physicianSorts) as (keyof typeof physicianSorts)[])
		])
		.catch('r-name'),
	dir: z.enum(['asc', 'desc']).catch('asc')
});

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const query = querySchema.parse(Object.fromEntries(url.searchParams));
	const { windows, reviewers, physicians } = await workload(getDb(), new Date());
	const reviewerKey = reviewerSorts[query.sort as keyof typeof reviewerSorts] ?? 'name';
	const physicianKey = physicianSorts[query.sort as keyof typeof physicianSorts] ?? 'name';
	return {
		query,
		windows,
		reviewers: sortRows(reviewers, reviewerKey, query.sort in reviewerSorts ? query.dir : 'asc'),
		physicians: sortRows(physicians, physicianKey, query.sort in physicianSorts ? query.dir : 'asc')
	};
};
