import { z } from './zod';

/**
 * The URL query of a server-paged table: `page` (from 1), `size` (rows per page), `sort` (one of
 * `sorts`) and `dir`. Bad or missing values fall back to the defaults, so a hand-edited URL
 * still shows a page. Extend it with the table's own filters.
 */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(
	sorts: S,
	defaults: { sort: S[number]; dir?: 'asc' | 'desc'; size?: number; maxSize?: number }
) {
	return z.object({
		page: z.coerce.number().int().min(1).catch(1),
		size: z.coerce
			.number()
			.int()
			.min(10)
			.max(defaults.maxSize ?? 200)
			.catch(defaults.size ?? 50),
		sort: z.enum(sorts).catch(defaults.sort as never),
		dir: z.enum(['asc', 'desc']).catch(defaults.dir ?? 'asc')
	});
}
