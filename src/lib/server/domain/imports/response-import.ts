import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { typeFromFileName, type RecordError } from '../../../schemas/qa-record';
import type { Db } from '../../db/client';
import { importRecord, model, qaItem, response } from '../../db/schema';
import { recordAudit } from '../audit/audit';
import { ensureDataset } from '../items/datasets';
import {
	duplicateKeyErrors,
	duplicateRecordWarning,
	importRejected,
	parseJsonFile,
	warningCount,
	type ImportCounts
} from './import-errors';
import { refreshPlannerStatistics } from './statistics';
import { TEXT_LIMITS, unstorableStrings } from '../../../schemas/text';
import { chunk } from '../../db/chunk';
import { contentHash, itemKey } from '../items/fields';
import type { ImportActor, ImportFile } from './qa-import';
import { cleanResponse } from '$scoring';

const modelName = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.max(TEXT_LIMITS.id, `is longer than ${TEXT_LIMITS.id} characters`);

const jsonlLine = z.object({
	item: z.union([z.string().trim().min(1), z.number().int().positive()], {
		error: 'must be an item key (or numeric item id)'
	}),
	model: modelName.optional(),
	response: z.unknown().refine((v) => v !== undefined, 'is missing')
});

const submissionFile = z.object({
	inputs: z.array(
		z.looseObject({
			question: z.string().min(1),
			source: z.looseObject({ paragraph_id: z.string().min(1) }),
			type: z.string().optional()
		}),
		{ error: 'must be an array of the QA records given to the model' }
	),
	responses: z.array(z.unknown(), { error: 'must be an array of model outputs' }),
	prompts: z.array(z.unknown()).optional()
});

/** A response waiting to be matched: either by item key or by the QA record the model saw. */
interface Pending {
	file: string;
	index: number;
	model: string;
	raw: unknown;
	key?: string;
	itemId?: number;
}

function fromSubmission(file: ImportFile, defaultModel: string | undefined, errors: RecordError[]) {
	const pending: Pending[] = [];
	const parsed = submissionFile.safeParse(parseJsonFile(file.text, file.fileName));
	// inputs[i] and responses[i] are record i; a key repeated at the top belongs to the file.
	errors.push(
		...duplicateKeyErrors(file.text, file.fileName, (path) =>
			typeof path[1] === 'number'
				? { index: path[1], path: [path[0], ...path.slice(2)] }
				: { index: -1, path }
		)
	);
	if (!parsed.success) {
		for (const issue of parsed.error.issues.slice(0, 20)) {
			errors.push({
				file: file.fileName,
				index: typeof issue.path[1] === 'number' ? issue.path[1] : -1,
				field: issue.path.map(String).join('.') || '(file)',
				reason: issue.message
			});
		}
		return pending;
	}
	const { inputs, responses } = parsed.data;
	if (inputs.length !== responses.length) {
		errors.push({
			file: file.fileName,
			index: -1,
			field: 'responses',
			reason: `has ${responses.length} entries but inputs has ${inputs.length}; they are paired by position`
		});
		return pending;
	}
	if (!defaultModel) {
		errors.push({
			file: file.fileName,
			index: -1,
			field: 'model',
			reason: 'a model name is required for submission files'
		});
		return pending;
	}
	const fileType = typeFromFileName(file.fileName);
	inputs.forEach((input, index) => {
		const type = input.type ?? fileType;
		if (!type) {
			errors.push({
				file: file.fileName,
				index,
				field: 'inputs.type',
				reason: 'is missing and the file name names no type'
			});
			return;
		}
		pending.push({
			file: file.fileName,
			index,
			model: defaultModel,
			raw: responses[index],
			key: itemKey(type, input.source.paragraph_id, input.question)
		});
	});
	return pending;
}

function fromJsonl(file: ImportFile, defaultModel: string | undefined, errors: RecordError[]) {
	const pending: Pending[] = [];
	file.text.split(/\r?\n/).forEach((line, index) => {
		if (!line.trim()) return;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (e) {
			errors.push({
				file: file.fileName,
				index,
				field: '(line)',
				reason: `is not valid JSON: ${(e as Error).message}`
			});
			return;
		}
		errors.push(...duplicateKeyErrors(line, file.fileName, (path) => ({ index, path })));
		const parsed = jsonlLine.safeParse(value);
		if (!parsed.success) {
			for (const issue of parsed.error.issues) {
				errors.push({
					file: file.fileName,
					index,
					field: issue.path.join('.') || '(line)',
					reason: issue.message
				});
			}
			return;
		}
		const name = defaultModel ?? parsed.data.model;
		if (!name) {
			errors.push({
				file: file.fileName,
				index,
				field: 'model',
				reason: 'is missing (give it per line or as the model option)'
			});
			return;
		}
		const { item } = parsed.data;
		pending.push({
			file: file.fileName,
			index,
			model: name,
			raw: parsed.data.response,
			...(typeof item === 'number' ? { itemId: item } : { key: item })
		});
	});
	return pending;
}

/**
 * Imports model outputs (ClinIQLink submission files or JSONL), matched to existing items,
 * all-or-nothing: an unmatched or malformed record rejects the whole import.
 */
export async function importResponses(
	db: Db,
	files: ImportFile[],
	options: { actor: ImportActor; model?: string; dataset?: string }
): Promise<ImportCounts & { models: string[] }> {
	const errors: RecordError[] = [];
	let defaultModel: string | undefined;
	if (options.model !== undefined) {
		const m = modelName.safeParse(options.model);
		if (!m.success)
			throw importRejected([{ index: -1, field: 'model', reason: m.error.issues[0].message }], 0);
		defaultModel = m.data;
	}
	const pending: Pending[] = [];
	for (const file of files) {
		const jsonl = /\.jsonl$/i.test(file.fileName) || looksLikeJsonl(file.text);
		const rows = jsonl
			? fromJsonl(file, defaultModel, errors)
			: fromSubmission(file, defaultModel, errors);
		pending.push(...rows);
	}
	// A response the database cannot store, or one far too long, is refused with its record.
	for (const p of pending) {
		for (const b of unstorableStrings(p.raw, 'response'))
			errors.push({ file: p.file, index: p.index, ...b });
		const length = typeof p.raw === 'string' ? p.raw.length : JSON.stringify(p.raw ?? null).length;
		if (length > TEXT_LIMITS.long)
			errors.push({
				file: p.file,
				index: p.index,
				field: 'response',
				reason: `is longer than ${TEXT_LIMITS.long.toLocaleString('en')} characters`
			});
	}
	if (errors.length) throw importRejected(errors, pending.length);
	if (pending.length === 0)
		throw importRejected([{ index: -1, field: '(file)', reason: 'contains no responses' }], 0);

	const counts = await db.transaction(async (tx) => {
		const ds = await ensureDataset(tx, options.dataset);
		const byKey = new Map<string, { id: number; versionId: number }>();
		const byId = new Map<number, { id: number; versionId: number }>();
		const keys = [...new Set(pending.filter((p) => p.key).map((p) => p.key!))];
		const ids = [...new Set(pending.filter((p) => p.itemId).map((p) => p.itemId!))];
		for (const part of chunk(keys, 1000)) {
			const rows = await tx
				.select({ key: qaItem.itemKey, id: qaItem.id, versionId: qaItem.currentVersionId })
				.from(qaItem)
				.where(and(eq(qaItem.datasetId, ds.id), inArray(qaItem.itemKey, part)));
			for (const r of rows) byKey.set(r.key, { id: r.id, versionId: r.versionId! });
		}
		for (const part of chunk(ids, 1000)) {
			const rows = await tx
				.select({ id: qaItem.id, versionId: qaItem.currentVersionId })
				.from(qaItem)
				.where(and(eq(qaItem.datasetId, ds.id), inArray(qaItem.id, part)));
			for (const r of rows) byId.set(r.id, { id: r.id, versionId: r.versionId! });
		}
		const matched: { p: Pending; item: { id: number; versionId: number } }[] = [];
		const repeats: RecordError[] = [];
		const seen = new Map<string, Pending>();
		for (const p of pending) {
			const item = p.key ? byKey.get(p.key) : byId.get(p.itemId!);
			if (!item) {
				errors.push({
					file: p.file,
					index: p.index,
					field: 'item',
					reason: p.key
						? `matches no QA item in dataset "${ds.name}" (key ${p.key}); import the QA pairs first`
						: `item id ${p.itemId} does not exist in dataset "${ds.name}"`,
					kind: 'unmatched'
				});
				continue;
			}
			const pairKey = `${item.id}\u0000${p.model}`;
			const dup = seen.get(pairKey);
			if (dup) {
				// The same output twice is harmless (imported once); two different ones are ambiguous.
				const same = contentHash(dup.raw) === contentHash(p.raw);
				(same ? repeats : errors).push({
					file: p.file,
					index: p.index,
					field: 'item',
					reason: same
						? `repeats the response of ${dup.file} record ${dup.index + 1} for model ${p.model} exactly; imported once`
						: `gives model ${p.model} a different response for the item of ${dup.file} record ${dup.index + 1}`,
					...(same ? {} : { kind: 'conflicting_duplicate' as const })
				});
				continue;
			}
			seen.set(pairKey, p);
			matched.push({ p, item });
		}
		if (errors.length) throw importRejected(errors, pending.length);
		const warnings = duplicateRecordWarning(repeats, 'response');

		const models = [...new Set(matched.map((m) => m.p.model))];
		await tx
			.insert(model)
			.values(models.map((name) => ({ name })))
			.onConflictDoNothing();
		const modelRows = await tx.select().from(model).where(inArray(model.name, models));
		const modelId = new Map(modelRows.map((m) => [m.name, m.id]));

		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'responses',
				datasetId: ds.id,
				fileName: files.map((f) => f.fileName).join(', '),
				createdBy: options.actor.userId,
				actor: options.actor.label,
				modelName: models.join(', '),
				warnings
			})
			.returning();

		const existing = new Map<string, string>();
		for (const part of chunk(matched, 1000)) {
			const rows = await tx
				.select({ itemId: response.itemId, modelId: response.modelId, hash: response.contentHash })
				.from(response)
				.where(
					and(
						inArray(
							response.itemId,
							part.map((m) => m.item.id)
						),
						inArray(response.modelId, [...new Set(part.map((m) => modelId.get(m.p.model)!))])
					)
				);
			for (const r of rows) existing.set(`${r.itemId}:${r.modelId}`, r.hash);
		}
		let created = 0;
		let updated = 0;
		const changed = matched
			.map(({ p, item }) => ({
				itemId: item.id,
				itemVersionId: item.versionId,
				modelId: modelId.get(p.model)!,
				raw: p.raw as object,
				text: cleanResponse(p.raw),
				contentHash: contentHash(p.raw),
				importId: imp.id
			}))
			.filter((r) => {
				const prev = existing.get(`${r.itemId}:${r.modelId}`);
				if (prev === undefined) created++;
				else if (prev !== r.contentHash) updated++;
				return prev !== r.contentHash;
			});
		for (const batch of chunk(changed)) {
			await tx
				.insert(response)
				.values(batch.map((r) => ({ ...r, raw: sql`${JSON.stringify(r.raw)}::jsonb` })))
				.onConflictDoUpdate({
					target: [response.itemId, response.modelId],
					set: {
						raw: sql`excluded.raw`,
						text: sql`excluded.text`,
						contentHash: sql`excluded.content_hash`,
						itemVersionId: sql`excluded.item_version_id`,
						importId: sql`excluded.import_id`,
						updatedAt: new Date()
					}
				});
		}
		const counts = { created, updated, unchanged: matched.length - created - updated };
		await tx.update(importRecord).set(counts).where(eq(importRecord.id, imp.id));
		await recordAudit(tx, {
			actorId: options.actor.userId,
			action: 'import.responses',
			objectType: 'import',
			objectId: imp.id,
			after: { models, ...counts, warnings: warningCount(warnings) }
		});
		return { importId: imp.id, total: matched.length, models, ...counts, warnings };
	});
	await refreshPlannerStatistics(db, counts.created + counts.updated, ['response']);
	return counts;
}

function looksLikeJsonl(text: string): boolean {
	const first = text.trimStart().split(/\r?\n/, 1)[0] ?? '';
	try {
		const v = JSON.parse(first);
		return !!v && typeof v === 'object' && !Array.isArray(v) && 'item' in v;
	} catch {
		return false;
	}
}
