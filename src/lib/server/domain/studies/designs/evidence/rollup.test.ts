import { describe, expect, it } from 'vitest';
import type { AssertionState } from './assessment';
import {
	officialRelation,
	rollUpAnswer,
	rollUpSentence,
	sentenceRelevance,
	type AssessedSentence
} from './rollup';

const assertion = (
	relevance: AssertionState['relevance'],
	relations: [string, AssertionState['relations'][number]['relation']][] = []
): AssertionState => ({
	start: 0,
	end: 1,
	relevance,
	relations: relations.map(([pmid, relation]) => ({ pmid, relation, evidence: [1] }))
});

const sentence = (
	assertions: AssertionState[],
	options: { citations?: string[]; interpretable?: boolean | null; position?: number } = {}
): AssessedSentence => ({
	position: options.position ?? 1,
	text: 'Aspirin lowers the risk.',
	citations: options.citations ?? ['11', '22'],
	state: { interpretable: options.interpretable ?? true, assertions }
});

describe('sentence relevance', () => {
	it('takes the most serious label: inappropriate, then required, borderline, unnecessary', () => {
		expect(sentenceRelevance(['unnecessary', 'required', 'inappropriate'])).toBe('inappropriate');
		expect(sentenceRelevance(['unnecessary', 'borderline', 'required'])).toBe('required');
		expect(sentenceRelevance(['unnecessary', 'borderline'])).toBe('borderline');
		expect(sentenceRelevance(['unnecessary'])).toBe('unnecessary');
		expect(sentenceRelevance([])).toBeNull();
		expect(sentenceRelevance([null])).toBeNull();
	});
});

describe('official relation of one document', () => {
	it('contradicting wins, then any support (partial included), neutral, not relevant', () => {
		expect(officialRelation(['supports', 'contradicts'])).toBe('contradicting');
		expect(officialRelation(['neutral', 'partially_supports'])).toBe('supporting');
		expect(officialRelation(['not_relevant', 'neutral'])).toBe('neutral');
		expect(officialRelation(['not_relevant'])).toBe('not relevant');
		expect(officialRelation([])).toBeNull();
	});
});

describe('rolling up a sentence', () => {
	it('combines the assertions per cited document, leaving out documents nobody judged', () => {
		const s = sentence(
			[
				assertion('unnecessary', [
					['11', 'partially_supports'],
					['22', 'neutral']
				]),
				assertion('required', [
					['11', 'neutral'],
					['22', 'contradicts']
				])
			],
			{ citations: ['11', '22', '33'] }
		);
		expect(rollUpSentence(true, s)).toEqual({
			answer_sentence_id: '1',
			answer_sentence: 'Aspirin lowers the risk.',
			answer_sentence_relevance: 'required',
			citation_assessment: [
				{ cited_pmid: '11', evidence_relation: 'supporting' },
				{ cited_pmid: '22', evidence_relation: 'contradicting' }
			]
		});
	});

	it('gives nulls to an uninterpretable sentence and to every sentence of a non-answer', () => {
		const judged = sentence([assertion('required', [['11', 'supports']])]);
		for (const [answers, s] of [
			[true, sentence([], { interpretable: false })],
			[false, judged],
			[true, { ...judged, state: null }]
		] as const) {
			const r = rollUpSentence(answers, s);
			expect(r.answer_sentence_relevance).toBeNull();
			expect(r.citation_assessment).toBeNull();
		}
	});

	it('a sentence citing nothing has no citation assessment; one with no assertion no relevance', () => {
		const r = rollUpSentence(true, sentence([assertion('borderline')], { citations: [] }));
		expect(r).toMatchObject({ answer_sentence_relevance: 'borderline', citation_assessment: null });
		const empty = rollUpSentence(true, sentence([]));
		expect(empty).toMatchObject({ answer_sentence_relevance: null, citation_assessment: [] });
	});

	it('orders an answer’s sentences by position and writes yes / no', () => {
		const a = rollUpAnswer(true, [
			sentence([assertion('required')], { position: 2, citations: [] }),
			sentence([assertion('unnecessary')], { position: 1, citations: [] })
		]);
		expect(a.is_answer_accurate).toBe('yes');
		expect(a.answer_sentences.map((s) => s.answer_sentence_id)).toEqual(['1', '2']);
		expect(rollUpAnswer(false, []).is_answer_accurate).toBe('no');
	});
});
