import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from './embedders/hash';
import { openPair, scoreMultiHopInverse, scoreOpen } from './open-ended';
import { SemanticScorer } from './semantic';

const ngram = () => ({ bleu: 0.5, rouge: 0.5, meteor: 0.5 });
const short = { question: 'What is given?', answer: 'Insulin therapy' };

describe('open-ended pairs (docs/scoring-behaviour.md §8)', () => {
	it('short keeps "Final Answer:" officially and extracts it in corrected mode', () => {
		expect(openPair('short_answer', short, 'Final Answer: Insulin', 'official').prediction).toBe(
			'final answer: insulin'
		);
		expect(openPair('short_answer', short, 'Final Answer: Insulin', 'corrected').prediction).toBe(
			'insulin'
		);
	});
	it('multi_hop corrected stops at "Reasoning:"', () => {
		const p = openPair(
			'multi_hop',
			short,
			'Final Answer: Insulin therapy.\nReasoning: because',
			'corrected'
		);
		expect(p.prediction).toBe('insulin therapy.');
		expect(
			openPair('multi_hop', short, 'Final Answer: X\nReasoning: y', 'official').prediction
		).toBe('final answer: x\nreasoning: y');
	});
	it('short_inverse compares incorrect_explanation and strips the prefix only at position 0 officially', () => {
		const rec = { question: 'q', answer: 'wrong', incorrect_explanation: 'because' };
		expect(
			openPair('short_inverse', rec, 'Incorrect Explanation:  because', 'official')
		).toMatchObject({ expected: 'because', prediction: 'because' });
		expect(
			openPair('short_inverse', rec, '**Incorrect Explanation:** because', 'official').prediction
		).toBe('**incorrect explanation:** because');
		expect(
			openPair('short_inverse', rec, '**Incorrect Explanation:** because', 'corrected').prediction
		).toBe('because');
	});
	it('an echoed question scores 0 on every metric', async () => {
		const sem = await SemanticScorer.create(createHashEmbedder(64), 'official', ['a']);
		const r = await scoreOpen('short_answer', short, ' what is GIVEN? ', 'official', sem, ngram);
		expect(r).toMatchObject({ echo: true, semantic: 0, bleu: 0, rouge: 0, meteor: 0 });
	});
	it('a throwing n-gram function gives zeros, not a failure', async () => {
		const sem = await SemanticScorer.create(createHashEmbedder(64), 'official', ['a']);
		const r = await scoreOpen('short_answer', short, 'insulin', 'official', sem, () => {
			throw new Error('wordnet missing');
		});
		expect(r).toMatchObject({ bleu: 0, rouge: 0, meteor: 0 });
		expect(r.semantic).toBeGreaterThan(0);
	});
});

describe('multi_hop_inverse item', () => {
	const rec = {
		question: 'q',
		reasoning: ['Step 1: a', 'Step 2: b', 'Step 3: c', 'Step 4: d', 'Step 5: e'],
		incorrect_reasoning_step: [
			'- Step 3 contains the incorrect inference.',
			'- Explanation: the dose is wrong'
		]
	};
	it('multiplies the semantic score by α(d)', async () => {
		const sem = await SemanticScorer.create(createHashEmbedder(64), 'official', ['a']);
		const exact = await scoreMultiHopInverse(
			rec,
			'Step 3\nExplanation: the dose is wrong',
			'official',
			sem,
			ngram
		);
		expect(exact).toMatchObject({
			semantic: 1,
			expectedStep: 3,
			predictedStep: 3,
			stepDistance: 0,
			penalty: 1,
			stepCorrect: true
		});
		const off = await scoreMultiHopInverse(
			rec,
			'Step 5\nExplanation: the dose is wrong',
			'official',
			sem,
			ngram
		);
		expect(off).toMatchObject({ semantic: 0.3, stepDistance: 2, stepCorrect: false });
		const none = await scoreMultiHopInverse(
			rec,
			'Explanation: the dose is wrong',
			'official',
			sem,
			ngram
		);
		expect(none).toMatchObject({
			semantic: 1,
			predictedStep: null,
			stepDistance: null,
			penalty: 1
		});
		const cor = await scoreMultiHopInverse(
			rec,
			'Explanation: the dose is wrong',
			'corrected',
			sem,
			ngram
		);
		expect(cor).toMatchObject({
			semantic: 0.3,
			stepDistance: null,
			penalty: 0.3,
			stepCorrect: false
		});
	});
});
