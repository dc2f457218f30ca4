// Reading the imported documents: by PMID for the screens and checks, a page of them for the
// organiser, and their number.
import { asc, count, gt, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { chunk } from '../../db/chunk';
import { document, type Document } from '../../db/schema';

/** A document in a listing: its PMID, title and number of sentences. */
export interface DocumentSummary {
	pmid: string;
	title: string;
	sentences: number;
	createdAt: Date;
}

/** The documents stored under `pmids` (canonical digits), by PMID; PMIDs not imported are absent. */
export async function getDocuments(
	db: Db | Tx,
	pmids: readonly string[]
): Promise<Map<string, Document>> {
	const out = new Map<string, Document>();
	for (const part of chunk([...new Set(pmids)], 1000)) {
		const rows = await db.select().from(document).where(inArray(document.pmid, part));
		for (const r of rows) out.set(r.pmid, r);
	}
	return out;
}

/** Up to `limit` documents in the order they were imported, after the one with id `after`. */
export async function listDocuments(
	db: Db,
	options: { limit?: number; after?: number } = {}
): Promise<(DocumentSummary & { id: number })[]> {
	const rows = await db
		.select({
			id: document.id,
			pmid: document.pmid,
			title: document.title,
			sentences: sql<number>`jsonb_array_length(${document.sentences})::int`,
			createdAt: document.createdAt
		})
		.from(document)
		.where(options.after === undefined ? undefined : gt(document.id, options.after))
		.orderBy(asc(document.id))
		.limit(Math.min(Math.max(options.limit ?? 100, 1), 1000));
	return rows.map((r) => ({ ...r, sentences: Number(r.sentences) }));
}

/** How many documents are imported. */
export async function documentCount(db: Db): Promise<number> {
	const [{ n }] = await db.select({ n: count() }).from(document);
	return Number(n);
}
