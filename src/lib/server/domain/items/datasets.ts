import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { dataset, type Dataset } from '../../db/schema';

export const DEFAULT_DATASET = 'default';

/** The dataset with this name, created with default settings when it does not exist yet. */
export async function ensureDataset(db: Db | Tx, name = DEFAULT_DATASET): Promise<Dataset> {
	const [existing] = await db.select().from(dataset).where(eq(dataset.name, name));
	if (existing) return existing;
	const [created] = await db
		.insert(dataset)
		.values({ name })
		.onConflictDoNothing({ target: dataset.name })
		.returning();
	if (created) return created;
	const [raced] = await db.select().from(dataset).where(eq(dataset.name, name));
	return raced;
}

/** All datasets, by name. */
export function listDatasets(db: Db): Promise<Dataset[]> {
	return db.select().from(dataset).orderBy(dataset.name);
}
