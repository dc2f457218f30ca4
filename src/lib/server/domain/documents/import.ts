// The documents import: PubMed abstracts by PMID, checked whole, then written all-or-nothing in
// one transaction, 1,000 a statement. A stored document never changes (assessors' evidence
// sentences refer to its sentence numbers): the same record again is "unchanged", other text for
// a stored PMID rejects the import.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chunk } from '../../db/chunk';
import { refreshPlannerStatistics } from '../../db/planner-statistics';
import { document, importRecord } from '../../db/schema';
import { recordAudit } from '../audit';
import {
	warningCount,
	type ImportActor,
	type ImportCounts,
	type ReadableFile,
	type RecordError
} from '../imports';
import { contentHash } from '../items';
import { readRecords, RecordChecks } from '../question-sets';
import { checkDocument, type DocumentFields } from './fields';

/** Rows per statement: 1,000 documents of a few kB each stay far below the parameter limit. */
const BATCH = 1000;

/** What identifies a document's content, whatever the file's spelling of its PMID. */
const documentHash = (f: DocumentFields) =>
	contentHash({ pmid: f.pmid, title: f.title, abstract: f.abstract });

/**
 * Imports PubMed abstracts all-or-nothing, in one transaction: each is split into sentences and
 * stored once by PMID. A PMID already stored with the same title and abstract is left unchanged;
 * with other text the import is rejected (documents are immutable), as for any bad record.
 */
export async function importDocuments(
	db: Db,
	files: ReadableFile[],
	actor: ImportActor
): Promise<ImportCounts> {
	const checks = new RecordChecks<DocumentFields>('document', 'pmid');
	const fileErrors: RecordError[] = [];
	const raws = await readRecords(files, 'documents', fileErrors);
	checks.noteFileErrors(fileErrors);
	for (const raw of raws)
		checks.add(raw, checkDocument, (f) => ({ key: f.pmid, label: `PMID ${f.pmid}` }));
	const rejected = checks.rejection();
	if (rejected) throw rejected;
	const warnings = checks.warnings();
	const fileName = files.map((f) => f.fileName).join(', ');
	const rows = checks.accepted.map((a) => ({ ...a, hash: documentHash(a.fields) }));

	const counts = await db.transaction(async (tx) => {
		const stored = new Map<string, string>();
		for (const part of chunk(rows, BATCH)) {
			const found = await tx
				.select({ pmid: document.pmid, hash: document.contentHash })
				.from(document)
				.where(
					inArray(
						document.pmid,
						part.map((r) => r.fields.pmid)
					)
				);
			for (const f of found) stored.set(f.pmid, f.hash);
		}
		const changed = rows
			.filter((r) => stored.has(r.fields.pmid) && stored.get(r.fields.pmid) !== r.hash)
			.map((r): RecordError => ({
				file: r.raw.file,
				index: r.raw.index,
				field: 'abstract',
				reason: `PMID ${r.fields.pmid} is already imported with other text; an imported document never changes (assessors' evidence sentences refer to its numbering)`,
				kind: 'conflicting_duplicate'
			}));
		if (changed.length) throw checks.rejectWith(changed);

		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'documents',
				fileName,
				createdBy: actor.userId,
				actor: actor.label,
				warnings
			})
			.returning({ id: importRecord.id });
		const fresh = rows.filter((r) => !stored.has(r.fields.pmid));
		for (const batch of chunk(fresh, BATCH))
			await tx.insert(document).values(
				batch.map((r) => ({
					pmid: r.fields.pmid,
					title: r.fields.title,
					abstract: r.fields.abstract,
					sentences: sql`${JSON.stringify(r.fields.sentences)}::jsonb`,
					record: sql`${JSON.stringify(r.raw.value)}::jsonb`,
					contentHash: r.hash,
					importId: imp.id
				}))
			);
		const c = { created: fresh.length, updated: 0, unchanged: rows.length - fresh.length };
		await tx.update(importRecord).set(c).where(eq(importRecord.id, imp.id));
		await recordAudit(tx, {
			actorId: actor.userId,
			action: 'import.documents',
			objectType: 'import',
			objectId: imp.id,
			after: { fileName, ...c, warnings: warningCount(warnings) }
		});
		return { importId: imp.id, total: rows.length, ...c, warnings };
	});
	await refreshPlannerStatistics(db, counts.created, ['document']);
	return counts;
}
