// Reads the records of a JSON file as its text arrives, so a large import never holds the whole
// file, its parse tree and its rows at once. The splitter only finds where each record starts and
// ends (strings, brackets and the commas between records); each record is then parsed on its own
// by JSON.parse, which checks its syntax.
//
// Every import reads its files here, so the limits that keep hostile files harmless live here
// too: bytes must be UTF-8 (the first bad byte is named, never replaced by U+FFFD), nesting is
// counted while scanning and refused past MAX_JSON_DEPTH before any tree is built (a deep parse
// tree, and the paths walked over it, cost memory quadratic in the depth), and one record is
// refused once it passes MAX_RECORD_CHARS, so the text held at once stays bounded.

/** The two shapes of a records file. */
export type JsonForm =
	/** One JSON array of records; an entry that is itself an array holds records (one level). */
	| 'array'
	/** JSON Lines: one record per line (any whitespace between records is accepted). */
	| 'lines';

/** One record's text and its place: its position among the records, or its line (JSON Lines). */
export interface RecordText {
	index: number;
	text: string;
}

/** The file is not JSON of the expected form; `message` says what and where. */
export class JsonFormError extends Error {
	constructor(
		message: string,
		/** The file is valid so far but is not a JSON array. */
		readonly notArray = false,
		/** A limit of the reader (depth, size, encoding): `message` is a whole sentence. */
		readonly limit = false
	) {
		super(message);
	}
}

/**
 * Deepest nesting of arrays and objects a file may have. ClinIQLink's files nest
 * CLINIQLINK_DEPTH levels at most (a submission file whose inputs carry chat outputs), so this
 * leaves ample room while a hostile file is refused long before it costs anything.
 */
export const MAX_JSON_DEPTH = 64;
/** The deepest nesting of ClinIQLink's own files (submission → inputs → record → output → entry). */
const CLINIQLINK_DEPTH = 5;
/**
 * Longest record, in characters. A record's fields are bounded far below this (TEXT_LIMITS), so
 * only a broken or hostile file comes near it; the reader holds at most one record's text.
 */
export const MAX_RECORD_CHARS = 1_000_000;

/** A count as people write it (1,204). */
const fmt = (x: number) => x.toLocaleString('en');

/** Where a position of the text is, for people: its line, and its character in the file. */
function place(line: number, char: number) {
	return `line ${fmt(line + 1)}, character ${fmt(char + 1)} of the file`;
}

function tooDeep(where: string) {
	return new JsonFormError(
		`The file nests deeper than ${MAX_JSON_DEPTH} levels ${where}; ClinIQLink files nest at most ${CLINIQLINK_DEPTH} levels.`,
		false,
		true
	);
}

function tooLong(record: number, line: number) {
	return new JsonFormError(
		`Record ${fmt(record + 1)} (from line ${fmt(line + 1)}) is longer than ${fmt(MAX_RECORD_CHARS)} characters, the most one record may hold; is the file cut or merged?`,
		false,
		true
	);
}

const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;

function isSpace(c: number) {
	return c === 32 || c === NEWLINE || c === 13 || c === 9;
}

/** Characters that end a bare value (number, true, false, null). */
function endsBareValue(c: number) {
	return (
		isSpace(c) ||
		c === COMMA ||
		c === CLOSE_BRACKET ||
		c === CLOSE_BRACE ||
		c === OPEN_BRACKET ||
		c === OPEN_BRACE ||
		c === QUOTE
	);
}

/**
 * The index just past the closing quote of a string whose opening quote is before `from`, or -1
 * when the text ends first. Escapes are told by the backslashes right before a quote, so `text`
 * must still hold the string from its opening quote on.
 */
function closingQuote(text: string, from: number): number {
	let i = from;
	for (;;) {
		const quote = text.indexOf('"', i);
		if (quote < 0) return -1;
		let slashes = 0;
		while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
		if (slashes % 2 === 0) return quote + 1;
		i = quote + 1;
	}
}

/** What the splitter expects between records of an array. */
type Expect = 'value' | 'value-or-close' | 'comma-or-close';

/**
 * Splits JSON text fed in pieces of any size into the texts of its records. Pieces may end
 * anywhere, inside a string or an escape included. `push` returns the records completed so far;
 * `end` the last ones, or throws JsonFormError when the text is cut short or malformed.
 */
export class JsonRecordSplitter {
	private buffer = '';
	/** Where scanning resumes in `buffer`. */
	private pos = 0;
	/** Where the record being read starts in `buffer` (-1: between records). */
	private start = -1;
	/** Open brackets of the record being read. */
	private depth = 0;
	private inString = false;
	private bare = false;
	/** Array form: 0 before the array, 1 in it, 2 in an entry that is an array, 3 after it. */
	private level = 0;
	private expect: Expect = 'value';
	private records = 0;
	/** 0-based line of the scan position, and of the record being read. */
	private line = 0;
	private recordLine = 0;
	/** The line the last record ended on. */
	private lastLine = -1;
	/** Characters of the text dropped from `buffer` so far (positions in messages count them). */
	private dropped = 0;

	constructor(private readonly form: JsonForm) {}

	push(piece: string): RecordText[] {
		const out: RecordText[] = [];
		this.buffer += piece;
		this.scan(out, false);
		return out;
	}

	end(): RecordText[] {
		const out: RecordText[] = [];
		this.scan(out, true);
		if (this.start >= 0) throw this.error('the file ends inside a record');
		if (this.form === 'array' && this.level !== 3) {
			throw this.error(
				this.level === 0 ? 'the file is empty' : 'the file ends before the array is closed'
			);
		}
		return out;
	}

	private error(what: string) {
		return new JsonFormError(`${what} (line ${this.line + 1})`);
	}

	/** Arrays the record sits in (the file's array, and an entry that is an array). */
	private outerDepth() {
		return this.form === 'array' ? (this.level === 2 ? 2 : 1) : 0;
	}

	/** The record being read, as people count: its position, or its line (JSON Lines). */
	private recordNumber() {
		return this.form === 'lines' ? this.recordLine : this.records;
	}

	private emit(out: RecordText[], end: number) {
		if (end - this.start > MAX_RECORD_CHARS) throw tooLong(this.recordNumber(), this.recordLine);
		const index = this.form === 'lines' ? this.recordLine : this.records;
		out.push({ index, text: this.buffer.slice(this.start, end) });
		this.records++;
		this.lastLine = this.line;
		this.start = -1;
		this.bare = false;
		this.expect = 'comma-or-close';
	}

	private begin(i: number, c: number): number {
		if (c !== OPEN_BRACE && c !== OPEN_BRACKET && c !== QUOTE && endsBareValue(c))
			throw this.error(`unexpected ${JSON.stringify(String.fromCharCode(c))}`);
		if (this.form === 'lines' && this.records > 0 && this.line === this.lastLine)
			throw this.error('a line holds more than one record');
		this.start = i;
		this.recordLine = this.line;
		this.depth = 0;
		if (c === OPEN_BRACE || c === OPEN_BRACKET) {
			this.depth = 1;
			return i + 1;
		}
		if (c === QUOTE) {
			this.inString = true;
			return i + 1;
		}
		this.bare = true;
		return i;
	}

	/** Between records of the array form: the brackets and commas around them. */
	private structure(i: number, c: number): number {
		const unexpected = () =>
			this.error(`unexpected ${JSON.stringify(String.fromCharCode(c))} between records`);
		if (this.level === 0) {
			if (c !== OPEN_BRACKET) throw new JsonFormError('must be a JSON array of QA records', true);
			this.level = 1;
			this.expect = 'value-or-close';
			return i + 1;
		}
		if (this.level === 3) throw this.error('unexpected text after the closing bracket');
		if (this.expect === 'comma-or-close') {
			if (c === COMMA) this.expect = 'value';
			else if (c === CLOSE_BRACKET) this.close();
			else throw unexpected();
			return i + 1;
		}
		if (c === CLOSE_BRACKET && this.expect === 'value-or-close') {
			this.close();
			return i + 1;
		}
		if (c === CLOSE_BRACKET || c === COMMA || c === CLOSE_BRACE) throw unexpected();
		if (this.level === 1 && c === OPEN_BRACKET) {
			this.level = 2;
			this.expect = 'value-or-close';
			return i + 1;
		}
		return this.begin(i, c);
	}

	private close() {
		this.level = this.level === 2 ? 1 : 3;
		this.expect = 'comma-or-close';
	}

	private scan(out: RecordText[], final: boolean) {
		const text = this.buffer;
		const n = text.length;
		let i = this.pos;
		while (i < n) {
			if (this.start < 0) {
				const c = text.charCodeAt(i);
				if (isSpace(c)) {
					if (c === NEWLINE) this.line++;
					i++;
				} else if (this.form === 'array') i = this.structure(i, c);
				else i = this.begin(i, c);
				continue;
			}
			if (this.inString) {
				const end = closingQuote(text, i);
				if (end < 0) {
					i = n;
					break;
				}
				i = end;
				this.inString = false;
				if (this.depth === 0) this.emit(out, i);
				continue;
			}
			if (this.bare) {
				while (i < n && !endsBareValue(text.charCodeAt(i))) i++;
				if (i < n || final) this.emit(out, i);
				continue;
			}
			const c = text.charCodeAt(i);
			i++;
			if (c === QUOTE) this.inString = true;
			else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
				if (++this.depth + this.outerDepth() > MAX_JSON_DEPTH)
					throw tooDeep(
						`in record ${fmt(this.recordNumber() + 1)} (${place(this.line, this.dropped + i - 1)})`
					);
			} else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
				if (--this.depth === 0) this.emit(out, i);
			} else if (c === NEWLINE) this.line++;
		}
		if (this.start >= 0 && i - this.start > MAX_RECORD_CHARS)
			throw tooLong(this.recordNumber(), this.recordLine);
		// Keep only the record being read (its text is needed whole); drop what is done.
		const keep = this.start >= 0 ? this.start : i;
		this.buffer = text.slice(keep);
		this.pos = i - keep;
		this.dropped += keep;
		if (this.start >= 0) this.start = 0;
	}
}

/**
 * Where the first byte that is not UTF-8 is in `bytes`, or -1. A sequence cut short by the end of
 * `bytes` counts as bad only when `final` (otherwise its rest may come in the next chunk).
 */
export function firstInvalidUtf8(bytes: Uint8Array, final = true): number {
	let i = 0;
	while (i < bytes.length) {
		const b = bytes[i];
		if (b < 0x80) {
			i++;
			continue;
		}
		// The length of the sequence and the range of its second byte (no overlong forms, no
		// surrogates, nothing past U+10FFFF), as the WHATWG decoder checks them.
		let size: number;
		let lo = 0x80;
		let hi = 0xbf;
		if (b >= 0xc2 && b <= 0xdf) size = 2;
		else if (b >= 0xe0 && b <= 0xef) {
			size = 3;
			if (b === 0xe0) lo = 0xa0;
			if (b === 0xed) hi = 0x9f;
		} else if (b >= 0xf0 && b <= 0xf4) {
			size = 4;
			if (b === 0xf0) lo = 0x90;
			if (b === 0xf4) hi = 0x8f;
		} else return i;
		for (let k = 1; k < size; k++) {
			if (i + k >= bytes.length) return final ? i : -1;
			const c = bytes[i + k];
			if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
		}
		i += size;
	}
	return -1;
}

/** How many bytes at the end of `bytes` begin a character that is not complete yet (0–3). */
function unfinishedTail(bytes: Uint8Array): number {
	for (let k = 1; k <= Math.min(3, bytes.length); k++) {
		const b = bytes[bytes.length - k];
		if (b < 0x80) return 0;
		if (b >= 0xc0) {
			const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
			return size > k ? k : 0;
		}
	}
	return 0;
}

function notUtf8(offset: number, byte: number | undefined) {
	const what =
		byte === undefined
			? 'the file ends inside a character'
			: `byte ${fmt(offset)} (counted from 0) is 0x${byte.toString(16).toUpperCase().padStart(2, '0')}, which does not belong there`;
	return new JsonFormError(
		`The file is not valid UTF-8: ${what}. Nothing was imported; save the file as UTF-8 and try again.`,
		false,
		true
	);
}

/**
 * The text of a file arriving in chunks of bytes or text, a leading BOM dropped. Bytes must be
 * UTF-8: the first byte that is not is refused with its offset, never read as U+FFFD.
 */
export async function* textPieces(
	chunks: AsyncIterable<Uint8Array | string>
): AsyncGenerator<string> {
	const decoder = new TextDecoder('utf-8', { fatal: true });
	let first = true;
	// Bytes read before this chunk, and the unfinished character the decoder carries over.
	let read = 0;
	let tail = new Uint8Array(0);
	for await (const chunk of chunks) {
		let piece: string;
		if (typeof chunk === 'string') piece = chunk;
		else {
			try {
				piece = decoder.decode(chunk, { stream: true });
			} catch {
				const joined = new Uint8Array(tail.length + chunk.length);
				joined.set(tail);
				joined.set(chunk, tail.length);
				const at = Math.max(0, firstInvalidUtf8(joined, false));
				throw notUtf8(read - tail.length + at, joined[at]);
			}
			const end = lastBytes(tail, chunk, 3);
			tail = end.slice(end.length - unfinishedTail(end));
			read += chunk.length;
		}
		if (first && piece.length) {
			// The decoder drops a BOM from bytes itself.
			if (typeof chunk === 'string') piece = piece.replace(/^\uFEFF/, '');
			first = false;
		}
		if (piece) yield piece;
	}
	let rest: string;
	try {
		rest = decoder.decode();
	} catch {
		throw notUtf8(read - tail.length, undefined);
	}
	if (rest) yield rest;
}

/** The last `count` bytes of `before` followed by `chunk`. */
function lastBytes(before: Uint8Array, chunk: Uint8Array, count: number): Uint8Array {
	if (chunk.length >= count) return chunk.slice(chunk.length - count);
	const joined = new Uint8Array(before.length + chunk.length);
	joined.set(before);
	joined.set(chunk, before.length);
	return joined.slice(Math.max(0, joined.length - count));
}

/**
 * Refuses a JSON text nested deeper than MAX_JSON_DEPTH, counting while scanning (strings
 * skipped) so nothing is parsed first. `at` is where the text starts in its file (a line of
 * JSON Lines), 0-based.
 */
export function checkJsonDepth(text: string, at = { line: 0, char: 0 }): void {
	let depth = 0;
	let line = at.line;
	for (let i = 0; i < text.length;) {
		const c = text.charCodeAt(i);
		if (c === QUOTE) {
			const end = closingQuote(text, i + 1);
			if (end < 0) return;
			i = end;
			continue;
		}
		if (c === OPEN_BRACE || c === OPEN_BRACKET) {
			if (++depth > MAX_JSON_DEPTH) throw tooDeep(`at ${place(line, at.char + i)}`);
		} else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
		else if (c === NEWLINE) line++;
		i++;
	}
}

/**
 * A whole JSON text parsed (a file read at once, or one line of JSON Lines), its nesting checked
 * first (checkJsonDepth). A syntax error is a JsonFormError with JSON.parse's message.
 */
export function parseJsonText(text: string, at = { line: 0, char: 0 }): unknown {
	checkJsonDepth(text, at);
	try {
		return JSON.parse(text);
	} catch (e) {
		throw new JsonFormError((e as Error).message);
	}
}

/** A file's whole text, decoded as textPieces decodes it (UTF-8 checked, a leading BOM dropped). */
export async function wholeText(
	file: { text: string } | { chunks: AsyncIterable<Uint8Array | string> }
): Promise<string> {
	if ('text' in file) return file.text.replace(/^\uFEFF/, '');
	let text = '';
	for await (const piece of textPieces(file.chunks)) text += piece;
	return text;
}

/** A whole text in pieces of at most `size` characters (a surrogate pair is never split). */
export function* piecesOf(text: string, size = 1 << 20): Generator<string> {
	for (let i = 0; i < text.length;) {
		let end = Math.min(text.length, i + size);
		const last = text.charCodeAt(end - 1);
		if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
		yield text.slice(i, end);
		i = end;
	}
}

/** The records of a file arriving in pieces, a few at a time, in order. */
export async function* recordTexts(
	pieces: AsyncIterable<string> | Iterable<string>,
	form: JsonForm
): AsyncGenerator<RecordText[]> {
	const splitter = new JsonRecordSplitter(form);
	for await (const piece of pieces) {
		const records = splitter.push(piece);
		if (records.length) yield records;
	}
	const last = splitter.end();
	if (last.length) yield last;
}
