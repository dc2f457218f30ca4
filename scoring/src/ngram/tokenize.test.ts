import { describe, expect, it } from 'vitest';
import { sentTokenize } from './punkt';
import { treebankTokenize, wordTokenize } from './tokenize';

// Expected values are NLTK 3.8/3.9 outputs (word_tokenize with this module's Punkt parameters).
describe('wordTokenize', () => {
	it.each([
		[
			"the patient's level can't be 3.5 mg/dl.",
			['the', 'patient', "'s", 'level', 'ca', "n't", 'be', '3.5', 'mg/dl', '.']
		],
		[
			'it rose by 25% in 2020, then fell.',
			['it', 'rose', 'by', '25', '%', 'in', '2020', ',', 'then', 'fell', '.']
		],
		['he said "stop" and \'left\'.', ['he', 'said', '``', 'stop', "''", 'and', "'left", "'", '.']],
		[
			"i'll go; they're here: now!",
			['i', "'ll", 'go', ';', 'they', "'re", 'here', ':', 'now', '!']
		],
		['is it 3:1? yes', ['is', 'it', '3:1', '?', 'yes']],
		['hypocalcemia -- low calcium', ['hypocalcemia', '--', 'low', 'calcium']],
		['gonna cannot', ['gon', 'na', 'can', 'not']]
	])('tokenizes %j', (text, tokens) => {
		expect(wordTokenize(text)).toEqual(tokens);
	});

	it('splits the final period of every Punkt sentence, not of abbreviations', () => {
		expect(wordTokenize('it is low. it is high.')).toEqual([
			'it',
			'is',
			'low',
			'.',
			'it',
			'is',
			'high',
			'.'
		]);
		expect(wordTokenize('dr. smith prescribed it, e.g. twice daily.')).toEqual([
			'dr.',
			'smith',
			'prescribed',
			'it',
			',',
			'e.g.',
			'twice',
			'daily',
			'.'
		]);
	});

	it('keeps a number-final period before a lower-case word (orthographic heuristic)', () => {
		expect(wordTokenize('give 5. then stop')).toEqual(['give', '5.', 'then', 'stop']);
	});

	it('splits at an unknown abbreviation and realigns a closing bracket', () => {
		expect(sentTokenize('the dose (approx. 5 mg) was given...')).toEqual([
			'the dose (approx.',
			'5 mg) was given...'
		]);
		expect(wordTokenize('the dose (approx. 5 mg) was given...')).toEqual([
			'the',
			'dose',
			'(',
			'approx',
			'.',
			'5',
			'mg',
			')',
			'was',
			'given',
			'...'
		]);
		expect(sentTokenize('(it is low.) it is high.')).toEqual(['(it is low.)', 'it is high.']);
	});

	it('handles empty and blank input', () => {
		expect(wordTokenize('')).toEqual([]);
		expect(wordTokenize('   ')).toEqual([]);
	});
});

describe('treebankTokenize', () => {
	it('only splits a period at the end of its input', () => {
		expect(treebankTokenize('it is low. it is high.')).toEqual([
			'it',
			'is',
			'low.',
			'it',
			'is',
			'high',
			'.'
		]);
	});

	it('converts double quotes to Treebank quotes and pads brackets', () => {
		expect(treebankTokenize('"a" [b] {c} <d>')).toEqual([
			'``',
			'a',
			"''",
			'[',
			'b',
			']',
			'{',
			'c',
			'}',
			'<',
			'd',
			'>'
		]);
	});
});
