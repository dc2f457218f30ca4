import { and, eq, inArray, sql } from 'drizzle-orm';
import {
	typeFromFileName,
	validateQaRecord,
	type QaRecord,
	type RecordError
} from '../../../schemas/qa-record';
import type { Db } from '../../db/client';
import { importRecord, passage, qaItem, qaItemVersion } from '../../db/schema';
import { recordAudit } from '../audit/audit';
import { ensureDataset } from '../items/datasets';
import {
	duplicateKeyErrors,
	duplicateRecordWarning,
	importRejected,
	importWarning,
	parseJsonFile,
	warningCount,
	type ImportCounts,
	type ImportWarning
} from './import-errors';
import { chunk } from '../../db/chunk';
import { contentHash, itemKey, typedFields } from '../items/fields';
import { sampleImportedItems } from '../verification/sampling';

export interface ImportFile {
	fileName: string;
	text: string;
}

export interface ImportActor {
	userId: string | null;
	/** How the actor is shown when there is no user (e.g. `cli (alice)`). */
	label: string;
}

export interface QaImportOptions {
	actor: ImportActor;
	dataset?: string;
	onProgress?: (done: number, total: number) => void;
}

interface Prepared {
	key: string;
	hash: string;
	record: QaRecord;
	file: string;
	index: number;
}

/**
 * The records of a ClinIQLink QA file: a JSON array, with one level of nested arrays flattened;
 * and every key written twice in one of them, as errors of that record.
 */
export function recordsOfFile(file: ImportFile): { records: unknown[]; errors: RecordError[] } {
	const data = parseJsonFile(file.text, file.fileName);
	if (!Array.isArray(data)) {
		throw importRejected(
			[
				{
					file: file.fileName,
					index: -1,
					field: '(file)',
					reason: 'must be a JSON array of QA records'
				}
			],
			0
		);
	}
	// Where each top-level entry starts among the flattened records.
	const start: number[] = [];
	let n = 0;
	for (const entry of data) {
		start.push(n);
		n += Array.isArray(entry) ? entry.length : 1;
	}
	const errors = duplicateKeyErrors(file.text, file.fileName, (path) => {
		const top = path[0] as number;
		return Array.isArray(data[top])
			? { index: start[top] + (path[1] as number), path: path.slice(2) }
			: { index: start[top], path: path.slice(1) };
	});
	return { records: data.flatMap((entry) => (Array.isArray(entry) ? entry : [entry])), errors };
}

/**
 * Validates every record of every file: the records to import and the warnings they come with,
 * or importRejected(…). A record repeated with identical content is imported once (a warning
 * names it); repeated with different content it is ambiguous and rejects the import.
 */
export function prepareQaRecords(files: ImportFile[]): {
	records: Prepared[];
	warnings: ImportWarning[];
} {
	const errors: RecordError[] = [];
	const repeats: RecordError[] = [];
	const prepared: Prepared[] = [];
	const byKey = new Map<string, Prepared>();
	let total = 0;
	for (const file of files) {
		const fallback = typeFromFileName(file.fileName);
		const { records, errors: keyErrors } = recordsOfFile(file);
		errors.push(...keyErrors);
		total += records.length;
		records.forEach((value, index) => {
			const result = validateQaRecord(value, index, fallback);
			if (!result.ok) {
				for (const e of result.errors) errors.push({ ...e, file: file.fileName });
				return;
			}
			const record = result.record;
			const key = itemKey(record.type, record.source.paragraph_id, record.question);
			const p = { key, hash: contentHash(record), record, file: file.fileName, index };
			const seen = byKey.get(key);
			if (seen) {
				const earlier = `record ${seen.index + 1}${seen.file !== file.fileName ? ` in ${seen.file}` : ''}`;
				if (seen.hash !== p.hash) {
					errors.push({
						file: file.fileName,
						index,
						field: 'question',
						reason: `repeats the question of ${earlier} with different content`,
						kind: 'conflicting_duplicate'
					});
				} else {
					repeats.push({
						file: file.fileName,
						index,
						field: 'question',
						reason: `repeats ${earlier} exactly; imported once`
					});
				}
				return;
			}
			byKey.set(key, p);
			prepared.push(p);
		});
	}
	if (total === 0 && errors.length === 0) {
		errors.push({ index: -1, field: '(file)', reason: 'contains no records' });
	}
	if (errors.length) throw importRejected(errors, total);
	return { records: prepared, warnings: duplicateRecordWarning(repeats, 'record') };
}

/** The warning about QA pairs whose source passage has not been imported, if any. */
async function missingPassageWarning(db: Db, prepared: Prepared[]): Promise<ImportWarning[]> {
	const ids = [...new Set(prepared.map((p) => p.record.source.paragraph_id))];
	const known = new Set<string>();
	for (const part of chunk(ids, 1000)) {
		const rows = await db
			.select({ id: passage.paragraphId })
			.from(passage)
			.where(inArray(passage.paragraphId, part));
		for (const r of rows) known.add(r.id);
	}
	const missing = prepared.filter((p) => !known.has(p.record.source.paragraph_id));
	if (!missing.length) return [];
	const missingIds = [...new Set(missing.map((p) => p.record.source.paragraph_id))];
	const shown = missingIds.slice(0, MISSING_IDS_NAMED).join(', ');
	const more =
		missingIds.length > MISSING_IDS_NAMED
			? ` and ${missingIds.length - MISSING_IDS_NAMED} more`
			: '';
	const pairs = missing.length === 1 ? '1 QA pair cites' : `${missing.length} QA pairs cite`;
	const cited = missingIds.length === 1 ? 'a paragraph id' : `${missingIds.length} paragraph ids`;
	return [
		importWarning(
			'missing_passage',
			`${pairs} ${cited} with no imported passage: ${shown}${more}. They are imported; reviewers cannot see their source until the passages are.`,
			missing.map((p) => ({
				file: p.file,
				index: p.index,
				field: 'source.paragraph_id',
				reason: `cites "${p.record.source.paragraph_id}", which has no imported passage`
			}))
		)
	];
}

/** How many missing paragraph ids the warning's sentence names. */
const MISSING_IDS_NAMED = 10;

/**
 * Imports QA records all-or-nothing: every record is validated first, then created, left
 * unchanged, or given a new version in one transaction.
 */
export async function importQaFiles(
	db: Db,
	files: ImportFile[],
	options: QaImportOptions
): Promise<ImportCounts> {
	const { records: prepared, warnings: repeats } = prepareQaRecords(files);
	const warnings = [...repeats, ...(await missingPassageWarning(db, prepared))];
	const fileName = files.map((f) => f.fileName).join(', ');
	return db.transaction(async (tx) => {
		const ds = await ensureDataset(tx, options.dataset);
		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'qa',
				datasetId: ds.id,
				fileName,
				createdBy: options.actor.userId,
				actor: options.actor.label,
				warnings
			})
			.returning();

		const existing = new Map<string, { id: number; version: number; hash: string }>();
		for (const keys of chunk(
			prepared.map((p) => p.key),
			1000
		)) {
			const rows = await tx
				.select({
					key: qaItem.itemKey,
					id: qaItem.id,
					version: qaItem.currentVersion,
					hash: qaItemVersion.contentHash
				})
				.from(qaItem)
				.innerJoin(qaItemVersion, eq(qaItemVersion.id, qaItem.currentVersionId))
				.where(and(eq(qaItem.datasetId, ds.id), inArray(qaItem.itemKey, keys)));
			for (const r of rows) existing.set(r.key, r);
		}

		const toCreate = prepared.filter((p) => !existing.has(p.key));
		const toUpdate = prepared.filter((p) => {
			const e = existing.get(p.key);
			return e && e.hash !== p.hash;
		});
		const unchanged = prepared.length - toCreate.length - toUpdate.length;
		const total = prepared.length;
		let done = unchanged;
		options.onProgress?.(done, total);

		for (const batch of chunk(toCreate)) {
			const items = await tx
				.insert(qaItem)
				.values(
					batch.map((p) => ({
						datasetId: ds.id,
						itemKey: p.key,
						type: p.record.type,
						paragraphId: p.record.source.paragraph_id,
						question: p.record.question.trim(),
						firstImportId: imp.id,
						lastImportId: imp.id
					}))
				)
				.returning({ id: qaItem.id, key: qaItem.itemKey });
			const idByKey = new Map(items.map((i) => [i.key, i.id]));
			await tx.insert(qaItemVersion).values(
				batch.map((p) => ({
					itemId: idByKey.get(p.key)!,
					version: 1,
					record: p.record,
					contentHash: p.hash,
					origin: 'import' as const,
					importId: imp.id,
					...typedFields(p.record)
				}))
			);
			done += batch.length;
			options.onProgress?.(done, total);
		}

		for (const batch of chunk(toUpdate)) {
			await tx.insert(qaItemVersion).values(
				batch.map((p) => {
					const e = existing.get(p.key)!;
					return {
						itemId: e.id,
						version: e.version + 1,
						record: p.record,
						contentHash: p.hash,
						origin: 'import' as const,
						importId: imp.id,
						reason: `re-imported from ${p.file}`,
						...typedFields(p.record)
					};
				})
			);
			await tx
				.update(qaItem)
				.set({
					currentVersion: sql`${qaItem.currentVersion} + 1`,
					lastImportId: imp.id,
					updatedAt: new Date()
				})
				.where(
					inArray(
						qaItem.id,
						batch.map((p) => existing.get(p.key)!.id)
					)
				);
			done += batch.length;
			options.onProgress?.(done, total);
		}

		// Point every created or updated item at its newest version, in one statement.
		await tx.execute(sql`
			update ${qaItem} set current_version_id = v.id, question = v.question
			from ${qaItemVersion} v
			where v.item_id = ${qaItem.id} and v.version = ${qaItem.currentVersion}
			  and v.import_id = ${imp.id}
			  and (${qaItem.currentVersionId} is null or ${qaItem.currentVersionId} <> v.id)`);

		// The new items' place in the secondary sample and their review tasks, in this transaction.
		await sampleImportedItems(tx, options.actor.userId, ds.id, imp.id);

		const counts = { created: toCreate.length, unchanged, updated: toUpdate.length };
		await tx.update(importRecord).set(counts).where(eq(importRecord.id, imp.id));
		await recordAudit(tx, {
			actorId: options.actor.userId,
			action: 'import.qa',
			objectType: 'import',
			objectId: imp.id,
			after: { fileName, dataset: ds.name, ...counts, warnings: warningCount(warnings) }
		});
		return { importId: imp.id, total, ...counts, warnings };
	});
}
