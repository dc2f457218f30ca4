import { describe, expect, it } from 'vitest';
import { lcsLength, rouge1F, rougeLF, rougeScore, rougeTokenize } from './rouge';

describe('rouge-score tokenizer with stemming', () => {
	it('lower-cases, splits on non-alphanumerics and stems tokens longer than 3 chars', () => {
		expect(rougeTokenize('The PATIENTS were running (fast)!')).toEqual([
			'the',
			'patient',
			'were',
			'run',
			'fast'
		]);
		expect(rougeTokenize('3.5 mg/dL, Na+/K+')).toEqual(['3', '5', 'mg', 'dl', 'na', 'k']);
	});

	it('does not stem words of three characters or fewer', () => {
		expect(rougeTokenize('was')).toEqual(['was']);
		expect(rougeScore('was', 'wa')).toBe(0);
	});
});

describe('rouge scores', () => {
	it('computes rouge1 and rougeL F by hand', () => {
		// target [the, patient, were, run], prediction [patient, run, fast]: overlap 2, LCS 2.
		// P = 2/3, R = 2/4, F = 4/7 for both.
		expect(rougeScore('the patients were running', 'patient runs fast')).toBeCloseTo(4 / 7, 15);
	});

	it('separates unigram overlap from in-order LCS', () => {
		const t = ['a', 'b', 'c', 'd'];
		const p = ['d', 'c', 'b', 'a'];
		expect(rouge1F(t, p)).toBe(1);
		expect(lcsLength(t, p)).toBe(1);
		expect(rougeLF(t, p)).toBeCloseTo(0.25, 15);
		expect(rougeScore('a b c d', 'd c b a')).toBeCloseTo(0.625, 15);
	});

	it('clips repeated unigrams and returns 0 for empty sides', () => {
		expect(rouge1F(['x', 'y'], ['x', 'x', 'x'])).toBeCloseTo(
			(2 * (1 / 3) * 0.5) / (1 / 3 + 0.5),
			15
		);
		expect(rougeScore('', 'something')).toBe(0);
		expect(rougeScore('...', '!!!')).toBe(0);
	});
});
