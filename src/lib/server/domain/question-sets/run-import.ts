// The run import: BioGen runs (answers to a set's topics with the PubMed abstracts each sentence
// cites) become one set response per (topic, run) and its numbered sentences. The format is
// detected per file; every record is checked before anything is written, then everything is
// written in one transaction.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { chunk } from '../../db/chunk';
import { refreshPlannerStatistics } from '../../db/planner-statistics';
import {
	document,
	evidenceAnswerSentence,
	importRecord,
	model,
	questionSet,
	setQuestion,
	setResponse
} from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import {
	duplicateKeyErrors,
	importRejected,
	importWarning,
	JsonFormError,
	MAX_RECORD_CHARS,
	parseJsonText,
	readWholeFile,
	warningCount,
	type ImportActor,
	type ImportCounts,
	type ImportWarning,
	type ReadableFile,
	type RecordError
} from '../imports';
import { RecordChecks } from './checks';
import { readRecords, type RawRecord } from './records';
import { checkRunRecord, RUN_FORMAT_LABELS, type RunFields, type RunFormat } from './run-fields';
import { changedResponses } from './response-import';
import { checkSetName, findSet } from './sets';

export { RUN_FORMAT_LABELS, type RunFormat };

export interface RunImportOptions {
	/** The set whose topics the runs answer: by id, or by name. */
	setId?: number;
	setName?: string;
	/**
	 * Cited PMIDs without an imported abstract: reject the import (the default), or keep them and
	 * let assessors see "document not available".
	 */
	missingDocuments?: 'reject' | 'keep';
}

export interface RunImportResult extends ImportCounts {
	setId: number;
	/** The runs, as models, by name. */
	models: string[];
	/** The format detected for each file. */
	formats: { file: string; format: RunFormat }[];
	/** Sentences written (of the answers created or updated). */
	sentences: number;
	/** Cited PMIDs without an imported abstract (kept only with `missingDocuments: 'keep'`). */
	missingDocuments: string[];
}

/** How many missing PMIDs a message names. */
const PMIDS_NAMED = 20;

const fileProblem = (file: string, field: string, reason: string) =>
	importRejected([{ file, index: -1, field, reason }], 0);

const FORMS =
	'must be a BioGen 2024 run ({"team_id", "run_name", "results": […]}) or JSON Lines of BioGen 2025 answers ({"metadata", "responses"} or {"metadata", "answers"})';

const isObject = (v: unknown): v is Record<string, unknown> =>
	!!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The whole file as one JSON object, or undefined when it is not one (JSON Lines, or an array):
 * a 2024 run, or a 2025 file of a single line, whatever the file's extension.
 */
function wholeValue(file: string, text: string): unknown {
	if (!/^\s*\{/.test(text)) return undefined;
	try {
		return parseJsonText(text);
	} catch (e) {
		if (!(e instanceof JsonFormError)) throw e;
		if (e.limit) throw fileProblem(file, '(file)', e.message);
		return undefined;
	}
}

const tooLong = (file: string, index: number): RecordError => ({
	file,
	index,
	field: '(record)',
	reason: `is longer than ${MAX_RECORD_CHARS.toLocaleString('en')} characters, the most one record may hold`
});

/** A 2024 run: its results, each with the file's team_id and run_name. */
function results2024(
	file: string,
	text: string,
	run: Record<string, unknown>,
	errors: RecordError[]
): RawRecord[] {
	if (!Array.isArray(run.results)) throw fileProblem(file, 'results', FORMS);
	const header = { team_id: run.team_id, run_name: run.run_name };
	errors.push(
		...duplicateKeyErrors(text, file, (path) =>
			path[0] === 'results' && typeof path[1] === 'number'
				? { index: path[1], path: path.slice(2) }
				: { index: -1, path }
		)
	);
	const out: RawRecord[] = [];
	run.results.forEach((result: unknown, index) => {
		if (JSON.stringify(result).length > MAX_RECORD_CHARS) errors.push(tooLong(file, index));
		else out.push({ file, index, value: isObject(result) ? { ...header, ...result } : result });
	});
	return out;
}

/** One file's records and its format. */
async function readRunFile(
	given: ReadableFile,
	errors: RecordError[]
): Promise<{ format: RunFormat; records: RawRecord[] }> {
	const text = await readWholeFile(given);
	const file = given.fileName;
	if (!text.trim()) throw fileProblem(file, '(file)', 'is empty');
	const whole = wholeValue(file, text);
	if (isObject(whole) && 'results' in whole)
		return { format: 'biogen2024', records: results2024(file, text, whole, errors) };
	if (whole !== undefined && !(isObject(whole) && 'metadata' in whole))
		throw fileProblem(file, '(file)', FORMS);
	let records: RawRecord[];
	if (whole === undefined)
		records = await readRecords([{ fileName: file, text }], 'answers', errors);
	else if (text.trim().length > MAX_RECORD_CHARS) {
		errors.push(tooLong(file, 0));
		records = [];
	} else records = [{ file, index: 0, value: whole }];
	const first = records.find((r) => isObject(r.value))?.value as Record<string, unknown>;
	return { format: first && 'answers' in first ? 'biogen2025a' : 'biogen2025b', records };
}

/** The set named by id or name, or a DomainError naming the `set` field. */
async function setOf(tx: Tx, options: RunImportOptions) {
	if (options.setId !== undefined) {
		const [set] = await tx.select().from(questionSet).where(eq(questionSet.id, options.setId));
		if (set) return set;
		throw new DomainError('invalid', 'Choose a question set.', { field: 'set' });
	}
	const name = checkSetName(options.setName ?? '');
	const set = await findSet(tx, name);
	if (!set)
		throw new DomainError(
			'invalid',
			`There is no question set named "${name}"; import its topics first.`,
			{ field: 'set' }
		);
	return set;
}

/** PMIDs (canonical) with an imported abstract, of those given. */
async function storedPmids(tx: Tx, pmids: string[]): Promise<Set<string>> {
	const out = new Set<string>();
	for (const part of chunk(pmids, 1000)) {
		const rows = await tx
			.select({ pmid: document.pmid })
			.from(document)
			.where(inArray(document.pmid, part));
		for (const r of rows) out.add(r.pmid);
	}
	return out;
}

const namedPmids = (pmids: string[]) =>
	`${pmids.slice(0, PMIDS_NAMED).join(', ')}${pmids.length > PMIDS_NAMED ? `, … (${pmids.length} in all)` : ''}`;

/**
 * Imports BioGen runs all-or-nothing, in one transaction: each file's format is detected (2024,
 * 2025 task A or B); each run becomes a model (created by name), each (topic, run) one set
 * response with its sentences and their citations (2025 task A: also what the run claimed of
 * them). An answer the set holds is left unchanged when identical and replaced, sentences and
 * all, when not. A record naming a topic the set does not have rejects the import; so do cited
 * PMIDs without an imported abstract, unless `missingDocuments` is 'keep' (then a warning).
 */
export async function importRuns(
	db: Db,
	files: ReadableFile[],
	options: RunImportOptions,
	actor: ImportActor
): Promise<RunImportResult> {
	if (!files.length)
		throw new DomainError('invalid', 'Choose at least one run file.', { field: 'files' });
	const checks = new RecordChecks<RunFields>('answer', 'topic_id');
	const fileErrors: RecordError[] = [];
	const formats: RunImportResult['formats'] = [];
	for (const file of files) {
		const { format, records } = await readRunFile(file, fileErrors);
		formats.push({ file: file.fileName, format });
		checks.noteFileErrors(fileErrors.splice(0));
		for (const raw of records)
			checks.add(
				raw,
				(r, errors) => checkRunRecord(format, r, errors),
				(f) => ({
					key: `${f.run}\u0000${f.topicId}`,
					label: `the answer of run "${f.run}" to topic "${f.topicId}"`
				})
			);
	}
	const rejected = checks.rejection();
	if (rejected) throw rejected;
	const warnings: ImportWarning[] = checks.warnings();
	const uncited = checks.accepted.filter((a) => a.fields.uncited.length);
	if (uncited.length)
		warnings.push(
			importWarning(
				'uncited_reference',
				`${uncited.length} answer${uncited.length === 1 ? ' lists' : 's list'} references not cited in the text; only the PMIDs cited inline are kept with the sentences.`,
				uncited.map((a) => ({
					file: a.raw.file,
					index: a.raw.index,
					field: 'references',
					reason: `PMIDs ${namedPmids(a.fields.uncited)} are not cited in the answer`
				}))
			)
		);
	const fileName = files.map((f) => f.fileName).join(', ');

	const result = await db.transaction(async (tx) => {
		const set = await setOf(tx, options);
		const questionIds = new Map<string, number>();
		const wanted = [...new Set(checks.accepted.map((a) => a.fields.topicId))];
		for (const part of chunk(wanted, 1000)) {
			const rows = await tx
				.select({ id: setQuestion.id, externalId: setQuestion.externalId })
				.from(setQuestion)
				.where(and(eq(setQuestion.questionSetId, set.id), inArray(setQuestion.externalId, part)));
			for (const r of rows) questionIds.set(r.externalId, r.id);
		}
		const unknown = checks.accepted
			.filter((a) => !questionIds.has(a.fields.topicId))
			.map((a): RecordError => ({
				file: a.raw.file,
				index: a.raw.index,
				field: a.fields.topicField,
				reason: `names topic "${a.fields.topicId}", which set "${set.name}" does not have`
			}));
		if (unknown.length) throw checks.rejectWith(unknown);

		const cited = [
			...new Set(checks.accepted.flatMap((a) => a.fields.sentences.flatMap((s) => s.citations)))
		];
		const stored = await storedPmids(tx, cited);
		const missing = cited.filter((p) => !stored.has(p));
		const citing = checks.accepted
			.map((a) => ({
				a,
				pmids: [
					...new Set(a.fields.sentences.flatMap((s) => s.citations.filter((p) => !stored.has(p))))
				]
			}))
			.filter((c) => c.pmids.length)
			.map(({ a, pmids }): RecordError => ({
				file: a.raw.file,
				index: a.raw.index,
				field: a.fields.topicField === 'topic_id' ? 'answer' : 'citations',
				reason: `cites ${namedPmids(pmids)}, not imported as documents`
			}));
		if (missing.length && options.missingDocuments !== 'keep')
			throw new DomainError(
				'invalid',
				`Import rejected: ${missing.length} cited PMID${missing.length === 1 ? ' has' : 's have'} no imported abstract (${namedPmids(missing)}). Import their abstracts first (documents), or choose to keep them: assessors then see "document not available". Nothing was imported.`,
				{ field: 'missingDocuments', records: citing }
			);
		if (missing.length)
			warnings.push(
				importWarning(
					'missing_document',
					`${missing.length} cited PMID${missing.length === 1 ? ' has' : 's have'} no imported abstract (${namedPmids(missing)}); assessors see "document not available" for them until their abstracts are imported.`,
					citing
				)
			);

		const models = [...new Set(checks.accepted.map((a) => a.fields.run))];
		await tx
			.insert(model)
			.values(models.map((m) => ({ name: m })))
			.onConflictDoNothing();
		const modelRows = await tx.select().from(model).where(inArray(model.name, models));
		const modelId = new Map(modelRows.map((m) => [m.name, m.id]));

		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'runs',
				fileName,
				createdBy: actor.userId,
				actor: actor.label,
				modelName: models.join(', '),
				warnings
			})
			.returning({ id: importRecord.id });

		const rows = checks.accepted.map((a) => ({
			setQuestionId: questionIds.get(a.fields.topicId)!,
			modelId: modelId.get(a.fields.run)!,
			text: a.fields.text,
			record: a.raw.value,
			contentHash: a.hash,
			importId: imp.id,
			sentences: a.fields.sentences
		}));
		const { changed, created, updated } = await changedResponses(tx, rows);
		let sentences = 0;
		for (const batch of chunk(changed)) {
			const written = await tx
				.insert(setResponse)
				.values(
					batch.map(({ sentences: _, ...r }) => ({
						...r,
						record: sql`${JSON.stringify(r.record)}::jsonb`
					}))
				)
				.onConflictDoUpdate({
					target: [setResponse.setQuestionId, setResponse.modelId],
					set: {
						text: sql`excluded.text`,
						record: sql`excluded.record`,
						contentHash: sql`excluded.content_hash`,
						importId: sql`excluded.import_id`,
						updatedAt: new Date()
					}
				})
				.returning({
					id: setResponse.id,
					questionId: setResponse.setQuestionId,
					modelId: setResponse.modelId
				});
			const idOf = new Map(written.map((w) => [`${w.questionId}:${w.modelId}`, w.id]));
			await tx.delete(evidenceAnswerSentence).where(
				inArray(
					evidenceAnswerSentence.setResponseId,
					written.map((w) => w.id)
				)
			);
			const sentenceRows = batch.flatMap((r) =>
				r.sentences.map((s, i) => ({
					setResponseId: idOf.get(`${r.setQuestionId}:${r.modelId}`)!,
					position: i + 1,
					text: s.text,
					citations: s.citations,
					claimed: s.claimed
				}))
			);
			for (const part of chunk(sentenceRows, 1000))
				await tx.insert(evidenceAnswerSentence).values(part);
			sentences += sentenceRows.length;
		}
		const counts = { created, updated, unchanged: rows.length - created - updated };
		await tx.update(importRecord).set(counts).where(eq(importRecord.id, imp.id));
		await recordAudit(tx, {
			actorId: actor.userId,
			action: 'import.runs',
			objectType: 'import',
			objectId: imp.id,
			after: {
				fileName,
				set: set.name,
				models,
				formats: formats.map((f) => f.format),
				...counts,
				sentences,
				missingDocuments: missing.length,
				warnings: warningCount(warnings)
			}
		});
		return {
			importId: imp.id,
			setId: set.id,
			total: rows.length,
			models,
			formats,
			sentences,
			missingDocuments: missing,
			...counts,
			warnings
		};
	});
	await refreshPlannerStatistics(db, result.sentences, [
		'evidence_answer_sentence',
		'set_response'
	]);
	return result;
}
