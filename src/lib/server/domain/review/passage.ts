import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';

/**
 * Whether a new task of item alias `i` (joined to its dataset `d`) awaits the item's passage: the
 * item has none and the dataset waits for passages.
 */
export const taskAwaitsPassageSql = sql`(not d.review_without_passage and not exists
	(select 1 from passage ap where ap.paragraph_id = i.paragraph_id))`;

/**
 * Releases the tasks that awaited any of these paragraphs' passages (just imported, in the same
 * transaction): they become claimable at once. Returns how many tasks were released.
 */
export async function releasePassageTasks(tx: Tx, paragraphIds: string[]): Promise<number> {
	if (!paragraphIds.length) return 0;
	const rows = rowsOf(
		await tx.execute(sql`
			update review_task t set awaits_passage = false
			from qa_item i
			where i.id = t.item_id and t.awaits_passage
				and i.paragraph_id = any(${sql.param(paragraphIds)}::text[])
			returning t.id`)
	);
	return rows.length;
}

/**
 * Puts a dataset's tasks of items without a passage in or out of waiting after its setting
 * changed (`reviewWithoutPassage`). Tasks leased now keep their lease; the flag decides only what
 * the claim offers next.
 */
export async function applyPassageSetting(
	tx: Tx,
	datasetId: number,
	reviewWithoutPassage: boolean
): Promise<void> {
	await tx.execute(sql`
		update review_task t set awaits_passage = ${!reviewWithoutPassage}
		from qa_item i
		where i.id = t.item_id and i.dataset_id = ${datasetId}
			and t.awaits_passage <> ${!reviewWithoutPassage}
			and not exists (select 1 from passage p where p.paragraph_id = i.paragraph_id)`);
}

/** Pending tasks per round that wait for their item's passage (partial index). */
export async function tasksAwaitingPassage(db: Db | Tx) {
	const rows = rowsOf<{ round: 'primary' | 'secondary'; n: number | string }>(
		await db.execute(sql`
			select round, count(*) as n from review_task
			where state = 'pending' and awaits_passage group by round`)
	);
	return rows.map((r) => ({ round: r.round, n: Number(r.n) }));
}
