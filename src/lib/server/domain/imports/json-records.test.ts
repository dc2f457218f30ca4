import { describe, expect, it } from 'vitest';
import {
	JsonFormError,
	JsonRecordSplitter,
	piecesOf,
	recordTexts,
	textPieces,
	type JsonForm,
	type RecordText
} from './json-records';

/** The records of `pieces` fed one after another. */
function split(pieces: string[], form: JsonForm = 'array'): RecordText[] {
	const splitter = new JsonRecordSplitter(form);
	const out = pieces.flatMap((p) => splitter.push(p));
	return [...out, ...splitter.end()];
}

function errorOf(text: string, form: JsonForm = 'array'): JsonFormError {
	try {
		split([text], form);
	} catch (e) {
		expect(e).toBeInstanceOf(JsonFormError);
		return e as JsonFormError;
	}
	throw new Error('no error');
}

// Strings holding what could mislead a splitter: brackets, commas, escaped quotes and
// backslashes, a non-BMP character and an escaped one.
const tricky = [
	{ question: 'a "quoted" [bracket], {brace}', answer: 'back\\slash\\' },
	{ question: 'ends with a backslash \\', options: ['x]', '{y', '\\"'] },
	{ question: 'emoji 🩺 and \u00e9 and \u2028', nested: { deep: [[1, 2], { a: null }] } }
];

describe('JsonRecordSplitter', () => {
	it('yields each entry of an array, flattening entries that are arrays, in order', () => {
		const text = JSON.stringify([tricky[0], [tricky[1], tricky[2]], 7, 'text', null, []]);
		const records = split([text]);
		expect(records.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(records.map((r) => JSON.parse(r.text))).toEqual([...tricky, 7, 'text', null]);
	});

	it('finds the same records wherever the text is cut, escapes and strings included', () => {
		const text = `\n [ ${JSON.stringify(tricky[0])} ,\n[${JSON.stringify(tricky[1])}],${JSON.stringify(tricky[2])}, 12.5e3 ]\n`;
		const whole = split([text]);
		expect(whole.map((r) => JSON.parse(r.text))).toEqual([...tricky, 12500]);
		for (let cut = 1; cut < text.length; cut++) {
			expect(split([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
		}
		expect(split([...text])).toEqual(whole);
	});

	it('reads JSON Lines, naming each record by its line (blank lines count, CRLF too)', () => {
		const text = `${JSON.stringify(tricky[0])}\r\n\r\n${JSON.stringify(tricky[1])}\n  ${JSON.stringify(tricky[2])}`;
		const records = split([text], 'lines');
		expect(records.map((r) => r.index)).toEqual([0, 2, 3]);
		expect(records.map((r) => JSON.parse(r.text))).toEqual(tricky);
		expect(split([...text], 'lines')).toEqual(records);
		expect(split([''], 'lines')).toEqual([]);
	});

	it('refuses malformed structure between records, saying where', () => {
		expect(errorOf('[{"a": 1},]').message).toBe('unexpected "]" between records (line 1)');
		expect(errorOf('[{"a": 1}\n {"b": 2}]').message).toBe(
			'unexpected "{" between records (line 2)'
		);
		expect(errorOf('[{"a": 1}] x').message).toBe(
			'unexpected text after the closing bracket (line 1)'
		);
		expect(errorOf('[{"a": "open').message).toBe('the file ends inside a record (line 1)');
		expect(errorOf('[{"a": 1},\n').message).toBe(
			'the file ends before the array is closed (line 2)'
		);
		expect(errorOf('  ').message).toBe('the file is empty (line 1)');
		expect(errorOf('{"a": 1}\n{"b": 2} {"c": 3}', 'lines').message).toBe(
			'a line holds more than one record (line 2)'
		);
	});

	it('tells a file that is not an array from one that is broken', () => {
		expect(errorOf('{"question": "x"}').notArray).toBe(true);
		expect(errorOf('[1,,2]').notArray).toBe(false);
	});
});

describe('reading a file in chunks', () => {
	async function collect(chunks: (Uint8Array | string)[], form: JsonForm = 'array') {
		async function* source() {
			yield* chunks;
		}
		const out: RecordText[] = [];
		for await (const batch of recordTexts(textPieces(source()), form)) out.push(...batch);
		return out;
	}

	it('decodes UTF-8 split inside a character and drops a leading BOM', async () => {
		const text = `\uFEFF${JSON.stringify(tricky)}`;
		const bytes = new TextEncoder().encode(text);
		expect(bytes.slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
		for (const size of [1, 2, 3, 5, 64]) {
			const chunks: Uint8Array[] = [];
			for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
			const records = await collect(chunks);
			expect(records.map((r) => JSON.parse(r.text))).toEqual(tricky);
		}
	});

	it('cuts a whole text into pieces without splitting a surrogate pair', () => {
		const text = '🩺'.repeat(5);
		const pieces = [...piecesOf(text, 3)];
		expect(pieces.join('')).toBe(text);
		for (const p of pieces) expect(p.length % 2).toBe(0);
	});
});
