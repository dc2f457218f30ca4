import { describe, expect, it } from 'vitest';
import { scoreTrueFalse } from './true-false';

const T = { question: 'q', answer: 'True' };
const F = { question: 'q', answer: 'False' };

describe('True/False official (docs/scoring-behaviour.md §4)', () => {
	it.each([
		['true', T, true, false],
		['TRUE.', T, true, true],
		['True. Because…', T, true, true],
		['Trueish', T, true, true],
		['Falsehood', F, true, true],
		['True/False', T, true, true]
	])('%j counts as the prefix word', (resp, rec, correct, malformed) => {
		const r = scoreTrueFalse(rec, resp, 'official');
		expect(r.correct).toBe(correct);
		expect(r.malformed).toBe(malformed);
		expect(r.invalid).toBe(false);
	});
	it.each(['Answer: True', '**True**', 'Yes', 'Final Answer: True', ''])(
		'%j is invalid',
		(resp) => {
			const r = scoreTrueFalse(T, resp, 'official');
			expect(r).toMatchObject({ predicted: '', correct: false, malformed: true, invalid: true });
		}
	);
	it('compares against the lower-cased gold', () => {
		expect(scoreTrueFalse(F, 'true', 'official').correct).toBe(false);
	});
});

describe('True/False corrected', () => {
	it.each([
		'Answer: True',
		'**True**',
		'Final Answer: True',
		'Some reasoning.\nFinal Answer: **True**'
	])('%j is read as true', (resp) => {
		expect(scoreTrueFalse(T, resp, 'corrected')).toMatchObject({
			predicted: 'true',
			correct: true,
			invalid: false
		});
	});
	it.each(['Trueish', 'True/False', 'Yes'])('%j is invalid', (resp) => {
		expect(scoreTrueFalse(T, resp, 'corrected')).toMatchObject({ correct: false, invalid: true });
	});
	it('does not flag a final period as malformed', () => {
		expect(scoreTrueFalse(T, 'True.', 'corrected').malformed).toBe(false);
	});
});
