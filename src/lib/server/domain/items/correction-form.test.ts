import { describe, expect, it } from 'vitest';
import { QA_TYPES } from '../../../constants';
import { validateQaRecord, type QaRecord } from '../../../schemas/qa-record';
import { validRecord } from '../../fixtures/records';
import { diffRecords, wordDiff } from './correction-diff';
import {
	applyListOp,
	checkCorrection,
	recordFromValues,
	valuesFromForm,
	valuesFromRecord
} from './correction-form';

const record = (type: (typeof QA_TYPES)[number]) => {
	const checked = validateQaRecord(validRecord(type), 0);
	if (!checked.ok) throw new Error('fixture invalid');
	return checked.record;
};

describe('correction form', () => {
	it.each(QA_TYPES)('gives back the same record when nothing is changed (%s)', (type) => {
		const r = record(type);
		const result = checkCorrection(r, valuesFromRecord(r));
		expect(result).toEqual({ ok: true, record: r });
	});

	it('reads the posted form: repeated names as rows, the chosen option by index', () => {
		const form = new FormData();
		form.set('question', 'Q?');
		for (const o of ['a', 'b']) form.append('options', o);
		form.set('correct', '1');
		const v = valuesFromForm(form);
		expect(v).toMatchObject({ question: 'Q?', options: ['a', 'b'], correct: '1', reasoning: [] });
	});

	it('writes the chosen multiple-choice option as its text, keeping extra keys', () => {
		const r = { ...record('multiple_choice'), id: 'mc-7' } as QaRecord;
		const v = { ...valuesFromRecord(r), correct: '2' };
		expect(recordFromValues(r, v)).toMatchObject({ correct_answer: 'Alpha blockers', id: 'mc-7' });
	});

	it('names each field at fault in words, on the row it concerns', () => {
		const r = record('list');
		const v = { ...valuesFromRecord(r), question: ' ', answers: ['Weight gain', 'Fever'] };
		const result = checkCorrection(r, v);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.errors).toEqual({
			question: 'Question must not be empty.',
			'answers.1': 'Correct answer 2 is not among the options.'
		});
	});

	it('asks for the correct option of a multiple-choice item and for a valid page', () => {
		const r = record('multiple_choice');
		const result = checkCorrection(r, { ...valuesFromRecord(r), correct: '', page: 'ten' });
		expect(result.ok ? {} : result.errors).toMatchObject({
			correct: 'Choose the correct option.',
			page: expect.stringMatching(/^Page /)
		});
	});

	it('refuses a multi-hop-inverse step outside the reasoning', () => {
		const r = record('multi_hop_inverse');
		const v = valuesFromRecord(r);
		v.incorrect_step[0] = '- Step 9 contains the incorrect inference that …';
		const result = checkCorrection(r, v);
		expect(result.ok ? {} : result.errors).toEqual({
			incorrect_step: 'Incorrect reasoning step names step 9, but the reasoning has 3 steps.'
		});
	});

	it('adds, removes and moves rows without JavaScript', () => {
		const v = valuesFromRecord(record('multi_hop'));
		expect(applyListOp(v, 'add:reasoning').reasoning).toHaveLength(4);
		expect(applyListOp(v, 'remove:reasoning:0').reasoning[0]).toMatch(/^Step 2/);
		expect(applyListOp(v, 'down:reasoning:0').reasoning.slice(0, 2)).toEqual([
			v.reasoning[1],
			v.reasoning[0]
		]);
		expect(applyListOp(v, 'up:reasoning:0')).toEqual(v);
		expect(applyListOp(v, 'add:question')).toEqual(v);
	});
});

describe('correction preview', () => {
	it('marks only the changed words', () => {
		expect(wordDiff('the red fox', 'the brown fox')).toEqual({
			before: [
				{ text: 'the ', changed: false },
				{ text: 'red', changed: true },
				{ text: ' fox', changed: false }
			],
			after: [
				{ text: 'the ', changed: false },
				{ text: 'brown', changed: true },
				{ text: ' fox', changed: false }
			]
		});
	});

	it('lists every field of the type, changed ones flagged', () => {
		const before = record('multiple_choice');
		const after = { ...before, correct_answer: 'Beta blockers', question: 'Which class?' };
		const diff = diffRecords(before, after as QaRecord);
		expect(diff.map((f) => [f.label, f.changed])).toEqual([
			['Question', true],
			['Options', false],
			['Correct option', true],
			['ISBN', false],
			['Page', false],
			['Paragraph id', false]
		]);
		expect(diff[2].after).toEqual([{ text: 'B. Beta blockers', changed: true }]);
	});
});
