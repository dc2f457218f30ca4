// Reads the records of a JSON file as its text arrives, so a large import never holds the whole
// file, its parse tree and its rows at once. The splitter only finds where each record starts and
// ends (strings, brackets and the commas between records); each record is then parsed on its own
// by JSON.parse, which checks its syntax.

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
		readonly notArray = false
	) {
		super(message);
	}
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

	private emit(out: RecordText[], end: number) {
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
			else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
			else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
				if (--this.depth === 0) this.emit(out, i);
			} else if (c === NEWLINE) this.line++;
		}
		// Keep only the record being read (its text is needed whole); drop what is done.
		const keep = this.start >= 0 ? this.start : i;
		this.buffer = text.slice(keep);
		this.pos = i - keep;
		if (this.start >= 0) this.start = 0;
	}
}

/** The text of a file arriving in chunks of bytes (UTF-8, a leading BOM dropped) or text. */
export async function* textPieces(
	chunks: AsyncIterable<Uint8Array | string>
): AsyncGenerator<string> {
	const decoder = new TextDecoder('utf-8');
	let first = true;
	for await (const chunk of chunks) {
		let piece = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
		if (first && piece.length) {
			if (typeof chunk === 'string') piece = piece.replace(/^\uFEFF/, '');
			first = false;
		}
		if (piece) yield piece;
	}
	const rest = decoder.decode();
	if (rest) yield rest;
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
