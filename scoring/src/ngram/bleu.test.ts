import { describe, expect, it } from 'vitest';
import { brevityPenalty, fsum, modifiedPrecision, sentenceBleu } from './bleu';

describe('sentenceBleu (NLTK, smoothing method 1)', () => {
	it('gives sqrt(0.1) for two identical tokens (orders 3 and 4 smoothed to 0.1/1)', () => {
		expect(sentenceBleu(['a', 'b'], ['a', 'b'])).toBeCloseTo(0.316227766016838, 15);
	});

	it('gives 1 for an identical sentence of at least four tokens', () => {
		const s = 'the patient has low serum calcium levels .'.split(' ');
		expect(sentenceBleu(s, s)).toBe(1);
	});

	it('gives 0 without any unigram match, and for an empty hypothesis', () => {
		expect(sentenceBleu(['a', 'b', 'c'], ['x', 'y', 'z'])).toBe(0);
		expect(sentenceBleu(['a'], [])).toBe(0);
	});

	it('applies the brevity penalty exp(1 - r/c) to a short hypothesis', () => {
		const ref = 'the cat sat on the mat'.split(' ');
		expect(sentenceBleu(ref, ['the', 'cat', 'sat', 'on'])).toBeCloseTo(Math.exp(-0.5), 15);
	});

	it('smooths a zero order with 0.1 over the hypothesis n-gram count', () => {
		// p1 = 4/4, p2 = 1/3, p3 = 0 -> 0.1/2, p4 = 0 -> 0.1/1; NLTK: 0.20205155046766235
		const expected = Math.pow((1 / 3) * 0.05 * 0.1, 0.25);
		expect(sentenceBleu(['a', 'b', 'c', 'd'], ['a', 'b', 'd', 'c'])).toBeCloseTo(expected, 15);
	});

	it('clips repeated n-grams to their reference count', () => {
		expect(modifiedPrecision(['the', 'cat', 'the'], ['the', 'the', 'the', 'the'], 1)).toEqual({
			numerator: 2,
			denominator: 4
		});
		// NLTK: 0.05231223689135342
		expect(sentenceBleu('the cat sat on the mat'.split(' '), Array(5).fill('the'))).toBeCloseTo(
			0.05231223689135342,
			15
		);
	});
});

describe('sentenceBleu on very long inputs', () => {
	it('stays exact when n-gram ids no longer fit a numeric key (string-key fallback)', () => {
		const ref = Array.from({ length: 12_000 }, (_, i) => `w${i}`);
		const hyp = [...ref.slice(0, 6_000), 'x', ...ref.slice(6_000)];
		// 'x' breaks the n-grams spanning it and the w5999|w6000 junction; BP = 1.
		// p1 = 12000/12001, p2 = 11998/12000, p3 = 11996/11999, p4 = 11994/11998
		const expected = Math.pow(
			(12_000 / 12_001) * (11_998 / 12_000) * (11_996 / 11_999) * (11_994 / 11_998),
			0.25
		);
		expect(sentenceBleu(ref, hyp)).toBeCloseTo(expected, 12);
	});
});

describe('helpers', () => {
	it('brevityPenalty follows NLTK', () => {
		expect(brevityPenalty(3, 4)).toBe(1);
		expect(brevityPenalty(4, 4)).toBe(1);
		expect(brevityPenalty(4, 0)).toBe(0);
		expect(brevityPenalty(4, 2)).toBeCloseTo(Math.exp(-1), 15);
	});

	it('fsum is exactly rounded like Python math.fsum', () => {
		expect(fsum([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])).toBe(1);
		expect(fsum([1e100, 1, -1e100])).toBe(1);
	});
});
