import { describe, expect, it } from 'vitest';
import { meteorScore } from './meteor';

// Expected values are hand-computed and equal NLTK meteor_score([ref], hyp) with WordNet 3.0.
describe('meteorScore', () => {
	it('scores an exact match of n tokens as 1 - 0.5 * (1/n)^3', () => {
		const s = ['low', 'calcium', 'causes', 'tetany'];
		expect(meteorScore(s, s)).toBeCloseTo(1 - 0.5 / 64, 15);
		expect(meteorScore(['a'], ['a'])).toBeCloseTo(0.5, 15);
	});

	it('matches Porter stems', () => {
		expect(meteorScore(['running', 'dogs'], ['run', 'dog'])).toBeCloseTo(1 - 0.5 / 8, 15);
	});

	it('matches WordNet synonyms of the hypothesis word', () => {
		expect(meteorScore(['the', 'car'], ['the', 'auto'])).toBeCloseTo(0.9375, 15);
		expect(meteorScore(['physician'], ['doctor'])).toBeCloseTo(0.5, 15);
	});

	it('looks synonyms up on the stemmed leftovers, as NLTK does', () => {
		// 'automobile' is stemmed to 'automobil' before the WordNet stage, so only 'the' matches:
		// P = R = 1/2, Fmean = 0.5, one chunk per match -> penalty 0.5.
		expect(meteorScore(['the', 'automobile'], ['the', 'car'])).toBeCloseTo(0.25, 15);
	});

	it('applies the fragmentation penalty', () => {
		// two chunks over four matches: penalty 0.5 * 0.5^3
		expect(meteorScore(['a', 'b', 'c', 'd'], ['c', 'd', 'a', 'b'])).toBeCloseTo(0.9375, 15);
		// P = 2/4, R = 2/3, Fmean = (1/3) / (0.45 + 0.2/3), 2 chunks / 2 matches -> penalty 0.5
		const fmean = (0.5 * (2 / 3)) / (0.9 * 0.5 + 0.1 * (2 / 3));
		expect(
			meteorScore(
				['hypocalcemia', 'causes', 'tetany'],
				['tetany', 'results', 'from', 'hypocalcemia']
			)
		).toBeCloseTo(fmean * 0.5, 15);
	});

	it('weights recall over precision (alpha 0.9)', () => {
		const fmean = 0.5 / (0.9 + 0.1 * 0.5);
		expect(meteorScore(['w', 'x', 'y', 'z'], ['w', 'x'])).toBeCloseTo(fmean * (1 - 0.5 / 8), 15);
	});

	it('returns 0 without matches or with an empty side', () => {
		expect(meteorScore(['a', 'b'], ['c'])).toBe(0);
		expect(meteorScore([], ['c'])).toBe(0);
		expect(meteorScore(['a'], [])).toBe(0);
	});
});
