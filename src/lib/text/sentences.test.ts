import { describe, expect, it } from 'vitest';
import { splitAnswer, splitSentences } from './sentences';

/** The text with all whitespace removed: what splitting must preserve. */
const squeeze = (s: string) => s.replace(/\s+/g, '');

const ABSTRACT = [
	'BACKGROUND: Metformin 500 mg. twice daily was compared vs. placebo in adults with type 2 diabetes (Smith et al. 2019).',
	'Dr. J. Smith et al. (2020) reported that NSAIDs, e.g. ibuprofen, raise the risk of GI bleeding, i.e. 2.5-fold (p < 0.001; 95% CI 1.2-3.4).',
	'Three criteria were used: 1. Fever, 2. Cough and 3. Dyspnoea.',
	'The U.S. Food and Drug Administration label is shown in Fig. 2.',
	'Was it safe?',
	'"Yes."',
	'Renal function improved!'
];

describe('splitSentences', () => {
	it('splits an abstract without breaking at abbreviations, initials, decimals or list numbers', () => {
		expect(splitSentences(ABSTRACT.join(' '))).toEqual(ABSTRACT);
	});

	it('splits after "et al." only before a capital, and after units and "etc." before a capital', () => {
		expect(
			splitSentences('As Lee et al. (2018) and Kim et al. 2021 showed, it works.')
		).toHaveLength(1);
		expect(splitSentences('This was shown by Lee et al. The effect was small.')).toEqual([
			'This was shown by Lee et al.',
			'The effect was small.'
		]);
		expect(splitSentences('The dose was 5 mg. The next dose was 10 mg. daily.')).toEqual([
			'The dose was 5 mg.',
			'The next dose was 10 mg. daily.'
		]);
		expect(
			splitSentences('Fever, cough, etc. were recorded. Outcomes etc. Then it ended.')
		).toEqual(['Fever, cough, etc. were recorded.', 'Outcomes etc.', 'Then it ended.']);
	});

	it('splits before a digit or an opening bracket, but not inside a number', () => {
		expect(
			splitSentences('HbA1c fell by 0.5 %. 20 patients withdrew. (One died.) "Fine."')
		).toEqual(['HbA1c fell by 0.5 %.', '20 patients withdrew.', '(One died.)', '"Fine."']);
		expect(splitSentences('Mean 3.4 vs. 2.1 mmol/L (cf. Table 2, resp. 3) was seen.')).toHaveLength(
			1
		);
	});

	it('ends a sentence at a blank line, and at a line break after a period, but keeps headings', () => {
		expect(
			splitSentences(
				'OBJECTIVE:\nTo assess aspirin.\nMETHODS: A cohort study\nof 300 adults\n\nResults were mixed'
			)
		).toEqual([
			'OBJECTIVE:\nTo assess aspirin.',
			'METHODS: A cohort study\nof 300 adults',
			'Results were mixed'
		]);
	});

	it('trims and drops empty pieces', () => {
		expect(splitSentences('')).toEqual([]);
		expect(splitSentences('  \n\n \n ')).toEqual([]);
		expect(splitSentences('  One.   Two.  ')).toEqual(['One.', 'Two.']);
	});

	it('loses nothing but whitespace on any text', () => {
		const texts = [
			ABSTRACT.join('\n'),
			'a. b. c! D? "E." (F.) [G.]\n\n\nH...   I.J. K',
			'...!!??  .  . Ab. Cd.\t\tEf.\n',
			'Dr. No. 5 St. Mary. Mr. X. Y. Z. et al. Et al. (1999). i.e. I.E. The end',
			'x'.repeat(100) + '. ' + 'Y'.repeat(100) + '.'
		];
		for (const text of texts) {
			const sentences = splitSentences(text);
			expect(squeeze(sentences.join(' '))).toBe(squeeze(text));
			for (const s of sentences) expect(s).toBe(s.trim());
		}
	});

	it('finishes on large hostile inputs', () => {
		expect(splitSentences('a.'.repeat(100_000))).toHaveLength(1);
		expect(splitSentences('A. '.repeat(70_000)).length).toBeGreaterThan(0);
		expect(splitSentences('['.repeat(200_000))).toHaveLength(1);
	});
});

describe('splitAnswer', () => {
	it('gives each sentence its citations, removing the brackets', () => {
		expect(
			splitAnswer(
				'Metformin is first-line therapy for type 2 diabetes [34567890]. ' +
					'It lowers HbA1c by approx. 1 % vs. placebo, i.e. more than diet alone [23456789, 12345678]. ' +
					'Lactic acidosis is rare (Lee et al. 2019) [1234567,2345678].'
			)
		).toEqual([
			{ text: 'Metformin is first-line therapy for type 2 diabetes.', citations: ['34567890'] },
			{
				text: 'It lowers HbA1c by approx. 1 % vs. placebo, i.e. more than diet alone.',
				citations: ['23456789', '12345678']
			},
			{ text: 'Lactic acidosis is rare (Lee et al. 2019).', citations: ['1234567', '2345678'] }
		]);
	});

	it('attaches a citation after a final period to the sentence before it', () => {
		expect(
			splitAnswer('NSAIDs relieve pain. [111] Paracetamol is safer.[222] Both work.[333][444]')
		).toEqual([
			{ text: 'NSAIDs relieve pain.', citations: ['111'] },
			{ text: 'Paracetamol is safer.', citations: ['222'] },
			{ text: 'Both work.', citations: ['333', '444'] }
		]);
		// A bracket opening a sentence belongs to the one before; at the very start, to the first.
		expect(splitAnswer('[5] Aspirin helps.\n\n[6] It can bleed [7].')).toEqual([
			{ text: 'Aspirin helps.', citations: ['5', '6'] },
			{ text: 'It can bleed.', citations: ['7'] }
		]);
	});

	it('de-duplicates citations in order and keeps them as written', () => {
		expect(splitAnswer('Statins lower LDL [0012, 99] [99] [12] [0012].')).toEqual([
			{ text: 'Statins lower LDL.', citations: ['0012', '99', '12'] }
		]);
	});

	it('leaves brackets that are not citations in the text', () => {
		expect(splitAnswer('The range [1-3] and [1234567890] and [a] stay [12, ].')).toEqual([
			{ text: 'The range [1-3] and [1234567890] and [a] stay [12, ].', citations: [] }
		]);
	});

	it('merges a piece that is only a period or only citations into the sentence before', () => {
		expect(splitAnswer('Insulin is needed. [8]\n\n[9].\n\nDiet helps.')).toEqual([
			{ text: 'Insulin is needed.', citations: ['8', '9'] },
			{ text: 'Diet helps.', citations: [] }
		]);
		expect(splitAnswer('[1].\n\nFirst words.')).toEqual([
			{ text: 'First words.', citations: ['1'] }
		]);
		expect(splitAnswer('[1] [2]')).toEqual([]);
	});

	it('keeps every character of the answer without its citations, up to whitespace', () => {
		const answers = [
			'Beta-blockers reduce mortality after MI [1, 2]. ACE inhibitors (e.g. ramipril) too [3].[4] X.',
			'[10] Start. Middle [11] of a sentence [12]! End?[13]\n\nNew paragraph [14] here',
			'Dose: 2.5 mg. vs. 5 mg.[20] Dr. A. B. Cole et al. (2001) [21] agreed.'
		];
		for (const answer of answers) {
			const withoutCitations = answer.replace(/\[\d{1,9}(?:, ?\d{1,9})*\]/g, '');
			const joined = splitAnswer(answer)
				.map((s) => s.text)
				.join(' ');
			expect(squeeze(joined)).toBe(squeeze(withoutCitations));
		}
	});

	it('finishes on large hostile inputs', () => {
		expect(splitAnswer('a.'.repeat(100_000))).toHaveLength(1);
		expect(splitAnswer('['.repeat(200_000))).toHaveLength(1);
		expect(splitAnswer('[1'.repeat(100_000))).toHaveLength(1);
		expect(splitAnswer('[1,'.repeat(70_000)).length).toBe(1);
	});
});
