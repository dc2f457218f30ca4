import { sql } from 'drizzle-orm';
import type { Db } from '$lib/server/db/client';

/**
 * `n` items (default 50,000) of all seven types in one dataset named 'bench', each with a first
 * version and one primary review task as an import leaves them, written with set-based SQL
 * (seconds, not minutes). Returns the dataset id.
 */
export async function seedBenchItems(db: Db, n = 50_000): Promise<number> {
	await db.execute(sql`insert into dataset (name) values ('bench')`);
	await db.execute(sql`
		insert into qa_item (dataset_id, item_key, type, paragraph_id, question)
		select d.id, 'bench-' || g, (enum_range(null::qa_type))[1 + g % 7], 'bench-p' || g,
			'Bench question ' || g || '?'
		from generate_series(1, ${n}) g, dataset d where d.name = 'bench'`);
	await db.execute(sql`
		insert into qa_item_version (item_id, version, record, content_hash, type, question, answer, origin)
		select id, 1, jsonb_build_object('question', question, 'type', type, 'answer', 'True'),
			md5(id::text), type, question, 'True', 'import'
		from qa_item`);
	await db.execute(sql`
		update qa_item i set current_version_id = v.id from qa_item_version v where v.item_id = i.id`);
	// What an import does for its items: one primary review task each.
	await db.execute(sql`insert into review_task (item_id, round) select id, 'primary' from qa_item`);
	await db.execute(sql`analyze`);
	const [{ id }] = (await db.execute(
		sql`select id from dataset where name = 'bench'`
	)) as unknown as {
		id: number;
	}[];
	return id;
}
