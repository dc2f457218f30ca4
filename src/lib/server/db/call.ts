import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client';

/**
 * The value of `select <expression>` (typically a database function call), run as a prepared
 * statement: one round trip, and postgres.js keeps the statement per connection by its text, so
 * the server parses and plans it once. Values go in as parameters (`${value}`), never as spliced
 * text, so the text stays the same from call to call.
 */
export async function selectValue<T>(db: Db | Tx, name: string, expression: SQL): Promise<T> {
	const [row] = await db
		.select({ value: sql<T>`${expression}` })
		.from(sql`(values (1)) as one (x)`)
		.prepare(name)
		.execute();
	return row.value;
}
