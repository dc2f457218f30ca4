import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import { listImports, listItems, parseItemQuery } from '$lib/server/domain/items';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const query = parseItemQuery(url.searchParams);
	const [list, imports] = await Promise.all([listItems(db, query), listImports(db, 100)]);
	return {
		query,
		...list,
		imports: imports
			.filter((i) => i.kind === 'qa')
			.map((i) => ({ id: i.id, label: `#${i.id} ${i.fileName}` }))
	};
};
