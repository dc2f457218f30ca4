import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { QA_TYPES, type QaType } from '../../../constants';
import { typeFromFileName, type RecordError } from '../../../schemas/qa-record';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { importRecord, model, qaItem, response } from '../../db/schema';
import { recordAudit } from '../audit';
import { contentHash, ensureDataset, itemKey } from '../items';
import {
	duplicateKeyErrors,
	duplicateRecordWarning,
	importRejected,
	importWarning,
	parseJsonFile,
	readWholeFile,
	warningCount,
	type ImportCounts,
	type ImportWarning
} from './import-errors';
import { refreshPlannerStatistics } from '../../db/planner-statistics';
import { TEXT_LIMITS, unstorableStrings } from '../../../schemas/text';
import { chunk } from '../../db/chunk';
import type { ImportActor, ImportFile, QaImportFile } from './qa-import';
import { JsonFormError, parseJsonText } from './json-records';
import { cleanResponse } from '$scoring';

/**
 * How an output names its QA item. ClinIQLink's own identifiers: `source` (the record's
 * `source.paragraph_id`, with its type), `position` (the submission files' type + index: the
 * i-th output of a type answers the i-th item of that type, in import order), `record` (the
 * whole QA record the model saw: type, paragraph id and question); and the portal's `item` key
 * or id (JSON Lines).
 */
export const MATCH_BY = ['record', 'source', 'position', 'item'] as const;
export type MatchBy = (typeof MATCH_BY)[number];

/** How the identifiers read on the import page and in messages. */
export const MATCH_BY_LABELS: Record<MatchBy, string> = {
	record: 'the QA record (type, paragraph id and question)',
	source: 'the source paragraph id (with the type)',
	position: 'type and position (the i-th output answers the i-th item of its type)',
	item: 'the portal item key or id'
};

const modelName = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.max(TEXT_LIMITS.id, `is longer than ${TEXT_LIMITS.id} characters`);

const paragraphId = z.string().trim().min(1).max(TEXT_LIMITS.id);
const qaType = z.enum(QA_TYPES, { error: `must be one of ${QA_TYPES.join(', ')}` });

const jsonlLine = z
	.object({
		item: z
			.union([z.string().trim().min(1), z.number().int().positive()], {
				error: 'must be an item key (or numeric item id)'
			})
			.optional(),
		paragraph_id: paragraphId.optional(),
		source: z.looseObject({ paragraph_id: paragraphId }).optional(),
		type: qaType.optional(),
		index: z.number().int().nonnegative('must be a position counted from 0').optional(),
		model: modelName.optional(),
		response: z.unknown().refine((v) => v !== undefined, 'is missing')
	})
	.superRefine((v, ctx) => {
		if (v.item === undefined && !v.paragraph_id && !v.source && v.index === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['item'],
				message:
					'is missing: name the item by "item" (key or id), "paragraph_id" (or "source"), or "type" and "index"'
			});
		if (v.index !== undefined && !v.type)
			ctx.addIssue({ code: 'custom', path: ['type'], message: 'is needed with "index"' });
	});

const submissionFile = z.object({
	inputs: z
		.array(
			z.looseObject({
				question: z.string().min(1),
				source: z.looseObject({ paragraph_id: z.string().min(1) }),
				type: z.string().optional()
			}),
			{ error: 'must be an array of the QA records given to the model' }
		)
		.optional(),
	responses: z.array(z.unknown(), { error: 'must be an array of model outputs' }),
	prompts: z.array(z.unknown()).optional()
});

/** The identifiers one output carries. */
interface Ids {
	key?: string;
	itemId?: number;
	type?: QaType;
	paragraphId?: string;
	position?: number;
	question?: string;
}

/** An output waiting to be matched to its item. */
interface Pending {
	file: string;
	index: number;
	model: string;
	raw: unknown;
	ids: Ids;
}

/** One file's outputs and the identifier forms they all carry, the preferred first. */
interface FileRead {
	file: string;
	pending: Pending[];
	carries: MatchBy[];
}

/** Which identifier an import used for a file, and whether the import chose it. */
export interface FileMatch {
	file: string;
	by: MatchBy;
	detected: boolean;
}

const asType = (t: unknown): QaType | undefined =>
	typeof t === 'string' && (QA_TYPES as readonly string[]).includes(t) ? (t as QaType) : undefined;

function fromSubmission(
	file: ImportFile,
	defaultModel: string | undefined,
	errors: RecordError[]
): FileRead {
	const read: FileRead = { file: file.fileName, pending: [], carries: [] };
	const value = parseJsonFile(file.text, file.fileName);
	// A bare array is the outputs of one type's file, in the order of that type's QA list.
	const parsed = submissionFile.safeParse(Array.isArray(value) ? { responses: value } : value);
	// inputs[i] and responses[i] are record i; a key repeated at the top belongs to the file.
	errors.push(
		...duplicateKeyErrors(file.text, file.fileName, (path) =>
			Array.isArray(value) && typeof path[0] === 'number'
				? { index: path[0], path: ['responses', ...path.slice(1)] }
				: typeof path[1] === 'number'
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
		return read;
	}
	const { inputs, responses } = parsed.data;
	if (inputs && inputs.length !== responses.length) {
		errors.push({
			file: file.fileName,
			index: -1,
			field: 'responses',
			reason: `has ${responses.length} entries but inputs has ${inputs.length}; they are paired by position`
		});
		return read;
	}
	if (!defaultModel) {
		errors.push({
			file: file.fileName,
			index: -1,
			field: 'model',
			reason: 'a model name is required for submission files'
		});
		return read;
	}
	const fileType = typeFromFileName(file.fileName);
	if (!inputs && !fileType) {
		errors.push({
			file: file.fileName,
			index: -1,
			field: '(file)',
			reason:
				'has no inputs, and its name names no type: outputs alone are matched by position in their type, so name the file after it (true_false.json, multiple_choice.json, list.json, short.json, short_inverse.json, multi_hop.json, multi_hop_inverse.json)'
		});
		return read;
	}
	read.carries = inputs ? ['record', 'source', 'position'] : ['position'];
	responses.forEach((raw, index) => {
		const input = inputs?.[index];
		const type = asType(input?.type) ?? fileType;
		if (!type) {
			errors.push({
				file: file.fileName,
				index,
				field: 'inputs.type',
				reason: input?.type
					? `must be one of ${QA_TYPES.join(', ')}`
					: 'is missing and the file name names no type'
			});
			return;
		}
		const ids: Ids = { type, position: index };
		if (input) {
			ids.paragraphId = input.source.paragraph_id.trim();
			ids.question = input.question;
			ids.key = itemKey(type, input.source.paragraph_id, input.question);
		}
		read.pending.push({ file: file.fileName, index, model: defaultModel, raw, ids });
	});
	return read;
}

/** The identifier forms a JSONL line carries, the most specific first. */
function lineCarries(ids: Ids): MatchBy[] {
	const out: MatchBy[] = [];
	if (ids.key !== undefined || ids.itemId !== undefined) out.push('item');
	if (ids.paragraphId) out.push('source');
	if (ids.type && ids.position !== undefined) out.push('position');
	return out;
}

function fromJsonl(
	file: ImportFile,
	defaultModel: string | undefined,
	errors: RecordError[]
): FileRead {
	const read: FileRead = { file: file.fileName, pending: [], carries: [] };
	let carries: MatchBy[] | null = null;
	let offset = 0;
	file.text.split('\n').forEach((rawLine, index) => {
		const at = { line: index, char: offset };
		offset += rawLine.length + 1;
		const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
		if (!line.trim()) return;
		let value: unknown;
		try {
			value = parseJsonText(line, at);
		} catch (e) {
			if (!(e instanceof JsonFormError)) throw e;
			errors.push({
				file: file.fileName,
				index,
				field: '(line)',
				reason: e.limit ? e.message : `is not valid JSON: ${e.message}`
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
		const { item, type, index: position } = parsed.data;
		const ids: Ids = {
			type,
			position,
			paragraphId: parsed.data.paragraph_id ?? parsed.data.source?.paragraph_id,
			...(typeof item === 'number' ? { itemId: item } : item ? { key: item } : {})
		};
		// The file's identifiers are those every line carries.
		const here = lineCarries(ids);
		carries = carries === null ? here : carries.filter((c) => here.includes(c));
		read.pending.push({ file: file.fileName, index, model: name, raw: parsed.data.response, ids });
	});
	read.carries = carries ?? [];
	return read;
}

/** How an output's identifier reads in a message, under one identifier form. */
function describe(p: Pending, by: MatchBy): string {
	const { ids } = p;
	switch (by) {
		case 'item':
			return ids.key !== undefined ? `item key ${ids.key}` : `item id ${ids.itemId}`;
		case 'source':
			return `paragraph id "${ids.paragraphId}"${ids.type ? ` (${ids.type})` : ''}`;
		case 'position':
			return `${ids.type} #${ids.position! + 1} (index ${ids.position})`;
		case 'record': {
			const q = ids.question ?? '';
			return `${ids.type} record of paragraph "${ids.paragraphId}", question "${q.length > 60 ? `${q.slice(0, 57)}…` : q}"`;
		}
	}
}

interface Target {
	id: number;
	versionId: number;
}
type Resolution = { item: Target } | { none: string } | { several: Target[] };

/** Looks up every output of `reads` under its file's identifier, in a few statements. */
async function resolve(
	tx: Tx,
	datasetId: number,
	pending: { p: Pending; by: MatchBy }[]
): Promise<Resolution[]> {
	const found = new Map<string, Target[]>();
	const add = (k: string, t: Target) => found.set(k, [...(found.get(k) ?? []), t]);
	const inDataset = eq(qaItem.datasetId, datasetId);
	const keys = [
		...new Set(
			pending
				.filter((x) => x.by === 'record' || x.by === 'item')
				.map((x) => x.p.ids.key)
				.filter((k) => k !== undefined)
		)
	];
	for (const part of chunk(keys, 1000)) {
		const rows = await tx
			.select({ key: qaItem.itemKey, id: qaItem.id, versionId: qaItem.currentVersionId })
			.from(qaItem)
			.where(and(inDataset, inArray(qaItem.itemKey, part)));
		for (const r of rows) add(`key:${r.key}`, { id: r.id, versionId: r.versionId! });
	}
	const ids = [
		...new Set(
			pending
				.filter((x) => x.by === 'item')
				.map((x) => x.p.ids.itemId)
				.filter((k) => k !== undefined)
		)
	];
	for (const part of chunk(ids, 1000)) {
		const rows = await tx
			.select({ id: qaItem.id, versionId: qaItem.currentVersionId })
			.from(qaItem)
			.where(and(inDataset, inArray(qaItem.id, part)));
		for (const r of rows) add(`id:${r.id}`, { id: r.id, versionId: r.versionId! });
	}
	const paragraphs = [
		...new Set(pending.filter((x) => x.by === 'source').map((x) => x.p.ids.paragraphId!))
	];
	for (const part of chunk(paragraphs, 1000)) {
		const rows = await tx
			.select({
				type: qaItem.type,
				pid: qaItem.paragraphId,
				id: qaItem.id,
				versionId: qaItem.currentVersionId
			})
			.from(qaItem)
			.where(and(inDataset, inArray(qaItem.paragraphId, part)))
			.orderBy(qaItem.id);
		for (const r of rows) {
			add(`pid:${r.pid}`, { id: r.id, versionId: r.versionId! });
			add(`pid:${r.type}:${r.pid}`, { id: r.id, versionId: r.versionId! });
		}
	}
	// The position of an item in its type's list: its rank by id (import order) among the dataset's
	// items of that type.
	const sizes = new Map<QaType, number>();
	const byType = new Map<QaType, number[]>();
	for (const { p, by } of pending)
		if (by === 'position')
			byType.set(p.ids.type!, [...(byType.get(p.ids.type!) ?? []), p.ids.position!]);
	for (const [type, positions] of byType) {
		for (const part of chunk([...new Set(positions)], 1000)) {
			const rows = rowsOf<{ id: number; version_id: number; pos: number; n: number }>(
				await tx.execute(sql`
					select id, version_id, pos, n from (
						select id, current_version_id as version_id,
							(row_number() over (order by id))::int - 1 as pos, (count(*) over ())::int as n
						from ${qaItem} where dataset_id = ${datasetId} and type = ${type}
					) ranked where pos in (${sql.join(
						part.map((x) => sql`${x}`),
						sql`, `
					)})`)
			);
			for (const r of rows) add(`pos:${type}:${r.pos}`, { id: r.id, versionId: r.version_id });
			if (rows.length) sizes.set(type, Number(rows[0].n));
		}
		if (!sizes.has(type)) {
			const [{ n }] = await tx
				.select({ n: sql<number>`count(*)::int` })
				.from(qaItem)
				.where(and(inDataset, eq(qaItem.type, type)));
			sizes.set(type, Number(n));
		}
	}
	return pending.map(({ p, by }) => {
		const { ids } = p;
		const hits =
			by === 'record' || (by === 'item' && ids.key !== undefined)
				? found.get(`key:${ids.key}`)
				: by === 'item'
					? found.get(`id:${ids.itemId}`)
					: by === 'source'
						? found.get(ids.type ? `pid:${ids.type}:${ids.paragraphId}` : `pid:${ids.paragraphId}`)
						: found.get(`pos:${ids.type}:${ids.position}`);
		if (hits?.length === 1) return { item: hits[0] };
		if (hits && hits.length > 1) return { several: hits };
		return {
			none:
				by === 'position'
					? `the dataset has ${sizes.get(ids.type!) ?? 0} ${ids.type} items`
					: 'import the QA pairs first'
		};
	});
}

/**
 * Imports model outputs (ClinIQLink submission files, one type's outputs alone, or JSONL), matched
 * to existing items by `matchBy` (`auto`: the file's most specific identifier; a submission file
 * whose records do not all match whole is matched by paragraph id). All-or-nothing: a malformed
 * record, an output whose identifier fits several items, or (unless `unmatched: 'skip'`) one that
 * matches no item rejects the whole import and nothing is written. Skipped outputs are listed in
 * a warning with their identifier and position.
 */
export async function importResponses(
	db: Db,
	files: QaImportFile[],
	options: {
		actor: ImportActor;
		model?: string;
		dataset?: string;
		matchBy?: MatchBy | 'auto';
		unmatched?: 'reject' | 'skip';
	}
): Promise<ImportCounts & { models: string[]; matches: FileMatch[]; skipped: number }> {
	const errors: RecordError[] = [];
	let defaultModel: string | undefined;
	if (options.model !== undefined) {
		const m = modelName.safeParse(options.model);
		if (!m.success)
			throw importRejected([{ index: -1, field: 'model', reason: m.error.issues[0].message }], 0);
		defaultModel = m.data;
	}
	const wanted = options.matchBy ?? 'auto';
	const reads: FileRead[] = [];
	for (const given of files) {
		const file: ImportFile = { fileName: given.fileName, text: await readWholeFile(given) };
		const jsonl = /\.jsonl$/i.test(file.fileName) || looksLikeJsonl(file.text);
		const read = jsonl
			? fromJsonl(file, defaultModel, errors)
			: fromSubmission(file, defaultModel, errors);
		if (read.pending.length && wanted !== 'auto' && !read.carries.includes(wanted))
			errors.push({
				file: file.fileName,
				index: -1,
				field: '(file)',
				reason: `cannot be matched by ${MATCH_BY_LABELS[wanted]}: ${read.carries.length ? `its outputs carry ${read.carries.map((c) => MATCH_BY_LABELS[c]).join('; ')}` : 'its lines do not all carry the same identifier'}`
			});
		else if (read.pending.length && !read.carries.length)
			errors.push({
				file: file.fileName,
				index: -1,
				field: '(file)',
				reason: 'its lines name their items in different ways; give every line the same identifier'
			});
		reads.push(read);
	}
	const pending = reads.flatMap((r) => r.pending);
	// A response the database cannot store, or one far too long, is refused with its record.
	for (const p of pending) {
		for (const b of unstorableStrings(p.raw, 'response'))
			errors.push({ file: p.file, index: p.index, ...b });
		const shape = shapeProblem(p.raw);
		if (shape) errors.push({ file: p.file, index: p.index, field: 'response', reason: shape });
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
		const matches: FileMatch[] = reads.map((r) => ({
			file: r.file,
			by: wanted === 'auto' ? r.carries[0] : wanted,
			detected: wanted === 'auto'
		}));
		const plan = reads.flatMap((r, i) => r.pending.map((p) => ({ p, by: matches[i].by })));
		const resolved = await resolve(tx, ds.id, plan);
		// A record that matches no item whole may still name one by its paragraph id (a question
		// reworded since): say so, and leave the choice of identifier to the organiser.
		const misses = plan.filter((x, k) => x.by === 'record' && 'none' in resolved[k]);
		const hints = misses.length
			? await resolve(
					tx,
					ds.id,
					misses.map((x) => ({ p: x.p, by: 'source' as const }))
				)
			: [];
		const hint = new Map(
			misses.map((x, k) => {
				const h = hints[k];
				return [x.p, 'item' in h ? `; by its paragraph id it would be item ${h.item.id}` : ''];
			})
		);
		const matched: { p: Pending; item: Target }[] = [];
		const unmatched: RecordError[] = [];
		const repeats: RecordError[] = [];
		const seen = new Map<string, Pending>();
		plan.forEach(({ p, by }, k) => {
			const r = resolved[k];
			if ('several' in r) {
				errors.push({
					file: p.file,
					index: p.index,
					field: by === 'position' ? 'index' : by === 'source' ? 'source.paragraph_id' : 'item',
					reason: `${describe(p, by)} fits ${r.several.length} QA items (${r.several.map((t) => `item ${t.id}`).join(', ')}) in dataset "${ds.name}"; it is ambiguous, so nothing was imported: match by ${by === 'source' ? 'the whole QA record (submission files with inputs) or by type and position' : 'another identifier'}`,
					kind: 'ambiguous'
				});
				return;
			}
			if ('none' in r) {
				unmatched.push({
					file: p.file,
					index: p.index,
					field: by === 'position' ? 'index' : by === 'source' ? 'source.paragraph_id' : 'item',
					reason: `${describe(p, by)} matches no QA item in dataset "${ds.name}" (${r.none}${hint.get(p) ?? ''})`,
					kind: 'unmatched'
				});
				return;
			}
			const item = r.item;
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
				return;
			}
			seen.set(pairKey, p);
			matched.push({ p, item });
		});
		const skip = options.unmatched === 'skip';
		if (!skip) errors.push(...unmatched);
		if (errors.length) throw importRejected(errors, pending.length);
		if (!matched.length)
			throw importRejected(
				[...unmatched, { index: -1, field: '(file)', reason: 'no output matched a QA item' }],
				pending.length
			);
		const skipped: ImportWarning[] = unmatched.length
			? [
					importWarning(
						'unmatched_response',
						`${unmatched.length} output${unmatched.length === 1 ? '' : 's'} matched no QA item and ${unmatched.length === 1 ? 'was' : 'were'} not imported.`,
						unmatched
					)
				]
			: [];
		const warnings = [...duplicateRecordWarning(repeats, 'response'), ...skipped];

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
			after: {
				models,
				...counts,
				matchedBy: matches.map((m) => ({ file: m.file, by: m.by })),
				skipped: unmatched.length,
				warnings: warningCount(warnings)
			}
		});
		// The page lists every skipped output; the stored warning keeps the first of them.
		const shown = warnings.map((w) =>
			w.kind === 'unmatched_response' ? { ...w, records: unmatched } : w
		);
		return {
			importId: imp.id,
			total: matched.length,
			models,
			...counts,
			warnings: shown,
			matches,
			skipped: unmatched.length
		};
	});
	await refreshPlannerStatistics(db, counts.created + counts.updated, ['response']);
	return counts;
}

/**
 * Why an output is not one ClinIQLink reads as written, or null. An output is a string, an
 * object, or a chat or pipeline output: an array of objects (`[{"generated_text": "…"}]`). The
 * scorer would join an array of plain values with spaces, so `["x"]` would silently become "x"
 * and a list answer `["a", "b"]` the text "a b", which no longer reads as two options.
 */
function shapeProblem(raw: unknown): string | null {
	if (!Array.isArray(raw)) return null;
	const plain = raw.find((v) => v === null || typeof v !== 'object' || Array.isArray(v));
	if (plain === undefined) return null;
	const shown = JSON.stringify(raw);
	return `is an array holding ${Array.isArray(plain) ? 'an array' : plain === null ? 'null' : `a ${typeof plain}`} (${shown.length > 60 ? `${shown.slice(0, 57)}…` : shown}); an output is a string, an object, or a chat output (an array of objects such as [{"generated_text": "…"}]), so give the output as the text itself`;
}

function looksLikeJsonl(text: string): boolean {
	const first = text.trimStart().split(/\r?\n/, 1)[0] ?? '';
	try {
		const v = parseJsonText(first);
		return (
			!!v &&
			typeof v === 'object' &&
			!Array.isArray(v) &&
			('item' in v || 'paragraph_id' in v || 'index' in v || ('source' in v && 'response' in v))
		);
	} catch {
		return false;
	}
}
