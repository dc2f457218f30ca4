import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { chunk } from '../../db/chunk';
import { importRecord, model, setQuestion, setResponse } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import {
	warningCount,
	type ImportActor,
	type ImportCounts,
	type ReadableFile,
	type RecordError
} from '../imports';
import { RecordChecks } from './checks';
import { checkResponse, type ResponseFields } from './fields';
import { readRecords } from './records';
import { checkSetName, findSet } from './sets';

/**
 * Imports models' responses to the questions of a set all-or-nothing, in one transaction: each
 * record names its question by the id the set's file gave it, and its model by name (a model new
 * to the portal is created). A (question, model) pair the set holds is left unchanged when
 * identical and updated when not. The response text is stored as given. A bad record, or one
 * naming a question the set does not have, rejects the import and nothing is written.
 */
export async function importSetResponses(
	db: Db,
	files: ReadableFile[],
	options: { setName: string; actor: ImportActor }
): Promise<ImportCounts & { setId: number; models: string[] }> {
	const name = checkSetName(options.setName);
	const checks = new RecordChecks<ResponseFields>('response', 'question_id');
	const fileErrors: RecordError[] = [];
	const raws = await readRecords(files, 'responses', fileErrors);
	checks.noteFileErrors(fileErrors);
	for (const raw of raws)
		checks.add(raw, checkResponse, (f) => ({
			key: `${f.questionId}\u0000${f.model}`,
			label: `the response of model "${f.model}" to question "${f.questionId}"`
		}));
	const rejected = checks.rejection();
	if (rejected) throw rejected;
	const warnings = checks.warnings();
	const fileName = files.map((f) => f.fileName).join(', ');

	return db.transaction(async (tx) => {
		const set = await findSet(tx, name);
		if (!set)
			throw new DomainError(
				'invalid',
				`There is no question set named "${name}"; import its questions first.`,
				{ field: 'set' }
			);
		const questionIds = new Map<string, number>();
		const wanted = [...new Set(checks.accepted.map((a) => a.fields.questionId))];
		for (const part of chunk(wanted, 1000)) {
			const rows = await tx
				.select({ id: setQuestion.id, externalId: setQuestion.externalId })
				.from(setQuestion)
				.where(and(eq(setQuestion.questionSetId, set.id), inArray(setQuestion.externalId, part)));
			for (const r of rows) questionIds.set(r.externalId, r.id);
		}
		const unknown = checks.accepted
			.filter((a) => !questionIds.has(a.fields.questionId))
			.map((a): RecordError => ({
				file: a.raw.file,
				index: a.raw.index,
				field: 'question_id',
				reason: `names question "${a.fields.questionId}", which set "${name}" does not have`
			}));
		if (unknown.length) throw checks.rejectWith(unknown);

		const models = [...new Set(checks.accepted.map((a) => a.fields.model))];
		await tx
			.insert(model)
			.values(models.map((m) => ({ name: m })))
			.onConflictDoNothing();
		const modelRows = await tx.select().from(model).where(inArray(model.name, models));
		const modelId = new Map(modelRows.map((m) => [m.name, m.id]));

		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'set_responses',
				fileName,
				createdBy: options.actor.userId,
				actor: options.actor.label,
				modelName: models.join(', '),
				warnings
			})
			.returning({ id: importRecord.id });

		const rows = checks.accepted.map((a) => ({
			setQuestionId: questionIds.get(a.fields.questionId)!,
			modelId: modelId.get(a.fields.model)!,
			text: a.fields.text,
			record: a.raw.value,
			contentHash: a.hash,
			importId: imp.id
		}));
		const { changed, created, updated } = await changedResponses(tx, rows);
		for (const batch of chunk(changed)) {
			await tx
				.insert(setResponse)
				.values(batch.map((r) => ({ ...r, record: sql`${JSON.stringify(r.record)}::jsonb` })))
				.onConflictDoUpdate({
					target: [setResponse.setQuestionId, setResponse.modelId],
					set: {
						text: sql`excluded.text`,
						record: sql`excluded.record`,
						contentHash: sql`excluded.content_hash`,
						importId: sql`excluded.import_id`,
						updatedAt: new Date()
					}
				});
		}
		const counts = { created, updated, unchanged: rows.length - created - updated };
		await tx.update(importRecord).set(counts).where(eq(importRecord.id, imp.id));
		await recordAudit(tx, {
			actorId: options.actor.userId,
			action: 'import.set_responses',
			objectType: 'import',
			objectId: imp.id,
			after: { fileName, set: name, models, ...counts, warnings: warningCount(warnings) }
		});
		return { importId: imp.id, setId: set.id, total: rows.length, models, ...counts, warnings };
	});
}

/**
 * The answers of `rows` that are new or differ from what is stored (by content hash) for their
 * (question, model), with how many are created and how many updated.
 */
export async function changedResponses<
	R extends { setQuestionId: number; modelId: number; contentHash: string }
>(tx: Tx, rows: R[]): Promise<{ changed: R[]; created: number; updated: number }> {
	const existing = new Map<string, string>();
	for (const part of chunk(rows, 1000)) {
		const found = await tx
			.select({
				questionId: setResponse.setQuestionId,
				modelId: setResponse.modelId,
				hash: setResponse.contentHash
			})
			.from(setResponse)
			.where(
				and(
					inArray(
						setResponse.setQuestionId,
						part.map((r) => r.setQuestionId)
					),
					inArray(setResponse.modelId, [...new Set(part.map((r) => r.modelId))])
				)
			);
		for (const r of found) existing.set(`${r.questionId}:${r.modelId}`, r.hash);
	}
	let created = 0;
	let updated = 0;
	const changed = rows.filter((r) => {
		const prev = existing.get(`${r.setQuestionId}:${r.modelId}`);
		if (prev === undefined) created++;
		else if (prev !== r.contentHash) updated++;
		return prev !== r.contentHash;
	});
	return { changed, created, updated };
}
