import { describe, expect, it } from 'vitest';
import { ngramMetrics } from './index';

describe('ngramMetrics', () => {
	it('compares lower-cased, stripped texts', () => {
		const m = ngramMetrics('  Hypocalcemia causes tetany. ', 'hypocalcemia causes TETANY.');
		expect(m.bleu).toBe(1);
		expect(m.rouge).toBe(1);
		expect(m.meteor).toBeCloseTo(1 - 0.5 / 64, 15);
	});

	it('gives zeros for unrelated or empty answers', () => {
		expect(ngramMetrics('low calcium', 'zebra')).toEqual({ bleu: 0, rouge: 0, meteor: 0 });
		expect(ngramMetrics('low calcium', '')).toEqual({ bleu: 0, rouge: 0, meteor: 0 });
	});

	it('matches NLTK and rouge-score on a short-answer pair', () => {
		const m = ngramMetrics('The car is red', 'the auto is red');
		// BLEU: p = 3/4, 1/3, 0.1/2, 0.1/1 (NLTK 0.1880301546543197); ROUGE: 3 of 4 unigrams,
		// LCS 3; METEOR: 3 exact + 1 synonym match in one chunk.
		expect(m.bleu).toBeCloseTo(Math.pow(0.75 * (1 / 3) * 0.05 * 0.1, 0.25), 15);
		expect(m.rouge).toBeCloseTo(0.75, 15);
		expect(m.meteor).toBeCloseTo(1 - 0.5 / 64, 15);
	});
});
