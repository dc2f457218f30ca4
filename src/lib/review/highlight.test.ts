import { describe, expect, it } from 'vitest';
import {
	contentTerms,
	highlightSegments,
	MAX_HIGHLIGHTED,
	sentencesToHighlight,
	splitSentences
} from './highlight';

const METFORMIN =
	'Metformin remains the usual first-line glucose-lowering drug for adults with type 2 diabetes when lifestyle measures alone do not achieve the individual HbA1c target. ' +
	'It lowers hepatic glucose output, does not cause weight gain and rarely causes hypoglycaemia when used alone. ' +
	'Gastrointestinal effects such as nausea, diarrhoea and abdominal discomfort are common; starting at a low dose and titrating slowly, or switching to a modified-release preparation, improves tolerance. ' +
	'Because metformin is excreted by the kidneys, the dose is reviewed when the estimated glomerular filtration rate (eGFR) falls below 45 mL/min/1.73 m² and the drug is stopped when eGFR falls below 30 mL/min/1.73 m². ' +
	'Long-term use can reduce vitamin B12 absorption, so B12 should be checked if anaemia or neuropathy develops. ' +
	"Metformin is temporarily withheld during acute illness with dehydration ('sick day rules'), because of the small risk of lactic acidosis. " +
	'In patients with established cardiovascular disease or heart failure, an SGLT2 inhibitor is added.';

const sentences = (text: string) => splitSentences(text).map((s) => text.slice(s.start, s.end));
const chosen = (passage: string, query: string) =>
	sentencesToHighlight(passage, query).map((s) => passage.slice(s.start, s.end).trim());

describe('splitSentences', () => {
	it('splits a passage into sentences that join back to the same text', () => {
		const parts = sentences(METFORMIN);
		expect(parts).toHaveLength(7);
		expect(parts.join('')).toBe(METFORMIN);
		expect(parts[3]).toMatch(/^Because metformin .* 30 mL\/min\/1\.73 m²\. $/);
	});

	it('does not end a sentence at "e.g.", "i.e.", "Dr." or an initial', () => {
		const text =
			'Loop diuretics, e.g. Furosemide, relieve congestion. Dr. Smith and J. Jones, i.e. Two authors, agree. Decimal doses such as 1.6 micrograms stay whole.';
		expect(sentences(text)).toEqual([
			'Loop diuretics, e.g. Furosemide, relieve congestion. ',
			'Dr. Smith and J. Jones, i.e. Two authors, agree. ',
			'Decimal doses such as 1.6 micrograms stay whole.'
		]);
	});

	it('ends sentences at question and exclamation marks and before a number', () => {
		expect(sentences('Is it gout? Often! 30 % of flares recur.')).toEqual([
			'Is it gout? ',
			'Often! ',
			'30 % of flares recur.'
		]);
	});

	it('keeps a text without a full stop, and an empty text, as one span', () => {
		expect(splitSentences('no full stop here')).toEqual([{ start: 0, end: 17 }]);
		expect(splitSentences('')).toEqual([{ start: 0, end: 0 }]);
	});
});

describe('contentTerms', () => {
	it('drops stopwords and stems plurals and past tenses', () => {
		expect([...contentTerms('The inhibitors are stopped in the kidneys')]).toEqual([
			'inhibitor',
			'stopp',
			'kidney'
		]);
		expect(contentTerms('True or false: the answer is correct')).toEqual(new Set());
	});
});

describe('sentencesToHighlight', () => {
	it('marks the sentence that holds the answer to a renal-threshold question', () => {
		expect(
			chosen(
				METFORMIN,
				'Below which eGFR is metformin stopped in a patient with type 2 diabetes? Below 30 mL/min/1.73 m²'
			)
		).toEqual([sentences(METFORMIN)[3].trim()]);
	});

	it('marks the sentences a multi-hop reasoning runs through, in passage order', () => {
		const picked = chosen(
			METFORMIN,
			'A patient on metformin develops neuropathy. Which vitamin should be checked, and why? ' +
				'Vitamin B12, because long-term metformin use reduces B12 absorption. ' +
				'Step 1: long-term metformin use reduces vitamin B12 absorption. Step 2: check B12 when neuropathy develops.'
		);
		expect(picked[0]).toMatch(/^Long-term use can reduce vitamin B12 absorption/);
		expect(picked.length).toBeLessThanOrEqual(MAX_HIGHLIGHTED);
	});

	it('marks nothing when the question shares no terms with the passage', () => {
		expect(
			chosen(METFORMIN, 'Which bone is fractured in a Colles fracture? The distal radius')
		).toEqual([]);
	});

	it('marks nothing in a one-sentence passage', () => {
		expect(
			chosen(
				'Metformin is stopped when eGFR falls below 30.',
				'When is metformin stopped? eGFR below 30'
			)
		).toEqual([]);
	});

	it('needs more than one shared term: a sentence naming only the drug is not marked', () => {
		const picked = chosen(METFORMIN, 'Does metformin cause hypoglycaemia when used alone? Rarely');
		expect(picked).toEqual([sentences(METFORMIN)[1].trim()]);
	});
});

describe('highlightSegments', () => {
	it('leaves the text unchanged: the segments join back to the passage', () => {
		const spans = sentencesToHighlight(
			METFORMIN,
			'metformin eGFR stopped kidneys vitamin B12 absorption'
		);
		expect(spans.length).toBeGreaterThan(0);
		const segments = highlightSegments(METFORMIN, spans);
		expect(segments.map((s) => s.text).join('')).toBe(METFORMIN);
		expect(segments.filter((s) => s.marked).map((s) => s.text)).toEqual(
			spans.map((s) => METFORMIN.slice(s.start, s.end).trimEnd())
		);
	});

	it('is one unmarked segment when nothing is chosen', () => {
		expect(highlightSegments('Text.', [])).toEqual([{ text: 'Text.', marked: false }]);
	});
});
