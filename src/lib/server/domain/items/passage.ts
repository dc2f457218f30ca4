import { sql, type SQL } from 'drizzle-orm';

/**
 * Whether the item of the enclosing query (`qa_item`) has no imported passage. Passages are keyed
 * by paragraph id (unique index), so this is one index probe per item.
 */
export const noPassageSql: SQL<boolean> = sql<boolean>`(not exists (select 1 from "passage" np
	where np.paragraph_id = "qa_item"."paragraph_id"))`.mapWith(Boolean);

/**
 * Whether the item's outcome rests on a review made without its passage: a review (its latest
 * revision) submitted while the item had no imported passage.
 */
export const reviewedWithoutPassageSql: SQL<boolean> =
	sql<boolean>`(exists (select 1 from "review" wp
	where wp.item_id = "qa_item"."id" and wp.without_passage
		and not exists (select 1 from "review" wl where wl.supersedes_id = wp.id)))`.mapWith(Boolean);
