// Reads the records of a question-set file (questions or responses) with the imports' reader and
// limits: bytes checked as UTF-8, nesting refused past 64 levels before anything is parsed, a
// record refused past 1,000,000 characters. A file is a JSON array of records, an object holding
// that array under one key ({"questions": [...]}), or JSON Lines. A record that is not JSON is a
// problem of that record, so one bad line does not hide the problems of the others.
import {
	JsonFormError,
	MAX_RECORD_CHARS,
	duplicateKeyErrors,
	importRejected,
	parseJsonFile,
	parseJsonText,
	piecesOf,
	readWholeFile,
	recordTexts,
	type ReadableFile,
	type RecordError
} from '../imports';

/** One record of a file: its place (0-based position, or line of JSON Lines) and its value. */
export interface RawRecord {
	file: string;
	index: number;
	value: unknown;
}

/** A count as people write it (1,204). */
const fmt = (x: number) => x.toLocaleString('en');

function isLines(fileName: string, text: string): boolean {
	if (/\.(jsonl|ndjson)$/i.test(fileName)) return true;
	if (/\.json$/i.test(fileName)) return false;
	// No telling extension: an object opening the text, with a second record on a later line.
	return /^\s*\{/.test(text) && text.trim().includes('\n') && !isWholeJson(text);
}

function isWholeJson(text: string): boolean {
	try {
		parseJsonText(text);
		return true;
	} catch {
		return false;
	}
}

/** JSON Lines: every non-blank line one record, its line number (0-based) its index. */
function linesOf(file: string, text: string, errors: RecordError[]): RawRecord[] {
	const out: RawRecord[] = [];
	let offset = 0;
	text.split('\n').forEach((rawLine, index) => {
		const at = { line: index, char: offset };
		offset += rawLine.length + 1;
		const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
		if (!line.trim()) return;
		if (line.length > MAX_RECORD_CHARS) {
			errors.push({
				file,
				index,
				field: '(record)',
				reason: `is longer than ${fmt(MAX_RECORD_CHARS)} characters, the most one record may hold`
			});
			return;
		}
		let value: unknown;
		try {
			value = parseJsonText(line, at);
		} catch (e) {
			if (!(e instanceof JsonFormError)) throw e;
			errors.push({
				file,
				index,
				field: '(record)',
				reason: e.limit ? e.message : `is not valid JSON: ${e.message}`
			});
			return;
		}
		errors.push(...duplicateKeyErrors(line, file, (path) => ({ index, path })));
		out.push({ file, index, value });
	});
	return out;
}

/** A JSON array, split into its records as the QA import splits it (position = index). */
async function arrayOf(file: string, text: string, errors: RecordError[]): Promise<RawRecord[]> {
	const out: RawRecord[] = [];
	try {
		for await (const texts of recordTexts(piecesOf(text), 'array')) {
			for (const { index, text: recordText } of texts) {
				let value: unknown;
				try {
					value = JSON.parse(recordText);
				} catch (e) {
					errors.push({
						file,
						index,
						field: '(record)',
						reason: `is not valid JSON: ${(e as Error).message}`
					});
					continue;
				}
				errors.push(...duplicateKeyErrors(recordText, file, (path) => ({ index, path })));
				out.push({ file, index, value });
			}
		}
	} catch (e) {
		if (!(e instanceof JsonFormError)) throw e;
		throw importRejected(
			[
				{
					file,
					index: -1,
					field: '(file)',
					reason: e.limit ? e.message : `is not valid JSON: ${e.message}`
				}
			],
			0
		);
	}
	return out;
}

/** An object holding the records under `key`: the whole file is parsed (its depth checked first). */
function wrappedOf(file: string, text: string, key: string, errors: RecordError[]): RawRecord[] {
	const value = parseJsonFile(text, file);
	const records =
		value && typeof value === 'object' && !Array.isArray(value)
			? (value as Record<string, unknown>)[key]
			: undefined;
	if (!Array.isArray(records))
		throw importRejected(
			[
				{
					file,
					index: -1,
					field: '(file)',
					reason: `must be a JSON array of records, an object with a "${key}" array, or JSON Lines`
				}
			],
			0
		);
	errors.push(
		...duplicateKeyErrors(text, file, (path) =>
			path[0] === key && typeof path[1] === 'number'
				? { index: path[1], path: path.slice(2) }
				: { index: -1, path }
		)
	);
	const out: RawRecord[] = [];
	records.forEach((record, index) => {
		if (JSON.stringify(record).length > MAX_RECORD_CHARS)
			errors.push({
				file,
				index,
				field: '(record)',
				reason: `is longer than ${fmt(MAX_RECORD_CHARS)} characters, the most one record may hold`
			});
		else out.push({ file, index, value: record });
	});
	return out;
}

/**
 * Every record of `files`, in order; problems of single records go to `errors`, a file that is
 * not readable at all (not UTF-8, nested too deep, not JSON) rejects the import at once.
 */
export async function readRecords(
	files: ReadableFile[],
	key: string,
	errors: RecordError[]
): Promise<RawRecord[]> {
	const out: RawRecord[] = [];
	for (const given of files) {
		const text = await readWholeFile(given);
		const file = given.fileName;
		if (!text.trim())
			throw importRejected([{ file, index: -1, field: '(file)', reason: 'is empty' }], 0);
		if (isLines(file, text)) out.push(...linesOf(file, text, errors));
		else if (/^\s*\[/.test(text)) out.push(...(await arrayOf(file, text, errors)));
		else out.push(...wrappedOf(file, text, key, errors));
	}
	return out;
}

/** How a record is named in another record's message: "record 3" (of another file: "… in f"). */
export function recordName(r: { file: string; index: number }, from: string): string {
	return `record ${r.index + 1}${r.file !== from ? ` in ${r.file}` : ''}`;
}
