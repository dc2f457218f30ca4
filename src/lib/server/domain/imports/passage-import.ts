import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RecordError } from '../../../schemas/qa-record';
import type { Db } from '../../db/client';
import { importRecord, passage } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../audit';
import { parseCsv } from '../../csv';
import {
	duplicateKeyErrors,
	duplicateRecordWarning,
	importRejected,
	parseJsonFile,
	readWholeFile,
	warningCount,
	type ImportCounts
} from './import-errors';
import { refreshPlannerStatistics } from '../../db/planner-statistics';
import { TEXT_LIMITS, unstorableStrings } from '../../../schemas/text';
import { chunk } from '../../db/chunk';
import type { ImportActor, QaImportFile } from './qa-import';
import { contentHash } from '../items';
import { releasePassageTasks } from '../review';

const passageSchema = z.object({
	paragraph_id: z
		.string()
		.trim()
		.min(1, 'must not be empty')
		.max(TEXT_LIMITS.id, `is longer than ${TEXT_LIMITS.id} characters`),
	text: z
		.string()
		.trim()
		.min(1, 'must not be empty')
		.max(TEXT_LIMITS.long, `is longer than ${TEXT_LIMITS.long.toLocaleString('en')} characters`),
	isbn: z
		.string()
		.trim()
		.max(TEXT_LIMITS.id, `is longer than ${TEXT_LIMITS.id} characters`)
		.optional()
		.nullable(),
	page: z
		.union([
			z.number().int().nonnegative(),
			z.string().trim().regex(/^\d*$/, 'must be a whole number')
		])
		.optional()
		.nullable()
		.transform((v) => (v === '' || v === undefined || v === null ? null : Number(v)))
});
type PassageInput = z.infer<typeof passageSchema>;

/**
 * Reads passages from JSON (an array of objects, or an object paragraph id → text) or CSV; a key
 * written twice in one JSON object (or a column named twice in the CSV header) is an error.
 */
async function rawPassages(file: QaImportFile): Promise<{ raw: unknown[]; errors: RecordError[] }> {
	const text = await readWholeFile(file);
	if (/\.csv$/i.test(file.fileName)) {
		// A quote never closed swallows the rest of the file into one field: refuse it.
		if ((text.match(/"/g)?.length ?? 0) % 2 === 1)
			throw importRejected(
				[
					{
						file: file.fileName,
						index: -1,
						field: '(file)',
						reason:
							'has a quote that is never closed, so the rest of the file would read as one field'
					}
				],
				0
			);
		const rows = parseCsv(text);
		const [header, ...body] = rows;
		if (!header || !header.includes('paragraph_id') || !header.includes('text')) {
			throw importRejected(
				[
					{
						index: -1,
						field: '(file)',
						reason: 'CSV needs a header row with paragraph_id and text'
					}
				],
				0
			);
		}
		const names = header.map((h) => h.trim());
		const errors: RecordError[] = names
			.filter((h, i) => names.indexOf(h) !== i)
			.map((h) => ({
				index: -1,
				field: h,
				reason: 'names two columns of the header; only one of them could be read',
				kind: 'duplicate_key' as const
			}));
		const raw = body
			.filter((r) => r.some((c) => c.trim() !== ''))
			.map((r) => Object.fromEntries(names.map((h, i) => [h, r[i] ?? ''])));
		return { raw, errors };
	}
	const data = parseJsonFile(text, file.fileName);
	if (Array.isArray(data)) {
		const errors = duplicateKeyErrors(text, undefined, (path) => ({
			index: path[0] as number,
			path: path.slice(1)
		}));
		return { raw: data, errors };
	}
	if (data && typeof data === 'object') {
		// In the id → text form each key is a record: a repeated one is a duplicate paragraph id.
		const ids = Object.keys(data);
		const errors = duplicateKeyErrors(text, undefined, (path) => ({
			index: ids.indexOf(path[0] as string),
			path: path.length === 1 ? ['paragraph_id'] : path.slice(1)
		}));
		const raw = Object.entries(data).map(([paragraph_id, text]) =>
			typeof text === 'string' ? { paragraph_id, text } : { paragraph_id, ...(text as object) }
		);
		return { raw, errors };
	}
	throw importRejected(
		[{ index: -1, field: '(file)', reason: 'must be a JSON array, a JSON object or a CSV file' }],
		0
	);
}

/**
 * Imports source passages all-or-nothing, keyed by paragraph id; review tasks that awaited a new
 * passage become claimable in the same transaction.
 */
export async function importPassages(
	db: Db,
	file: QaImportFile,
	options: { actor: ImportActor }
): Promise<ImportCounts> {
	const { raw, errors } = await rawPassages(file);
	const repeats: RecordError[] = [];
	const byId = new Map<string, PassageInput & { hash: string; index: number }>();
	raw.forEach((value, index) => {
		const broken = unstorableStrings(value);
		if (broken.length) {
			errors.push(...broken.map((b) => ({ index, ...b })));
			return;
		}
		const parsed = passageSchema.safeParse(value);
		if (!parsed.success) {
			for (const issue of parsed.error.issues) {
				errors.push({ index, field: issue.path.join('.') || '(record)', reason: issue.message });
			}
			return;
		}
		const hash = contentHash(parsed.data);
		const seen = byId.get(parsed.data.paragraph_id);
		if (seen) {
			if (seen.hash !== hash) {
				errors.push({
					index,
					field: 'paragraph_id',
					reason: `repeats the paragraph id of record ${seen.index + 1} with different text`,
					kind: 'conflicting_duplicate'
				});
			} else {
				repeats.push({
					index,
					field: 'paragraph_id',
					reason: `repeats record ${seen.index + 1} exactly; imported once`
				});
			}
			return;
		}
		byId.set(parsed.data.paragraph_id, { ...parsed.data, hash, index });
	});
	if (raw.length === 0) errors.push({ index: -1, field: '(file)', reason: 'contains no passages' });
	if (errors.length) throw importRejected(errors, raw.length);
	const warnings = duplicateRecordWarning(repeats, 'passage');

	const rows = [...byId.values()];
	const counts = await db.transaction(async (tx) => {
		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'passages',
				fileName: file.fileName,
				createdBy: options.actor.userId,
				actor: options.actor.label,
				warnings
			})
			.returning();
		const existing = new Map<string, string>();
		for (const ids of chunk(
			rows.map((r) => r.paragraph_id),
			1000
		)) {
			const found = await tx
				.select({ id: passage.paragraphId, hash: passage.contentHash })
				.from(passage)
				.where(inArray(passage.paragraphId, ids));
			for (const f of found) existing.set(f.id, f.hash);
		}
		const changed = rows.filter((r) => existing.get(r.paragraph_id) !== r.hash);
		for (const batch of chunk(changed)) {
			await tx
				.insert(passage)
				.values(
					batch.map((r) => ({
						paragraphId: r.paragraph_id,
						text: r.text,
						isbn: r.isbn ?? null,
						page: r.page,
						contentHash: r.hash,
						importId: imp.id
					}))
				)
				.onConflictDoUpdate({
					target: passage.paragraphId,
					set: {
						text: sql`excluded.text`,
						isbn: sql`excluded.isbn`,
						page: sql`excluded.page`,
						contentHash: sql`excluded.content_hash`,
						importId: sql`excluded.import_id`,
						updatedAt: new Date()
					}
				});
		}
		const updated = changed.filter((r) => existing.has(r.paragraph_id)).length;
		// Items that waited for these passages go to review now, in this transaction.
		const released = await releasePassageTasks(
			tx,
			changed.filter((r) => !existing.has(r.paragraph_id)).map((r) => r.paragraph_id)
		);
		const counts = {
			created: changed.length - updated,
			updated,
			unchanged: rows.length - changed.length
		};
		await tx.update(importRecord).set(counts).where(eq(importRecord.id, imp.id));
		await recordAudit(tx, {
			actorId: options.actor.userId,
			action: 'import.passages',
			objectType: 'import',
			objectId: imp.id,
			after: {
				fileName: file.fileName,
				...counts,
				released,
				warnings: warningCount(warnings)
			}
		});
		return { importId: imp.id, total: rows.length, ...counts, warnings };
	});
	await refreshPlannerStatistics(db, counts.created + counts.updated, ['passage']);
	return counts;
}
