import { describe, expect, it } from 'vitest';
import { rankProblem, tagInconsistencies } from './rules';

describe('rankProblem', () => {
	it('accepts a permutation and refuses gaps, duplicates and blanks without ties', () => {
		expect(rankProblem([2, 1, 3], false)).toBeNull();
		expect(rankProblem([1, 1, 3], false)).toMatch(/more than once/);
		expect(rankProblem([1, 2, 4], false)).toMatch(/between 1 and 3/);
		expect(rankProblem([1, null, 2], false)).toMatch(/1 of 3 not ranked/);
		expect(rankProblem([1, 2.5, 3], false)).toMatch(/not ranked/);
	});

	it('accepts competition-style ties only when ties are allowed', () => {
		expect(rankProblem([1, 1, 3], true)).toBeNull();
		expect(rankProblem([2, 2, 2, 1], true)).toBeNull();
		expect(rankProblem([1, 1, 2], true)).toMatch(/does not fit/);
		expect(rankProblem([1, 2, 3], true)).toBeNull();
	});
});

describe('tagInconsistencies', () => {
	it('warns when a better-ranked response has a worse tag', () => {
		const w = tagInconsistencies([
			{ label: 'Response A', rank: 1, tag: 'bad' },
			{ label: 'Response B', rank: 2, tag: 'good' },
			{ label: 'Response C', rank: 3, tag: 'bad' }
		]);
		expect(w).toEqual([
			'Response A is ranked above Response B but tagged “bad” while Response B is “good”.'
		]);
	});

	it('is quiet for consistent or equal tags', () => {
		expect(
			tagInconsistencies([
				{ label: 'A', rank: 1, tag: 'okay' },
				{ label: 'B', rank: 2, tag: 'okay' },
				{ label: 'C', rank: 3, tag: 'bad' }
			])
		).toEqual([]);
	});
});
