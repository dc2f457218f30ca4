import { describe, expect, it } from 'vitest';
import { unstorable, unstorableStrings } from './text';

describe('storable text', () => {
	it('finds NUL characters and lone surrogates, and accepts real characters', () => {
		expect(unstorable('plain text, “quotes”, émigré, 🩺')).toBeNull();
		expect(unstorable('a\u0000b')).toMatch(/NUL/);
		expect(unstorable('lone high \uD83E')).toMatch(/surrogate/);
		expect(unstorable('lone low \uDE7A end')).toMatch(/surrogate/);
	});

	it('names every unstorable string of a JSON value by its path, keys included', () => {
		expect(
			unstorableStrings({ a: ['ok', 'x\u0000'], b: { c: '\uD800' }, ['k\u0000']: 1 }).map(
				(p) => p.field
			)
		).toEqual(['a[1]', 'b.c', 'k\u0000']);
		expect(unstorableStrings(['fine', 3, null, { d: 'also fine' }])).toEqual([]);
	});
});
