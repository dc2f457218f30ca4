import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passage, qaItem, qaItemVersion } from '../../db/schema';

/** An item's current version and source passage, as the review screens show them. */
export async function itemForDisplay(db: Db, itemId: number) {
	const [row] = await db
		.select({ item: qaItem, version: qaItemVersion })
		.from(qaItem)
		.innerJoin(qaItemVersion, eq(qaItemVersion.id, qaItem.currentVersionId))
		.where(eq(qaItem.id, itemId));
	if (!row) return null;
	const [source] = row.item.paragraphId
		? await db.select().from(passage).where(eq(passage.paragraphId, row.item.paragraphId))
		: [];
	return { item: row.item, version: row.version, passage: source ?? null };
}
