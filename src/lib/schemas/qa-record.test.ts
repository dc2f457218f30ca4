import { describe, expect, it } from 'vitest';
import { validRecord } from '../server/fixtures/records';
import { QA_TYPES } from '../constants';
import { incorrectStepNumber, typeFromFileName, validateQaRecord } from './qa-record';

function errorsOf(value: unknown, fallback?: Parameters<typeof validateQaRecord>[2]) {
	const r = validateQaRecord(value, 7, fallback);
	return r.ok ? [] : r.errors.map((e) => `${e.index}:${e.field}:${e.reason}`);
}

describe('validateQaRecord', () => {
	it.each(QA_TYPES)('accepts a valid %s record and keeps unknown keys', (type) => {
		const r = validateQaRecord({ ...validRecord(type), extra_note: 'kept' }, 0);
		expect(r.ok).toBe(true);
		if (r.ok) expect((r.record as Record<string, unknown>).extra_note).toBe('kept');
	});

	it('names the record index, the field and the reason', () => {
		const { question: _q, ...noQuestion } = validRecord('short_answer');
		expect(errorsOf(noQuestion)).toEqual(['7:question:is missing']);
	});

	it('rejects a record that is not an object', () => {
		expect(errorsOf('text')).toEqual(['7:(record):must be a JSON object']);
		expect(errorsOf([1, 2])).toEqual(['7:(record):must be a JSON object']);
	});

	it('rejects an unknown type and a missing type without a file hint', () => {
		expect(errorsOf({ ...validRecord('short_answer'), type: 'short' })[0]).toMatch(
			/^7:type:must be one of/
		);
		const { type: _t, ...untyped } = validRecord('short_answer');
		expect(errorsOf(untyped)).toEqual(['7:type:is missing']);
		expect(errorsOf(untyped, 'short_answer')).toEqual([]);
	});

	it('requires a source with a paragraph id and a whole page number', () => {
		expect(errorsOf({ ...validRecord('true_false'), source: undefined })).toEqual([
			'7:source:is missing'
		]);
		const bad = {
			...validRecord('true_false'),
			source: { isbn: 'x', page: 1.5, paragraph_id: '' }
		};
		const errs = errorsOf(bad);
		expect(errs.some((e) => e.startsWith('7:source.page:'))).toBe(true);
		expect(errs).toContain('7:source.paragraph_id:must not be empty');
	});

	it('true/false: answer must be "True" or "False"', () => {
		expect(errorsOf({ ...validRecord('true_false'), answer: 'Yes' })).toEqual([
			'7:answer:must be "True" or "False"'
		]);
		expect(errorsOf({ ...validRecord('true_false'), answer: true })[0]).toMatch(/^7:answer:/);
		expect(errorsOf({ ...validRecord('true_false'), answer: 'false' })).toEqual([]);
	});

	it('multiple choice: the correct answer must be an option text or letter', () => {
		expect(errorsOf({ ...validRecord('multiple_choice'), correct_answer: 'Statins' })).toEqual([
			'7:correct_answer:is neither one of the options nor an option letter'
		]);
		expect(errorsOf({ ...validRecord('multiple_choice'), correct_answer: 'B' })).toEqual([]);
		expect(errorsOf({ ...validRecord('multiple_choice'), options: 'A, B' })[0]).toMatch(
			/^7:options:/
		);
		expect(errorsOf({ ...validRecord('multiple_choice'), options: ['only'] })[0]).toMatch(
			/^7:options:needs at least 2/
		);
	});

	it('list: every answer must be among the options', () => {
		const rec = { ...validRecord('list'), answer: ['Weight gain', 'Hair loss'] };
		expect(errorsOf(rec)).toEqual(['7:answer[1]:is not among the options']);
		expect(errorsOf({ ...validRecord('list'), answer: [] })).toEqual([
			'7:answer:needs at least 1 answer'
		]);
		expect(errorsOf({ ...validRecord('list'), answer: 'Weight gain' })[0]).toMatch(/^7:answer:/);
	});

	it('short answer: answer must be a non-empty string', () => {
		expect(errorsOf({ ...validRecord('short_answer'), answer: '  ' })).toEqual([
			'7:answer:must not be empty'
		]);
	});

	it('short inverse: needs the gold incorrect_explanation', () => {
		const { incorrect_explanation: _e, ...rec } = validRecord('short_inverse');
		expect(errorsOf(rec)).toEqual(['7:incorrect_explanation:is missing']);
	});

	it('multi-hop: reasoning must be an array of steps', () => {
		expect(errorsOf({ ...validRecord('multi_hop'), reasoning: 'Step 1: x' })[0]).toMatch(
			/^7:reasoning:/
		);
		expect(errorsOf({ ...validRecord('multi_hop'), reasoning: ['ok', 3] })[0]).toMatch(
			/^7:reasoning\[1\]:/
		);
	});

	it('multi-hop inverse: the incorrect step must name a step that exists', () => {
		const rec = validRecord('multi_hop_inverse');
		expect(
			errorsOf({
				...rec,
				incorrect_reasoning_step: ['- Step 9 contains the incorrect inference', '- Explanation: x']
			})
		).toEqual(['7:incorrect_reasoning_step:names step 9, but the reasoning has 3 steps']);
		expect(
			errorsOf({ ...rec, incorrect_reasoning_step: ['- Explanation: no step named'] })
		).toEqual(['7:incorrect_reasoning_step:does not name the incorrect step ("Step K …")']);
		expect(
			errorsOf({ ...rec, incorrect_reasoning_step: '- Step 2 contains …\n- Explanation: y' })
		).toEqual([]);
	});
});

describe('helpers', () => {
	it('reads the type from ClinIQLink file names', () => {
		expect(typeFromFileName('data/TF.json')).toBe('true_false');
		expect(typeFromFileName('MC.json')).toBe('multiple_choice');
		expect(typeFromFileName('short.json')).toBe('short_answer');
		expect(typeFromFileName('multi_hop_inverse.json')).toBe('multi_hop_inverse');
		expect(typeFromFileName('mixed.json')).toBeUndefined();
	});
	it('finds the incorrect step number in either form', () => {
		expect(
			incorrectStepNumber(['- Step 3 contains the incorrect inference', '- Explanation: x'])
		).toBe(3);
		expect(incorrectStepNumber('nothing')).toBeNull();
	});
});
