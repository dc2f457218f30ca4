import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chunk } from '../../db/chunk';
import { importRecord, questionSet, setQuestion } from '../../db/schema';
import { DomainError } from '../../errors';
import { TEXT_LIMITS } from '../../../schemas/text';
import { recordAudit } from '../audit';
import {
	warningCount,
	type ImportActor,
	type ImportCounts,
	type ReadableFile,
	type RecordError
} from '../imports';
import { RecordChecks } from './checks';
import { checkQuestion, type QuestionFields } from './fields';
import { readRecords } from './records';
import { checkSetName } from './sets';

export interface QuestionImportOptions {
	/** The set to create, or to add the questions to. */
	setName: string;
	/** The set's description; given for an existing set, it replaces the old one. */
	description?: string;
	actor: ImportActor;
}

/**
 * Imports the questions of a set all-or-nothing, in one transaction: creates the set when it is
 * new, else adds to it; a question whose id the set holds is left unchanged when identical and
 * updated when not. Any bad record rejects the import (every problem listed) and nothing is
 * written.
 */
export async function importQuestions(
	db: Db,
	files: ReadableFile[],
	options: QuestionImportOptions
): Promise<ImportCounts & { setId: number; setCreated: boolean }> {
	const name = checkSetName(options.setName);
	const description = options.description?.trim() ?? '';
	if (description.length > TEXT_LIMITS.field)
		throw new DomainError(
			'invalid',
			`A description is at most ${TEXT_LIMITS.field.toLocaleString('en')} characters.`,
			{ field: 'description' }
		);

	const checks = new RecordChecks<QuestionFields>('question', 'id');
	const fileErrors: RecordError[] = [];
	const raws = await readRecords(files, 'questions', fileErrors);
	checks.noteFileErrors(fileErrors);
	for (const raw of raws)
		checks.add(raw, checkQuestion, (f) => ({
			key: f.externalId,
			label: `the id "${f.externalId}"`
		}));
	const rejected = checks.rejection();
	if (rejected) throw rejected;
	const warnings = checks.warnings();
	const fileName = files.map((f) => f.fileName).join(', ');

	return db.transaction(async (tx) => {
		const [made] = await tx
			.insert(questionSet)
			.values({ name, description, createdBy: options.actor.userId })
			.onConflictDoNothing({ target: questionSet.name })
			.returning();
		const set = made ?? (await tx.select().from(questionSet).where(eq(questionSet.name, name)))[0];
		if (!made && options.description !== undefined && description !== set.description)
			await tx.update(questionSet).set({ description }).where(eq(questionSet.id, set.id));

		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'questions',
				fileName,
				createdBy: options.actor.userId,
				actor: options.actor.label,
				warnings
			})
			.returning({ id: importRecord.id });

		const existing = new Map<string, string>();
		for (const part of chunk(checks.accepted, 1000)) {
			const rows = await tx
				.select({ externalId: setQuestion.externalId, hash: setQuestion.contentHash })
				.from(setQuestion)
				.where(
					and(
						eq(setQuestion.questionSetId, set.id),
						inArray(
							setQuestion.externalId,
							part.map((a) => a.fields.externalId)
						)
					)
				);
			for (const r of rows) existing.set(r.externalId, r.hash);
		}
		let created = 0;
		let updated = 0;
		const changed = checks.accepted.filter((a) => {
			const prev = existing.get(a.fields.externalId);
			if (prev === undefined) created++;
			else if (prev !== a.hash) updated++;
			return prev !== a.hash;
		});
		for (const batch of chunk(changed)) {
			await tx
				.insert(setQuestion)
				.values(
					batch.map((a) => ({
						questionSetId: set.id,
						...a.fields,
						documents: sql`${JSON.stringify(a.fields.documents)}::jsonb`,
						record: sql`${JSON.stringify(a.raw.value)}::jsonb`,
						contentHash: a.hash,
						importId: imp.id
					}))
				)
				.onConflictDoUpdate({
					target: [setQuestion.questionSetId, setQuestion.externalId],
					set: {
						question: sql`excluded.question`,
						context: sql`excluded.context`,
						referenceAnswer: sql`excluded.reference_answer`,
						documents: sql`excluded.documents`,
						record: sql`excluded.record`,
						contentHash: sql`excluded.content_hash`,
						importId: sql`excluded.import_id`,
						updatedAt: new Date()
					}
				});
		}
		const counts = { created, updated, unchanged: checks.accepted.length - created - updated };
		await tx.update(importRecord).set(counts).where(eq(importRecord.id, imp.id));
		if (made)
			await recordAudit(tx, {
				actorId: options.actor.userId,
				action: 'question_set.create',
				objectType: 'question_set',
				objectId: set.id,
				after: { name, description }
			});
		await recordAudit(tx, {
			actorId: options.actor.userId,
			action: 'import.questions',
			objectType: 'import',
			objectId: imp.id,
			after: { fileName, set: name, ...counts, warnings: warningCount(warnings) }
		});
		return {
			importId: imp.id,
			setId: set.id,
			setCreated: !!made,
			total: checks.accepted.length,
			...counts,
			warnings
		};
	});
}
