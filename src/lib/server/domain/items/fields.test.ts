import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, itemKey } from './fields';

// Stored items carry these hashes and keys: a re-import recognises an unchanged record only if
// they come out the same as when the item was first imported, so they must never drift.
describe('content keys and hashes', () => {
	const record = {
		type: 'list',
		question: 'Which are symptoms (é 🩺 "q")?',
		options: ['Weight gain', 'Tremor'],
		answer: ['Weight gain'],
		source: { page: 3, paragraph_id: 'p-1', isbn: '' },
		extra: { z: null, a: [1.5, true, { y: 'x\\u0000', b: [] }] }
	};

	it('writes JSON with keys sorted at every depth', () => {
		expect(canonicalJson(record)).toBe(
			'{"answer":["Weight gain"],"extra":{"a":[1.5,true,{"b":[],"y":"x\\\\u0000"}],"z":null},"options":["Weight gain","Tremor"],"question":"Which are symptoms (é 🩺 \\"q\\")?","source":{"isbn":"","page":3,"paragraph_id":"p-1"},"type":"list"}'
		);
	});

	it('hashes and keys records exactly as items already stored were hashed and keyed', () => {
		expect(contentHash(record)).toBe(
			'0c4a4d8b7f6bfa941c5d07d889e713ecd7d450eab5d2a7176b4cc16d5a936216'
		);
		const reordered = Object.fromEntries(Object.entries(record).reverse());
		expect(contentHash(reordered)).toBe(contentHash(record));
		expect(itemKey('list', 'p-1', '  Which ARE  symptoms (é 🩺 "q")? ')).toBe(
			'7b58e270a15764b825f6'
		);
	});
});
