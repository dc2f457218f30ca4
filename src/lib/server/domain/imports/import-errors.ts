import type { ImportWarningKind } from '../../../constants';
import {
	WARNING_RECORDS_KEPT,
	type ImportWarning,
	type RecordError
} from '../../../schemas/qa-record';
import { DomainError } from '../../errors';
import { findDuplicateKeys, formatJsonPath, type JsonPath } from './json-keys';
import { JsonFormError, parseJsonText, wholeText } from './json-records';

export type { ImportWarning, RecordError };

/** An import refused as a whole (nothing was written): the error lists every bad record. */
export function importRejected(errors: RecordError[], total: number): DomainError {
	const s = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
	const bad = new Set(
		errors.filter((e) => e.index >= 0).map((e) => `${e.file ?? ''}\u0000${e.index}`)
	);
	const where = bad.size
		? ` in ${s(bad.size, 'record')} of ${total}`
		: errors.some((e) => e.index < 0)
			? ' in the file'
			: '';
	return new DomainError(
		'invalid',
		`Import rejected: ${s(errors.length, 'problem')}${where}; nothing was imported.`,
		{ records: errors }
	);
}

export interface ImportCounts {
	importId: number;
	created: number;
	unchanged: number;
	updated: number;
	total: number;
	/** What the import was accepted with (also stored with the import record). */
	warnings: ImportWarning[];
}

/** How many records the warnings concern, all kinds together. */
export function warningCount(warnings: readonly ImportWarning[]): number {
	return warnings.reduce((n, w) => n + w.count, 0);
}

/**
 * One warning of `kind` about `count` records (by default all of `records`), keeping the first
 * of them by name.
 */
export function importWarning(
	kind: ImportWarningKind,
	message: string,
	records: RecordError[],
	count = records.length
): ImportWarning {
	return { kind, message, count, records: records.slice(0, WARNING_RECORDS_KEPT) };
}

/**
 * The warning about records repeated with identical content (each imported once), if any:
 * `count` of them (by default all of `records`, which may keep only the first few).
 */
export function duplicateRecordWarning(
	records: RecordError[],
	noun: string,
	count = records.length
): ImportWarning[] {
	if (!count) return [];
	const n = count;
	return [
		importWarning(
			'duplicate_record',
			`${n} ${noun}${n === 1 ? ' repeats' : 's repeat'} an earlier one with identical content; each was imported once.`,
			records,
			n
		)
	];
}

/**
 * Every key written twice in one object of a JSON text, as a rejection of the record it is in.
 * `locate` maps the key's path in the file to the record (-1: the file) and the path inside it.
 * `parsed`, the text's value as JSON.parse returned it, spares most texts the full walk.
 */
export function duplicateKeyErrors(
	text: string,
	file: string | undefined,
	locate: (path: JsonPath) => { index: number; path: JsonPath },
	parsed?: unknown
): RecordError[] {
	return findDuplicateKeys(text, parsed).map(({ path }) => {
		const at = locate(path);
		return {
			...(file === undefined ? {} : { file }),
			index: at.index,
			field: formatJsonPath(at.path) || '(record)',
			reason:
				'is written twice in one object; JSON keeps only the last value, so the record is ambiguous',
			kind: 'duplicate_key' as const
		};
	});
}

/** The rejection of a file the reader refused (bad UTF-8, too deep, not JSON), at record -1. */
export function fileRejected(e: JsonFormError, fileName: string): DomainError {
	const reason = e.limit ? e.message : `${fileName} is not valid JSON: ${e.message}`;
	return importRejected([{ file: fileName, index: -1, field: '(file)', reason }], 0);
}

/**
 * A file's whole text parsed as JSON (its nesting checked first, see json-records.ts); a file the
 * reader refuses rejects the import at record -1 with a clear reason.
 */
export function parseJsonFile(text: string, fileName: string): unknown {
	try {
		return parseJsonText(text);
	} catch (e) {
		if (e instanceof JsonFormError) throw fileRejected(e, fileName);
		throw e;
	}
}

/** A file's whole text (UTF-8 checked); a file that is not UTF-8 rejects the import. */
export async function readWholeFile(file: ReadableFile): Promise<string> {
	try {
		return await wholeText(file);
	} catch (e) {
		if (e instanceof JsonFormError) throw fileRejected(e, file.fileName);
		throw e;
	}
}

/** A file as the imports read it: its whole text, or its bytes (UTF-8) or text in chunks. */
export type ReadableFile = { fileName: string } & (
	{ text: string } | { chunks: AsyncIterable<Uint8Array | string> }
);
