import { describe, expect, it } from 'vitest';
import {
	presentCandidates,
	presentationChoices,
	sentenceCase,
	splitParts,
	stripLabel,
	stripMarkup
} from './presentation';

const model = (text: string) => ({ text, isReference: false });
const reference = (text: string) => ({ text, isReference: true });

describe('stripLabel', () => {
	it('removes the prompt scaffolding case-insensitively, also in Markdown emphasis', () => {
		expect(stripLabel('Final Answer: Aspirin', ['final answer'])).toBe('Aspirin');
		expect(stripLabel('FINAL ANSWER:aspirin', ['final answer'])).toBe('aspirin');
		expect(stripLabel('**Final Answer:** Aspirin', ['final answer'])).toBe('Aspirin');
		expect(stripLabel('Final  answer : Aspirin', ['final answer'])).toBe('Aspirin');
	});
	it('leaves text that merely mentions a label alone', () => {
		expect(stripLabel('The final answer is aspirin', ['final answer'])).toBe(
			'The final answer is aspirin'
		);
	});
});

describe('sentenceCase', () => {
	it('capitalises a lower-case first word but keeps mixed-case terms', () => {
		expect(sentenceCase('when calcium is low')).toBe('When calcium is low');
		expect(sentenceCase('pH falls')).toBe('pH falls');
		expect(sentenceCase('mRNA vaccines')).toBe('mRNA vaccines');
		expect(sentenceCase('élevated')).toBe('Élevated');
	});
});

describe('presentCandidates', () => {
	it('true/false: the verdict alone, whatever its case or full stop', () => {
		const texts = presentCandidates({ type: 'true_false' }, [
			reference('True'),
			model('TRUE.'),
			model('Final Answer: true'),
			model('**True**')
		]);
		expect(texts).toEqual(['True', 'True', 'True', 'True']);
	});

	it('true/false: a model explanation is hidden by default (the reference has none)', () => {
		const item = { type: 'true_false' as const };
		expect(
			presentCandidates(item, [reference('False'), model('False. It is first-line.')])
		).toEqual(['False', 'False']);
		expect(presentCandidates(item, [model('False'), model('False. It is first-line.')])).toEqual([
			'False',
			'False'
		]);
	});

	it('with explanations chosen, a candidate that gave none gets no placeholder', () => {
		// A placeholder only some candidates get ("(none given)") marked them out.
		const texts = presentCandidates(
			{ type: 'true_false' },
			[model('False'), model('False. It is first-line.'), reference('False')],
			'with_detail'
		);
		expect(texts).toEqual([
			'Answer: False',
			'Answer: False\n\nExplanation:\nIt is first-line.',
			'Answer: False'
		]);
		for (const t of texts) expect(t).not.toMatch(/none given|\(none|n\/a/i);
	});

	it('removes markup and think blocks from every candidate alike', () => {
		expect(
			stripMarkup(
				'<think>\nLet me see. **Step 1** …\n</think>\n## Final Answer:\n**`True`** __yes__'
			)
		).toBe('Final Answer:\nTrue yes');
		expect(stripMarkup('reasoning without an opening tag</think>Final Answer: False')).toBe(
			'Final Answer: False'
		);
		expect(stripMarkup('- Step 2 is wrong\n* item\n• other')).toBe('Step 2 is wrong\nitem\nother');
		const item = { type: 'multi_hop' as const, reasoning: ['Step 1: Sodium is lost.'] };
		expect(
			presentCandidates(
				item,
				[
					reference('It rises'),
					model(
						'<think>Long musing.</think>\n**Final Answer:** It rises\n\n**Reasoning:**\n- Sodium is lost.'
					)
				],
				'with_detail'
			)
		).toEqual([
			'Answer: It rises\n\nReasoning:\nSodium is lost.',
			'Answer: It rises\n\nReasoning:\nSodium is lost.'
		]);
	});

	it('multiple choice: an answer matching an option is shown as the option text', () => {
		const item = { type: 'multiple_choice' as const, options: ['aspirin', 'warfarin'] };
		expect(
			presentCandidates(item, [
				reference('aspirin'),
				model('Aspirin.'),
				model('A. aspirin'),
				model('Warfarin')
			])
		).toEqual(['Aspirin', 'Aspirin', 'Aspirin', 'Warfarin']);
	});

	it('list: one separator, option order and option spelling for everyone', () => {
		const item = {
			type: 'list' as const,
			options: ['Nausea, vomiting', 'Hyperkalaemia', 'Bradycardia', 'Visual disturbance']
		};
		const texts = presentCandidates(item, [
			reference('Nausea, vomiting; Bradycardia; Hyperkalaemia'),
			model('bradycardia, nausea, vomiting, hyperkalaemia'),
			model('- Bradycardia\n- Hyperkalaemia\n- Nausea, vomiting'),
			model('Final Answer: C: Bradycardia, Tachycardia')
		]);
		expect(texts).toEqual([
			'Nausea, vomiting, Hyperkalaemia, Bradycardia',
			'Nausea, vomiting, Hyperkalaemia, Bradycardia',
			'Nausea, vomiting, Hyperkalaemia, Bradycardia',
			'Bradycardia, Tachycardia'
		]);
	});

	it('short answer: no prefix, sentence case, no final full stop', () => {
		const texts = presentCandidates({ type: 'short_answer' }, [
			reference('the median  nerve'),
			model('Final Answer: The median nerve.'),
			model('final answer:\nthe median nerve')
		]);
		expect(texts).toEqual(['The median nerve', 'The median nerve', 'The median nerve']);
	});

	it('short inverse: the explanation without its prefix, as a sentence', () => {
		const texts = presentCandidates({ type: 'short_inverse' }, [
			reference('ferritin is an acute-phase reactant'),
			model('Incorrect Explanation: Ferritin rises with inflammation.'),
			model('incorrect explanation: ferritin rises with inflammation')
		]);
		expect(texts).toEqual([
			'Ferritin is an acute-phase reactant.',
			'Ferritin rises with inflammation.',
			'Ferritin rises with inflammation.'
		]);
	});

	it('multi-hop: the final answer only by default (the item’s full reasoning is far longer)', () => {
		const item = {
			type: 'multi_hop' as const,
			reasoning: ['Step 1: Thiazides cause sodium loss.']
		};
		expect(
			presentCandidates(item, [
				reference('It rises'),
				model('Final Answer: It rises.\nReasoning: Step 1: Sodium loss.')
			])
		).toEqual(['It rises', 'It rises']);
		expect(presentationChoices({ multi_hop: 'with_detail' })).toMatchObject({
			multi_hop: 'with_detail',
			true_false: 'answer_only',
			multi_hop_inverse: 'with_detail'
		});
	});

	it('multi-hop with reasoning: the reference shows its steps as one paragraph, like the models', () => {
		const item = {
			type: 'multi_hop' as const,
			reasoning: ['Step 1: Thiazides cause sodium loss.', 'Step 2: lithium clearance falls']
		};
		const texts = presentCandidates(
			item,
			[
				reference('It rises'),
				model(
					'Final Answer: It rises.\nReasoning: Step 1: Sodium loss. Step 2: Less lithium cleared.'
				)
			],
			'with_detail'
		);
		expect(texts).toEqual([
			'Answer: It rises\n\nReasoning:\nThiazides cause sodium loss. Lithium clearance falls.',
			'Answer: It rises\n\nReasoning:\nSodium loss. Less lithium cleared.'
		]);
	});

	it('multi-hop: step labels go, a step mentioned inside a sentence stays', () => {
		expect(
			splitParts(
				{ type: 'multi_hop' },
				model('Final Answer: X\nReasoning: Step 1: As shown in step 2. it holds\n- Step 2) done')
			).detail
		).toBe('As shown in step 2. it holds. Done.');
	});

	it('multi-hop with reasoning: nobody has any, so answers alone', () => {
		const texts = presentCandidates(
			{ type: 'multi_hop', reasoning: [] },
			[reference('It rises'), model('Final Answer: It rises')],
			'with_detail'
		);
		expect(texts).toEqual(['It rises', 'It rises']);
	});

	it('multi-hop: an answer without a Reasoning label keeps later paragraphs as reasoning', () => {
		expect(
			splitParts({ type: 'multi_hop' }, model('Final Answer: It rises\n\nSodium is lost first.'))
		).toEqual({ answer: 'It rises', detail: 'Sodium is lost first.' });
	});

	it('multi-hop inverse: the step number and the explanation, for reference and models alike', () => {
		const texts = presentCandidates({ type: 'multi_hop_inverse' }, [
			reference('Step 2 contains the incorrect inference.\nExplanation: steady state takes weeks'),
			model(
				'Incorrect Reasoning Step: Step 2\nIncorrect Reasoning Explanation: Steady state takes weeks.'
			),
			model(
				'Incorrect Reasoning Step: 3\nIncorrect Reasoning Explanation: steady state takes weeks'
			)
		]);
		expect(texts).toEqual([
			'Incorrect step: 2\n\nExplanation:\nSteady state takes weeks.',
			'Incorrect step: 2\n\nExplanation:\nSteady state takes weeks.',
			'Incorrect step: 3\n\nExplanation:\nSteady state takes weeks.'
		]);
	});

	it('multi-hop inverse: a step line that mentions "explanation" is not taken as the explanation', () => {
		const parts = splitParts(
			{ type: 'multi_hop_inverse' },
			reference('Step 1 contradicts the explanation given earlier.\nExplanation: the dose is wrong')
		);
		expect(parts).toEqual({ answer: '1', detail: 'The dose is wrong.' });
	});

	it('collapses long whitespace runs in any answer (as imported, up to 200,000 characters)', () => {
		const gap = ' \n\t'.repeat(60_000);
		const text = `Final Answer:${gap}It rises${gap}Reasoning:${gap}Step 1:${gap}sodium loss`;
		expect(
			presentCandidates({ type: 'multi_hop' }, [model(text), model(text)], 'with_detail')
		).toEqual([
			'Answer: It rises\n\nReasoning:\nSodium loss.',
			'Answer: It rises\n\nReasoning:\nSodium loss.'
		]);
		expect(
			presentCandidates({ type: 'list', options: ['A b'] }, [model(`a${' \t'.repeat(100_000)}b`)])
		).toEqual(['A b']);
	});
});
