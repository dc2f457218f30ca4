import { describe, expect, it } from 'vitest';
import { agreedJudgement, isDisagreement } from './disagreement';

const defaults = { disagreeOnVerdict: true, relevanceGap: 2 };

describe('disagreement rules', () => {
	it.each([
		[{ verdict: 'correct', relevance: 5 }, { verdict: 'correct', relevance: 4 }, false],
		[{ verdict: 'correct', relevance: 5 }, { verdict: 'correct', relevance: 3 }, true],
		[{ verdict: 'correct', relevance: 5 }, { verdict: 'incorrect', relevance: 5 }, true],
		[{ verdict: 'cannot_tell', relevance: 2 }, { verdict: 'correct', relevance: 2 }, true]
	] as const)('with the defaults, %o vs %o disagree: %s', (a, b, expected) => {
		expect(isDisagreement(a, b, defaults)).toBe(expected);
	});

	it('follows the dataset rules: verdicts ignored, a gap of 3', () => {
		const rules = { disagreeOnVerdict: false, relevanceGap: 3 };
		expect(
			isDisagreement(
				{ verdict: 'correct', relevance: 5 },
				{ verdict: 'incorrect', relevance: 3 },
				rules
			)
		).toBe(false);
		expect(
			isDisagreement(
				{ verdict: 'correct', relevance: 5 },
				{ verdict: 'correct', relevance: 2 },
				rules
			)
		).toBe(true);
	});

	it('combines agreeing reviews cautiously', () => {
		expect(
			agreedJudgement({ verdict: 'correct', relevance: 5 }, { verdict: 'correct', relevance: 4 })
		).toEqual({
			verdict: 'correct',
			relevance: 4
		});
		expect(
			agreedJudgement({ verdict: 'correct', relevance: 5 }, { verdict: 'incorrect', relevance: 5 })
		).toEqual({
			verdict: 'incorrect',
			relevance: 5
		});
	});
});
