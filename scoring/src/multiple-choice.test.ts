import { describe, expect, it } from 'vitest';
import { scoreMultipleChoice } from './multiple-choice';

const rec = {
	question: 'q',
	options: ['Heparin', 'Warfarin', 'Aspirin', 'Clopidogrel'],
	correct_answer: 'Warfarin'
};

describe('multiple choice official (docs/scoring-behaviour.md §5)', () => {
	it.each([
		['warfarin.', true, 'full'],
		['  WARFARIN ', true, 'full'],
		['B', false, 'letter'],
		['B.', false, 'letter'],
		['(B)', false, 'letter'],
		['A', false, 'none'],
		['Answer: B', false, 'none'],
		['B: Warfarin', false, 'mixed'],
		['B. Warfarin', false, 'none'],
		['Final Answer: Warfarin', false, 'none'],
		['Warfarin, because it is a vitamin K antagonist', false, 'none'],
		['Heparin', false, 'none']
	])('%j -> correct=%s match=%s', (resp, correct, matchType) => {
		const r = scoreMultipleChoice(rec, resp, 'official');
		expect(r.correct).toBe(correct);
		expect(r.matchType).toBe(matchType);
		expect(r.invalid).toBe(false);
	});
	it('accepts a letter as the gold correct_answer', () => {
		expect(
			scoreMultipleChoice({ ...rec, correct_answer: 'b' }, 'Warfarin', 'official').correct
		).toBe(true);
	});
	it('keeps commas significant', () => {
		const r = {
			question: 'q',
			options: ['Intubation, muscle relaxation', 'Surgery'],
			correct_answer: 'Intubation, muscle relaxation'
		};
		expect(scoreMultipleChoice(r, 'Intubation muscle relaxation', 'official').correct).toBe(false);
		expect(scoreMultipleChoice(r, 'intubation,  muscle relaxation.', 'official').correct).toBe(
			true
		);
	});
	it('mixed needs the raw option to equal the text (norm changes beyond case never qualify)', () => {
		const r = { question: 'q', options: ['Heparin', 'Warfarin.'], correct_answer: 'Warfarin.' };
		expect(scoreMultipleChoice(r, 'B: Warfarin', 'official').matchType).toBe('none');
	});
	it('enumerates an options object by its keys (quirk)', () => {
		const r = { question: 'q', options: { A: 'Heparin', B: 'Warfarin' }, correct_answer: 'B' };
		expect(scoreMultipleChoice(r, 'Warfarin', 'official').correct).toBe(false);
		expect(scoreMultipleChoice(r, 'B', 'official').correct).toBe(true);
	});
});

describe('multiple choice corrected', () => {
	it.each([
		['B', 'letter'],
		['(b)', 'letter'],
		['Answer: B', 'letter'],
		['B. Warfarin', 'mixed'],
		['Final Answer: Warfarin', 'full'],
		['Reasoning first.\nFinal Answer: **B**', 'letter'],
		['Warfarin, because it is a vitamin K antagonist', 'full']
	])('%j is correct (%s)', (resp, matchType) => {
		expect(scoreMultipleChoice(rec, resp, 'corrected')).toMatchObject({ correct: true, matchType });
	});
	it('treats a letter with another option text as contradictory (invalid)', () => {
		expect(scoreMultipleChoice(rec, 'B: Heparin', 'corrected')).toMatchObject({
			correct: false,
			invalid: true
		});
	});
	it('marks an unreadable answer invalid and a wrong option as wrong', () => {
		expect(scoreMultipleChoice(rec, 'Z', 'corrected').invalid).toBe(true);
		expect(scoreMultipleChoice(rec, 'A', 'corrected')).toMatchObject({
			correct: false,
			invalid: false
		});
	});
	it('uses the values of an options object', () => {
		const r = { question: 'q', options: { A: 'Heparin', B: 'Warfarin' }, correct_answer: 'B' };
		expect(scoreMultipleChoice(r, 'Warfarin', 'corrected').correct).toBe(true);
	});
});
