import { describe, expect, it } from 'vitest';
import { parseGoldStep, parsePredictedStep, stepDistance, stepPenalty } from './steps';

describe('gold step (docs/scoring-behaviour.md §8.4)', () => {
	it('reads step and explanation from the two-line array', () => {
		const g = parseGoldStep(
			['- Step 3 contains the incorrect inference.', '- Explanation: Because X: Y.'],
			'official'
		);
		expect(g).toEqual({ step: 3, explanation: 'Because X: Y.' });
	});
	it('accepts a newline-separated string', () => {
		expect(parseGoldStep('  - Step 2 is wrong\n\n - Explanation: bad  ', 'official')).toEqual({
			step: 2,
			explanation: 'bad'
		});
	});
	it('official takes a step line mentioning "explanation" as the explanation (quirk)', () => {
		const lines = [
			'- Step 5 contains the incorrect inference, contradicting the explanation given.',
			'- Explanation: real one'
		];
		expect(parseGoldStep(lines, 'official').explanation).toBe(lines[0]);
		expect(parseGoldStep(lines, 'corrected').explanation).toBe('real one');
	});
	it('Step **2** has no number officially; corrected strips the markdown', () => {
		const lines = ['- Step **2** contains the incorrect inference.', '- Explanation: x'];
		expect(parseGoldStep(lines, 'official').step).toBeNull();
		expect(parseGoldStep(lines, 'corrected').step).toBe(2);
	});
});

describe('predicted step', () => {
	it.each([
		['Step 3', 3],
		['step:3', 3],
		['STEP-03', 3],
		['Incorrect Reasoning Step: 4', 4],
		['Step: Step 3', 3],
		['Missteps 2', null],
		['Misstep 2', 2],
		['step three', null],
		['**Incorrect Reasoning Step:** 3', null]
	])('official %j -> %s', (resp, step) => {
		expect(parsePredictedStep(resp, 'official').step).toBe(step);
	});
	it.each([
		['**Incorrect Reasoning Step:** 3', 3],
		['step three', 3],
		['Misstep 2', null]
	])('corrected %j -> %s', (resp, step) => {
		expect(parsePredictedStep(resp, 'corrected').step).toBe(step);
	});
	it('explanation follows the first "explanation" (also inside words) with one optional colon', () => {
		expect(
			parsePredictedStep('Step 2\nIncorrect Reasoning Explanation: because', 'official').explanation
		).toBe('because');
		expect(parsePredictedStep('no header here', 'official').explanation).toBe('no header here');
		expect(parsePredictedStep('Explanations:: x', 'official').explanation).toBe('s:: x');
	});
});

describe('penalty α(d)', () => {
	it.each([
		[null, 1],
		[0, 1],
		[1, 0.7],
		[2, 0.3],
		[3, 0.15],
		[4, 0.075],
		[5, 0.0375]
	])('α(%s) = %s', (d, a) => {
		expect(stepPenalty(d)).toBeCloseTo(a, 12);
	});
	it('official never penalises a missing step; corrected uses the farthest step of the chain', () => {
		expect(stepDistance(3, null, 'official', 5)).toBeNull();
		expect(stepDistance(3, null, 'corrected', 5)).toBe(2);
		expect(stepDistance(1, null, 'corrected', 5)).toBe(4);
		expect(stepDistance(null, 2, 'corrected', 5)).toBeNull();
		expect(stepDistance(3, 5, 'official', 5)).toBe(2);
	});
});
