import { describe, expect, it } from 'vitest';
import { casefold, cleanResponse, content, norm, pySplit, toText } from './text';
import { NLTK_STOP_WORDS } from './stopwords';

describe('norm (docs/scoring-behaviour.md §3.3)', () => {
	it.each([
		['3% - 30%', '3% 30%'],
		['4 to 6 mL/kg.', '4 to 6 ml kg'],
		["it's 5α-reductase", 'its 5α reductase'],
		['½ dose', '12 dose'],
		['Na⁺/K⁺ ATPase', 'na k atpase'],
		['  A:  Heparin. ', 'a: heparin'],
		['Straße', 'strasse'],
		['café Ångström', 'cafe angstrom'],
		['Intubation, muscle relaxation', 'intubation, muscle relaxation'],
		['(B) [x] {y}; z_w', 'b x y z w'],
		['１２３ ｍｇ', '123 mg'],
		['Apo B‐48', 'apo b48']
	])('%j -> %j', (input, expected) => {
		expect(norm(input)).toBe(expected);
	});

	it('casefolds final sigma like Python (σ, not ς)', () => {
		expect(casefold('ΟΔΟΣ')).toBe('οδοσ');
		expect(norm('ΟΔΟΣ')).toBe('οδοσ');
	});
});

describe('content (docs/scoring-behaviour.md §3.4)', () => {
	it('drops stop words and all-punctuation tokens but keeps attached punctuation', () => {
		expect(content('The patient is not on insulin.')).toBe('patient insulin.');
		expect(content('it? -- it ... (a)')).toBe('it? (a)');
	});
	it('uses the 198-word list including the 2024 contractions', () => {
		expect(NLTK_STOP_WORDS.size).toBe(198);
		expect(content("they've he's she's shouldn't vaccine")).toBe('vaccine');
	});
	it('splits on Python whitespace', () => {
		expect(pySplit(' a\u001fb\tc ')).toEqual(['a', 'b', 'c']);
	});
});

describe('toText and think stripping (docs/scoring-behaviour.md §3.1–3.2)', () => {
	it('unwraps arrays and pipeline objects', () => {
		expect(toText([{ generated_text: ' hi ' }, { text: 'there' }, { other: 1 }])).toBe('hi there');
		expect(toText(null)).toBe('None');
		expect(toText(true)).toBe('True');
		expect(toText({ generated_text: '', text: 'fallback' })).toBe('fallback');
	});
	it('removes closed think blocks across lines, case-insensitively, and keeps an unclosed one', () => {
		expect(cleanResponse('<THINK>a\nb</think> True <think>x</think>')).toBe('True');
		expect(cleanResponse('<think>never closed True')).toBe('<think>never closed True');
	});
});
