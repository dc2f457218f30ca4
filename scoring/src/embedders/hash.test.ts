import { describe, expect, it } from 'vitest';
import { cosine, createEmbedder } from './index';
import { hashEncode, hashTokenize } from './hash';

describe('hash:<D> embedder', () => {
	it('counts character trigrams of "#"+lower(s)+"#" at h mod D', () => {
		// "#ab" -> ((35·31+97)·31+98) = 36740; "ab#" -> ((97·31+98)·31+35) = 96290
		const v = hashEncode('AB', 1000);
		expect(v[740]).toBe(1);
		expect(v[290]).toBe(1);
		expect(v.reduce((a, b) => a + b, 0)).toBe(2);
	});
	it('gives a zero vector (cosine 0) for the empty string', () => {
		const z = hashEncode('', 384);
		expect(z.every((x) => x === 0)).toBe(true);
		expect(cosine(z, hashEncode('x', 384))).toBe(0);
	});
	it('tokenizes into words and punctuation and splits long words once', () => {
		expect(hashTokenize('Insulin-resistance, 5 mg!')).toEqual([
			'insuli',
			'##n',
			'-',
			'resist',
			'##ance',
			',',
			'5',
			'mg',
			'!'
		]);
	});
	it('is created from its spec string and named after it', async () => {
		const e = await createEmbedder('hash:16');
		expect(e.name).toBe('hash:16');
		const [a, b] = await e.encode(['abc', 'abc']);
		expect(a).toHaveLength(16);
		expect(cosine(a, b)).toBeCloseTo(1, 12);
	});
	it('rejects unknown specs with a clear message', async () => {
		await expect(createEmbedder('bert')).rejects.toThrow(/minilm.*hash:<dimensions>/);
		await expect(createEmbedder('hash:0')).rejects.toThrow(/dimension/);
	});
});
