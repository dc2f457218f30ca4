// JSON.parse keeps the last of two equal keys in one object and says nothing, so a record such as
// {"question": "a", "question": "b"} would import as "b" without anyone noticing. This scanner
// walks the text of a file JSON.parse already accepted and names every key that repeats in its
// object, with the path to it.

/** A path into a JSON value: object keys and array positions, outermost first. */
export type JsonPath = (string | number)[];

/** A key written twice in one object: `path` ends with the repeated key. */
export interface DuplicateKey {
	path: JsonPath;
}

interface Frame {
	/** Keys seen so far (objects) or null (arrays). */
	keys: Set<string> | null;
	path: JsonPath;
	/** The current key (objects) or position (arrays). */
	at: string | number;
	/** In an object: the next string is a key (after `{` or `,`). */
	expectKey: boolean;
}

/** The index just past the closing quote of the string that opens at `start`. */
function endOfString(text: string, start: number): number {
	let i = start + 1;
	for (;;) {
		const quote = text.indexOf('"', i);
		if (quote < 0) return text.length;
		let slashes = 0;
		while (text.charCodeAt(quote - 1 - slashes) === 92 /* \ */) slashes++;
		if (slashes % 2 === 0) return quote + 1;
		i = quote + 1;
	}
}

/** How many object keys a valid JSON text writes: the strings followed by a colon. */
export function keysWritten(text: string): number {
	let n = 0;
	for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i)) {
		i = endOfString(text, i);
		let c = text.charCodeAt(i);
		// JSON's whitespace: space, tab, line feed, carriage return.
		while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++i);
		if (c === 58 /* : */) n++;
	}
	return n;
}

/** How many keys the objects of a parsed JSON value hold, however nested. */
export function keysParsed(value: unknown): number {
	if (typeof value !== 'object' || value === null) return 0;
	let n = 0;
	if (Array.isArray(value)) {
		for (const v of value) n += keysParsed(v);
		return n;
	}
	for (const key in value) n += 1 + keysParsed((value as Record<string, unknown>)[key]);
	return n;
}

/**
 * Every key that appears more than once in the same object of a valid JSON text, in the order
 * met. Keys compare after unescaping (`"a\u0062"` equals `"ab"`), as JSON.parse compares them.
 * Given the text's value as JSON.parse returned it, a text that writes no more keys than the value
 * holds (JSON.parse keeps one of each repeated key) is known to repeat none without the full walk.
 */
export function findDuplicateKeys(text: string, parsed?: unknown): DuplicateKey[] {
	if (parsed !== undefined && keysWritten(text) === keysParsed(parsed)) return [];
	const found: DuplicateKey[] = [];
	const stack: Frame[] = [];
	const childPath = (): JsonPath => {
		const top = stack[stack.length - 1];
		return top ? [...top.path, top.at] : [];
	};
	let i = 0;
	while (i < text.length) {
		const c = text[i];
		if (c === '"') {
			const end = endOfString(text, i);
			const top = stack[stack.length - 1];
			if (top?.keys && top.expectKey) {
				const raw = text.slice(i, end);
				const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
				if (top.keys.has(key)) found.push({ path: [...top.path, key] });
				else top.keys.add(key);
				top.at = key;
				top.expectKey = false;
			}
			i = end;
			continue;
		}
		if (c === '{') stack.push({ keys: new Set(), path: childPath(), at: '', expectKey: true });
		else if (c === '[') stack.push({ keys: null, path: childPath(), at: 0, expectKey: false });
		else if (c === '}' || c === ']') stack.pop();
		else if (c === ',') {
			const top = stack[stack.length - 1];
			if (top?.keys) top.expectKey = true;
			else if (top) top.at = (top.at as number) + 1;
		}
		i++;
	}
	return found;
}

/** A path as the import errors name fields: `source.paragraph_id`, `options[1]`. */
export function formatJsonPath(path: JsonPath): string {
	return path.reduce<string>((acc, key) => {
		if (typeof key === 'number') return `${acc}[${key}]`;
		const name = key === '' ? '""' : key;
		return acc ? `${acc}.${name}` : name;
	}, '');
}
