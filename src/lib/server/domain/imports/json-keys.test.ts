import { describe, expect, it } from 'vitest';
import { findDuplicateKeys, formatJsonPath, keysParsed, keysWritten } from './json-keys';

const paths = (text: string) => {
	const found = findDuplicateKeys(text).map((d) => d.path);
	// Given the parsed value (the imports' short cut), the answer is the same.
	expect(findDuplicateKeys(text, JSON.parse(text)).map((d) => d.path)).toEqual(found);
	return found;
};

describe('findDuplicateKeys', () => {
	it('finds nothing in JSON without repeated keys, however nested', () => {
		const text = JSON.stringify([{ a: 1, b: { a: 2, c: [{ a: 3 }, { a: 4 }] } }, { a: 5 }]);
		expect(paths(text)).toEqual([]);
	});

	it('names a key repeated at the top of a record by its record position', () => {
		expect(paths('[{"q": 1}, {"question": "a", "question": "b"}]')).toEqual([[1, 'question']]);
	});

	it('finds repeats in nested objects, with the path through objects and arrays', () => {
		const text = `[
			{"source": {"isbn": "x", "paragraph_id": "p1", "paragraph_id": "p2"}},
			{"options": [{"k": 1}, {"k": 1, "k": 2}], "b": [[{"z": 0, "z": 0}]]}
		]`;
		expect(paths(text)).toEqual([
			[0, 'source', 'paragraph_id'],
			[1, 'options', 1, 'k'],
			[1, 'b', 0, 0, 'z']
		]);
	});

	it('compares keys after unescaping, as JSON.parse does', () => {
		expect(paths('{"ab": 1, "a\\u0062": 2}')).toEqual([['ab']]);
		expect(paths('{"a\\"b": 1, "a\\u0022b": 2}')).toEqual([['a"b']]);
		expect(paths('{"a\\\\": 1, "a\\u005c": 2}')).toEqual([['a\\']]);
	});

	it('is not fooled by braces, quotes, colons and commas inside strings', () => {
		const text = JSON.stringify({
			a: '{"a": 1, "a": 2}',
			b: 'ends with a backslash \\',
			c: '", "a": "',
			d: ['[', '{', ',', '}', ']']
		});
		expect(paths(text)).toEqual([]);
		expect(paths(`{"x": "}{,", "y": "\\"", "x": 0}`)).toEqual([['x']]);
	});

	it('does not count a string value equal to a key as a key', () => {
		expect(paths('{"a": "b", "b": "a"}')).toEqual([]);
	});

	it('reports every repeat, a third occurrence too, and tells sibling objects apart', () => {
		expect(paths('[{"a":1,"a":2,"a":3},{"a":1}]')).toEqual([
			[0, 'a'],
			[0, 'a']
		]);
	});

	it('handles the empty key and whitespace of every kind', () => {
		expect(paths('{ "" :1 ,\n\t"" : 2 }')).toEqual([['']]);
		expect(formatJsonPath([3, 'source', ''])).toBe('[3].source.""');
	});
});

describe('keysWritten and keysParsed', () => {
	it('count the keys a text writes and the keys its value holds', () => {
		const text = `{"a": "x:y", "b\\"": {"c" : [ {"d":1}, "e", {"f\\\\" :"g"} ]}, "__proto__": 1}`;
		expect(keysWritten(text)).toBe(6);
		expect(keysParsed(JSON.parse(text))).toBe(6);
		expect(keysWritten('["a", "b:", 1]')).toBe(0);
		expect(keysParsed(JSON.parse('[1, "a", null, [{}]]'))).toBe(0);
	});

	it('differ when a key repeats: JSON.parse keeps one', () => {
		const text = '{"a": {"b": 1, "b": 2}, "c": 3}';
		expect(keysWritten(text)).toBe(4);
		expect(keysParsed(JSON.parse(text))).toBe(3);
	});
});

describe('formatJsonPath', () => {
	it('writes paths the way import errors name fields', () => {
		expect(formatJsonPath(['source', 'paragraph_id'])).toBe('source.paragraph_id');
		expect(formatJsonPath(['options', 1])).toBe('options[1]');
	});
});
