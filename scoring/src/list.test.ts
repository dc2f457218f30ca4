import { describe, expect, it } from 'vitest';
import { scoreList } from './list';

const opts = ['Heparin', 'Warfarin', 'Aspirin', 'Clopidogrel'];
const rec = { question: 'q', options: opts, answer: ['Warfarin', 'Aspirin'] };
const five = { question: 'q', options: [...opts, 'Alteplase'], answer: ['Warfarin'] };
const composite = {
	question: 'q',
	options: ['Intubation, muscle relaxation', 'Surgery', 'Rest', 'Fluids'],
	answer: ['Intubation, muscle relaxation', 'Rest']
};
const many = (n: number) => ({
	question: 'q',
	options: Array.from({ length: n }, (_, i) => `Drug ${i}`),
	answer: ['Drug 0', 'Drug 27']
});

describe('list official (docs/scoring-behaviour.md §6)', () => {
	it('fast path: comma-separated option texts, duplicates collapse', () => {
		expect(scoreList(rec, 'Warfarin, Aspirin', 'official')).toMatchObject({
			f1: 1,
			matchType: 'full',
			malformed: false
		});
		expect(scoreList(rec, 'warfarin,aspirin, WARFARIN', 'official').f1).toBe(1);
	});
	it('bare letters map to options; a perfect set is reported as full', () => {
		expect(scoreList(rec, 'B, C', 'official')).toMatchObject({ f1: 1, matchType: 'full' });
		const r = scoreList(rec, 'B, D', 'official');
		expect(r).toMatchObject({ precision: 0.5, recall: 0.5, f1: 0.5, matchType: 'letter' });
	});
	it('letter-prefixed segments: "A: text" is a mixed match', () => {
		const r = scoreList(rec, 'A: Heparin, B: Warfarin', 'official');
		expect(r.matchType).toBe('mixed');
		expect(r.predicted).toEqual(['heparin', 'warfarin']);
		expect(r.f1).toBeCloseTo(0.5, 12);
	});
	it('one letter match whose text has commas is split into items', () => {
		const r = scoreList(rec, '(A) Heparin, Warfarin'.replace('(A)', 'A:'), 'official');
		expect(r.predicted).toEqual(['heparin', 'warfarin']);
		expect(r.f1).toBeCloseTo(0.5, 12);
	});
	it('keeps only the first paragraph (a reasoning paragraph replaces the answer)', () => {
		expect(scoreList(rec, 'Warfarin, Aspirin\n\nBecause both…', 'official').f1).toBe(1);
		expect(scoreList(rec, 'Let me think.\n\nWarfarin, Aspirin', 'official')).toMatchObject({
			f1: 0,
			malformed: true
		});
	});
	it('one unmatched item zeroes the item and becomes the whole pred_set', () => {
		const r = scoreList(rec, 'Warfarin, Aspirin, Vitamin K', 'official');
		expect(r).toMatchObject({
			precision: 0,
			recall: 0,
			f1: 0,
			malformed: true,
			predSet: ['vitamin k']
		});
	});
	it('a word ending in a key letter followed by "." counts as a prefix (quirk)', () => {
		// "Alteplase." ends in key E: everything before it is ignored and "Warfarin" alone is read.
		const r = scoreList(five, 'Aspirin, Alteplase. Warfarin', 'official');
		expect(r).toMatchObject({ f1: 1, matchType: 'full' });
	});
	it('re-joins segments of options that contain commas', () => {
		expect(scoreList(composite, 'Intubation, muscle relaxation, Rest', 'official')).toMatchObject({
			f1: 1,
			malformed: false
		});
	});
	it('a gold answer like "B cells" loses its head and can never match (quirk)', () => {
		const cells = {
			question: 'q',
			options: ['B cells', 'T cells', 'NK cells', 'Macrophages'],
			answer: ['B cells', 'T cells']
		};
		const r = scoreList(cells, 'B cells, T cells', 'official');
		expect(r.expected).toEqual(['cells', 't cells']);
		expect(r.f1).toBeCloseTo(0.5, 12);
		expect(scoreList(cells, 'B cells, T cells', 'corrected').f1).toBe(1);
	});
	it('empty response: not malformed, F1 0', () => {
		expect(scoreList(rec, '', 'official')).toMatchObject({
			f1: 0,
			malformed: false,
			matchType: 'none'
		});
	});
	it('strips one "X. " prefix from options', () => {
		const r = {
			question: 'q',
			options: ['A. Heparin', 'B: Warfarin', 'C.Aspirin'],
			answer: ['Warfarin']
		};
		expect(scoreList(r, 'Warfarin', 'official').f1).toBe(1);
	});
	it('drops items with exactly 28 options once the letter regex is needed, not 27 or 29', () => {
		expect(scoreList(many(28), 'A, B', 'official').dropped).toBe(true);
		expect(scoreList(many(28), 'Drug 0, Drug 27', 'official')).toMatchObject({
			dropped: false,
			f1: 1
		});
		expect(scoreList(many(29), 'A, B', 'official')).toMatchObject({ dropped: false, f1: 0.5 });
		expect(scoreList(many(27), 'Drug 0, Drug 1', 'official')).toMatchObject({
			dropped: false,
			f1: 0.5
		});
		expect(scoreList(many(29), 'Drug 0, Drug 27', 'official')).toMatchObject({
			dropped: false,
			f1: 1
		});
		expect(scoreList(many(28), 'Drug 0, Drug 27', 'corrected')).toMatchObject({
			dropped: false,
			f1: 1
		});
	});
});

describe('list corrected', () => {
	it.each([
		['Final Answer: Warfarin, Aspirin'],
		['- Warfarin\n- Aspirin'],
		['Warfarin; Aspirin'],
		['(B), (C)'],
		['B. Warfarin\nC. Aspirin'],
		['Warfarin, and Aspirin'],
		['Warfarin and Aspirin'],
		['Let me think about anticoagulants.\n\nWarfarin, Aspirin']
	])('%j scores 1', (resp) => {
		expect(scoreList(rec, resp, 'corrected').f1).toBe(1);
	});
	it('counts an unknown item as one false positive instead of zeroing', () => {
		const r = scoreList(rec, 'Warfarin, Aspirin, Vitamin K', 'corrected');
		expect(r.precision).toBeCloseTo(2 / 3, 12);
		expect(r.recall).toBe(1);
		expect(r.f1).toBeCloseTo(0.8, 12);
		expect(r.malformed).toBe(true);
	});
	it('does not treat a word ending in a key letter as a prefix', () => {
		expect(scoreList(five, 'Aspirin, Alteplase. Warfarin', 'corrected').f1).toBeLessThan(1);
	});
});
