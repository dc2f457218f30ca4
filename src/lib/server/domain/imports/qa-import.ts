import { eq, sql } from 'drizzle-orm';
import {
	typeFromFileName,
	validateQaRecord,
	WARNING_RECORDS_KEPT,
	type QaRecord,
	type RecordError
} from '../../../schemas/qa-record';
import type { QaType } from '../../../constants';
import { rowsOf, type Db, type Tx } from '../../db/client';
import { importRecord } from '../../db/schema';
import { recordAudit } from '../audit';
import { contentHash, ensureDataset, itemKey, typedFields } from '../items';
import {
	duplicateKeyErrors,
	duplicateRecordWarning,
	importRejected,
	importWarning,
	warningCount,
	type ImportCounts,
	type ImportWarning
} from './import-errors';
import {
	JsonFormError,
	piecesOf,
	recordTexts,
	textPieces,
	type JsonForm,
	type RecordText
} from './json-records';
import { sampleImportedItems } from '../verification';
import { refreshPlannerStatistics } from '../../db/planner-statistics';

/** A file whose whole text is at hand. */
export interface ImportFile {
	fileName: string;
	text: string;
}

/** A file read as it arrives (an upload, a file on disk): its bytes (UTF-8) or text in chunks. */
export interface StreamedFile {
	fileName: string;
	chunks: AsyncIterable<Uint8Array | string>;
}

/** A QA file: a JSON array of records (`*.json`) or JSON Lines (`*.jsonl`, `*.ndjson`). */
export type QaImportFile = ImportFile | StreamedFile;

export interface ImportActor {
	userId: string | null;
	/** How the actor is shown when there is no user (e.g. `cli (alice)`). */
	label: string;
}

export interface QaImportOptions {
	actor: ImportActor;
	dataset?: string;
	/** Called after each batch is written, with the records written so far. */
	onProgress?: (done: number) => void;
}

/**
 * Records written per statement, and the most characters of rows one statement carries. The rows
 * travel as one JSON parameter, so no parameter limit applies; the bounds keep the memory a batch
 * takes small while making round trips few (25 for 50,000 records).
 */
const BATCH_RECORDS = 2000;
const BATCH_CHARS = 4_000_000;

/** The form of a QA file, from its name. */
export function qaFileForm(fileName: string): JsonForm {
	return /\.(jsonl|ndjson)$/i.test(fileName) ? 'lines' : 'array';
}

function fileProblem(fileName: string, e: JsonFormError): RecordError {
	return e.notArray || e.limit
		? { file: fileName, index: -1, field: '(file)', reason: e.message }
		: { index: -1, field: '(file)', reason: `${fileName} is not valid JSON: ${e.message}` };
}

/**
 * The records of a QA file, a few at a time, each parsed on its own (a JSON array's entries,
 * with one level of nested arrays flattened; or the lines of JSON Lines). A file that is not JSON
 * of its form rejects the import.
 */
export async function* recordsOfFile(
	file: QaImportFile
): AsyncGenerator<{ index: number; value: unknown; text: string }[]> {
	const pieces =
		'text' in file ? piecesOf(file.text.replace(/^\uFEFF/, '')) : textPieces(file.chunks);
	try {
		for await (const texts of recordTexts(pieces, qaFileForm(file.fileName))) {
			yield texts.map((t) => ({ ...t, value: parseRecord(t) }));
		}
	} catch (e) {
		if (e instanceof JsonFormError) throw importRejected([fileProblem(file.fileName, e)], 0);
		throw e;
	}
}

function parseRecord(record: RecordText): unknown {
	try {
		return JSON.parse(record.text);
	} catch (e) {
		throw new JsonFormError(`${(e as Error).message} (record ${record.index + 1})`);
	}
}

/** A record that passed validation, ready to be written. */
interface Prepared {
	key: string;
	hash: string;
	record: QaRecord;
	file: string;
	index: number;
}

/**
 * Validates records one at a time, as they are read: every problem of every record (zod, keys
 * written twice), and records repeated in the import. A record repeated with identical content is
 * imported once (a warning names it); repeated with different content it is ambiguous.
 */
export class QaRecordCheck {
	readonly errors: RecordError[] = [];
	/** Records read, repeats included. */
	total = 0;
	/** Distinct records accepted. */
	accepted = 0;
	private readonly repeats: RecordError[] = [];
	private repeatCount = 0;
	private readonly seen = new Map<string, { hash: string; file: string; index: number }>();

	/** The record ready to write, or null (invalid, or a repeat). */
	check(
		file: string,
		fallback: QaType | undefined,
		raw: { index: number; value: unknown; text: string }
	): Prepared | null {
		const { index } = raw;
		this.total++;
		this.errors.push(...duplicateKeyErrors(raw.text, file, (path) => ({ index, path }), raw.value));
		const result = validateQaRecord(raw.value, index, fallback);
		if (!result.ok) {
			for (const e of result.errors) this.errors.push({ ...e, file });
			return null;
		}
		const record = result.record;
		const key = itemKey(record.type, record.source.paragraph_id, record.question);
		const hash = contentHash(record);
		const seen = this.seen.get(key);
		if (seen) {
			const earlier = `record ${seen.index + 1}${seen.file !== file ? ` in ${seen.file}` : ''}`;
			if (seen.hash !== hash) {
				this.errors.push({
					file,
					index,
					field: 'question',
					reason: `repeats the question of ${earlier} with different content`,
					kind: 'conflicting_duplicate'
				});
			} else {
				this.repeatCount++;
				if (this.repeats.length < WARNING_RECORDS_KEPT)
					this.repeats.push({
						file,
						index,
						field: 'question',
						reason: `repeats ${earlier} exactly; imported once`
					});
			}
			return null;
		}
		this.seen.set(key, { hash, file, index });
		this.accepted++;
		return { key, hash, record, file, index };
	}

	/** The rejection of the import when any record was bad (or there were none), else null. */
	rejection() {
		if (this.total === 0 && this.errors.length === 0) {
			this.errors.push({ index: -1, field: '(file)', reason: 'contains no records' });
		}
		return this.errors.length ? importRejected(this.errors, this.total) : null;
	}

	warnings(): ImportWarning[] {
		return duplicateRecordWarning(this.repeats, 'record', this.repeatCount);
	}
}

/** How many missing paragraph ids the warning's sentence names. */
const MISSING_IDS_NAMED = 10;

/** The QA pairs whose paragraph has no imported passage, gathered batch by batch. */
class MissingPassages {
	private readonly records: RecordError[] = [];
	private count = 0;
	private readonly ids = new Set<string>();
	private readonly named: string[] = [];

	add(p: Prepared) {
		const id = p.record.source.paragraph_id;
		this.count++;
		if (!this.ids.has(id)) {
			this.ids.add(id);
			if (this.named.length < MISSING_IDS_NAMED) this.named.push(id);
		}
		if (this.records.length < WARNING_RECORDS_KEPT)
			this.records.push({
				file: p.file,
				index: p.index,
				field: 'source.paragraph_id',
				reason: `cites "${id}", which has no imported passage`
			});
	}

	warnings(): ImportWarning[] {
		if (!this.count) return [];
		const more =
			this.ids.size > MISSING_IDS_NAMED ? ` and ${this.ids.size - MISSING_IDS_NAMED} more` : '';
		const pairs = this.count === 1 ? '1 QA pair cites' : `${this.count} QA pairs cite`;
		const cited = this.ids.size === 1 ? 'a paragraph id' : `${this.ids.size} paragraph ids`;
		return [
			importWarning(
				'missing_passage',
				`${pairs} ${cited} with no imported passage: ${this.named.join(', ')}${more}. They are imported; reviewers cannot see their source until the passages are.`,
				this.records,
				this.count
			)
		];
	}
}

/**
 * One record as the batch statement reads it (json_to_recordset), its null fields left out (a
 * missing field reads as null) to keep the text short.
 */
function batchRow(p: Prepared, n: number): Record<string, unknown> {
	const f = typedFields(p.record);
	const row: Record<string, unknown> = {
		n,
		key: p.key,
		hash: p.hash,
		file: p.file,
		record: p.record,
		type: f.type,
		question: f.question,
		answer: f.answer,
		answer_list: f.answerList,
		options: f.options,
		correct_answer: f.correctAnswer,
		reasoning: f.reasoning,
		false_answer: f.falseAnswer,
		incorrect_explanation: f.incorrectExplanation,
		incorrect_step: f.incorrectStep,
		incorrect_step_explanation: f.incorrectStepExplanation,
		source_isbn: f.sourceIsbn,
		source_page: f.sourcePage,
		paragraph_id: f.paragraphId
	};
	for (const key in row) if (row[key] === null) delete row[key];
	return row;
}

/**
 * Writes one batch in one statement: finds which records are new, changed or unchanged (by
 * content key and hash in the dataset); creates the new items with their first version and gives
 * changed items their next version, each item pointing at its current version as it is written
 * (ids are drawn from the tables' sequences first, so no row is written twice); and names the
 * records whose paragraph has no passage. Unchanged records write nothing.
 */
function batchStatement(rows: string, datasetId: number, importId: number, seq: Sequences) {
	return sql`
		with r as materialized (
			select * from json_to_recordset(${rows}::json) as r(
				n int, key text, hash text, file text, record json, type qa_type, question text,
				answer text, answer_list json, options json, correct_answer text, reasoning json,
				false_answer text, incorrect_explanation text, incorrect_step int,
				incorrect_step_explanation text, source_isbn text, source_page int, paragraph_id text)
		),
		found as materialized (
			select r.n, i.id, i.current_version, v.content_hash = r.hash as same
			from r
			join qa_item i on i.dataset_id = ${datasetId}::int and i.item_key = r.key
			join qa_item_version v on v.id = i.current_version_id
		),
		fresh as materialized (
			select f.*, nextval(${seq.items}::regclass)::int as item_id,
				nextval(${seq.versions}::regclass)::int as version_id
			from (select * from r where not exists (select 1 from found x where x.n = r.n)
				order by r.n) f
		),
		changed as materialized (
			select c.*, nextval(${seq.versions}::regclass)::int as version_id
			from (select r.*, x.id as item_id, x.current_version + 1 as version
				from r join found x on x.n = r.n where not x.same order by r.n) c
		),
		created_items as (
			insert into qa_item (id, dataset_id, item_key, type, paragraph_id, question,
				current_version_id, current_version, first_import_id, last_import_id)
			overriding system value
			select item_id, ${datasetId}::int, key, type, paragraph_id, question, version_id, 1,
				${importId}::int, ${importId}::int
			from fresh
		),
		moved_items as (
			update qa_item i set current_version = c.version, current_version_id = c.version_id,
				question = c.question, last_import_id = ${importId}::int, updated_at = now()
			from changed c where i.id = c.item_id
		),
		versions as (
			insert into qa_item_version (id, item_id, version, reason, record, content_hash, origin,
				import_id, ${typedColumns})
			overriding system value
			select version_id, item_id, 1, null, record::jsonb, hash, 'import', ${importId}::int,
				${typedValues}
			from fresh
			union all
			select version_id, item_id, version, 're-imported from ' || file, record::jsonb, hash,
				'import', ${importId}::int, ${typedValues}
			from changed
		)
		select (select count(*) from fresh)::int as created,
			(select count(*) from changed)::int as updated,
			(select coalesce(json_agg(r.n order by r.n), '[]'::json) from r
				where not exists (select 1 from passage p where p.paragraph_id = r.paragraph_id))
				as missing`;
}

/** The version columns derived from the record (typedFields), named as the batch rows name them. */
const typedColumns = sql.raw(
	'type, question, answer, answer_list, options, correct_answer, reasoning, false_answer, ' +
		'incorrect_explanation, incorrect_step, incorrect_step_explanation, source_isbn, ' +
		'source_page, paragraph_id'
);
/** Their values in a batch row (JSON arrays are read as json, stored as jsonb). */
const typedValues = sql.raw(
	'type, question, answer, answer_list::jsonb, options::jsonb, correct_answer, ' +
		'reasoning::jsonb, false_answer, incorrect_explanation, incorrect_step, ' +
		'incorrect_step_explanation, source_isbn, source_page, paragraph_id'
);

/** The identity sequences item and version ids are drawn from. */
interface Sequences {
	items: string;
	versions: string;
}

async function sequences(tx: Tx): Promise<Sequences> {
	const [row] = rowsOf<Sequences>(
		await tx.execute(sql`
			select pg_get_serial_sequence('qa_item', 'id') as items,
				pg_get_serial_sequence('qa_item_version', 'id') as versions`)
	);
	return row;
}

/**
 * Writes validated records in batches, one statement each, while the next batch is read and
 * checked: at most one batch waits for the database at a time.
 */
class QaBatchWriter {
	created = 0;
	updated = 0;
	unchanged = 0;
	readonly missing = new MissingPassages();
	private batch: Prepared[] = [];
	private rows: string[] = [];
	private chars = 0;
	private inFlight: Promise<void> | null = null;

	constructor(
		private readonly tx: Tx,
		private readonly datasetId: number,
		private readonly importId: number,
		private readonly seq: Sequences,
		private readonly onProgress?: (done: number) => void
	) {}

	async add(p: Prepared) {
		const row = JSON.stringify(batchRow(p, this.batch.length));
		this.batch.push(p);
		this.rows.push(row);
		this.chars += row.length;
		if (this.batch.length >= BATCH_RECORDS || this.chars >= BATCH_CHARS) await this.flush();
	}

	/** Sends the batch read so far once the one before it is written. */
	private async flush() {
		if (!this.batch.length) return;
		const batch = this.batch;
		const rows = `[${this.rows.join(',')}]`;
		this.batch = [];
		this.rows = [];
		this.chars = 0;
		await this.settle();
		this.inFlight = this.write(batch, rows);
		// Awaited by the next flush or by finish; this only keeps a failure from going unhandled.
		this.inFlight.catch(() => {});
	}

	private async write(batch: Prepared[], rows: string) {
		let written: unknown;
		try {
			written = await this.tx.execute(
				batchStatement(rows, this.datasetId, this.importId, this.seq)
			);
		} catch (e) {
			// The database's own error: drizzle's wrapper quotes the batch's rows (megabytes).
			throw e instanceof Error && e.cause instanceof Error ? e.cause : e;
		}
		const [result] = rowsOf<{ created: number; updated: number; missing: number[] }>(written);
		this.created += result.created;
		this.updated += result.updated;
		this.unchanged += batch.length - result.created - result.updated;
		for (const n of result.missing) this.missing.add(batch[n]);
		this.onProgress?.(this.created + this.updated + this.unchanged);
	}

	/** Waits for the batch being written, if any. */
	async settle() {
		const pending = this.inFlight;
		this.inFlight = null;
		if (pending) await pending;
	}

	/** Writes what is left and waits for it. */
	async finish() {
		await this.flush();
		await this.settle();
	}
}

/**
 * Imports QA records all-or-nothing, in one transaction: the files are read as they arrive,
 * each record is validated and written in batches while the next ones are read; a bad record
 * anywhere rejects the import (every problem listed) and nothing stays written. Records are
 * created, left unchanged or given a new version; the new items' place in the secondary sample
 * and the review tasks are settled in the same transaction. A large import then refreshes the
 * planner's statistics of the tables it filled.
 */
export async function importQaFiles(
	db: Db,
	files: QaImportFile[],
	options: QaImportOptions
): Promise<ImportCounts> {
	const fileName = files.map((f) => f.fileName).join(', ');
	const counts = await db.transaction(async (tx) => {
		const ds = await ensureDataset(tx, options.dataset);
		const [imp] = await tx
			.insert(importRecord)
			.values({
				kind: 'qa',
				datasetId: ds.id,
				fileName,
				createdBy: options.actor.userId,
				actor: options.actor.label
			})
			.returning({ id: importRecord.id });
		const check = new QaRecordCheck();
		const writer = new QaBatchWriter(tx, ds.id, imp.id, await sequences(tx), options.onProgress);
		try {
			for (const file of files) {
				const fallback = typeFromFileName(file.fileName);
				for await (const records of recordsOfFile(file)) {
					for (const raw of records) {
						const p = check.check(file.fileName, fallback, raw);
						// Once a record is bad the import is rejected: the rest is only checked.
						if (p && check.errors.length === 0) await writer.add(p);
					}
				}
			}
			const rejected = check.rejection();
			if (rejected) throw rejected;
			await writer.finish();
		} catch (e) {
			// Let the statement under way end before the transaction rolls back.
			await writer.settle().catch(() => {});
			throw e;
		}

		// The new items' place in the secondary sample and their review tasks, in this transaction.
		await sampleImportedItems(tx, options.actor.userId, ds.id, imp.id);

		const warnings = [...check.warnings(), ...writer.missing.warnings()];
		const counts = {
			created: writer.created,
			unchanged: writer.unchanged,
			updated: writer.updated
		};
		await tx
			.update(importRecord)
			.set({ ...counts, warnings })
			.where(eq(importRecord.id, imp.id));
		await recordAudit(tx, {
			actorId: options.actor.userId,
			action: 'import.qa',
			objectType: 'import',
			objectId: imp.id,
			after: { fileName, dataset: ds.name, ...counts, warnings: warningCount(warnings) }
		});
		return { importId: imp.id, total: check.accepted, ...counts, warnings };
	});
	await refreshPlannerStatistics(db, counts.created + counts.updated, [
		'qa_item',
		'qa_item_version',
		'review_task'
	]);
	return counts;
}
