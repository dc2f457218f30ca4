import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from './client';

/** Rows written after which an import refreshes the planner's statistics, whatever the size. */
const ROWS_FOR_ANALYZE = 1000;
/** …or the share of a table's estimated rows that does. */
const GROWTH_FOR_ANALYZE = 0.1;

/**
 * After an import or a study's first opening has committed: when it wrote at least 1,000 rows, or at least 10 % of what the
 * planner believes the first table holds (a table never analysed counts as empty), runs ANALYZE
 * on the tables it filled, so that plans and estimated counts (the items page) see the new rows
 * at once instead of after autovacuum's next pass. ANALYZE takes no lock that blocks reads or
 * writes. It also merges the pending entries of the tables' GIN indexes into the indexes. A failure here (e.g. a role that does not own the tables) does not undo the import.
 */
export async function refreshPlannerStatistics(
	db: Db,
	written: number,
	tables: readonly string[]
): Promise<boolean> {
	if (written <= 0 || tables.length === 0) return false;
	try {
		const [row] = rowsOf<{ estimate: number | null }>(
			await db.execute(sql`
				select reltuples::float8 as estimate from pg_class
				where oid = to_regclass(${tables[0]})`)
		);
		const estimate = Math.max(0, Number(row?.estimate ?? 0));
		if (written < ROWS_FOR_ANALYZE && written < GROWTH_FOR_ANALYZE * estimate) return false;
		await db.execute(sql.raw(`analyze ${tables.map((t) => `"${t}"`).join(', ')}`));
		// New rows wait in a GIN index's pending list (the trigram search indexes) until
		// autovacuum merges them, and every search reads that list meanwhile: merge it now.
		await db.execute(sql`
			select gin_clean_pending_list(i.indexrelid) from pg_index i
			join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
			where am.amname = 'gin'
				and i.indrelid = any(array[${sql.join(
					tables.map((t) => sql`to_regclass(${t})`),
					sql`, `
				)}]::regclass[])`);
		return true;
	} catch {
		return false;
	}
}
