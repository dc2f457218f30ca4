import { describe, expect, it } from 'vitest';
import { rubricDefinitionSchema } from '$lib/schemas/rubric';
import { SMALL_RUBRIC } from '$lib/server/fixtures/rubric';
import { missingScores, pagesOf } from './sheet';

const answers = ['a', 'b', 'c'].map((id, i) => ({ id, label: `Response ${'ABC'[i]}` }));

describe('pagesOf', () => {
	it('shows one answer a page, or pairs with a last odd answer alone', () => {
		expect(pagesOf(answers, 'single').map((p) => p.map((a) => a.id))).toEqual([
			['a'],
			['b'],
			['c']
		]);
		expect(pagesOf(answers, 'side_by_side').map((p) => p.map((a) => a.id))).toEqual([
			['a', 'b'],
			['c']
		]);
	});
});

describe('missingScores', () => {
	const rubric = rubricDefinitionSchema.parse(SMALL_RUBRIC);
	// Every answer scored on COND, CONC and ACC, with the required COND rationale.
	const full = () => ({
		scores: Object.fromEntries(
			answers.flatMap((a) => ['COND', 'CONC', 'ACC'].map((c) => [`${a.id}:${c}`, 0]))
		) as Record<string, number | undefined>,
		rationales: Object.fromEntries(answers.map((a) => [`${a.id}:COND`, 'why']))
	});

	it('finds nothing on a complete sheet (a score of 0 counts as given)', () => {
		const { scores, rationales } = full();
		expect(missingScores(rubric, answers, scores, rationales)).toEqual({
			problems: [],
			first: null
		});
	});
	it('lists each missing score and required rationale, and the first sub-aspect at fault', () => {
		const { scores, rationales } = full();
		scores['c:ACC'] = undefined;
		scores['b:CONC'] = undefined;
		rationales['b:COND'] = '  ';
		expect(missingScores(rubric, answers, scores, rationales)).toEqual({
			problems: [
				'Response B, COND (Relevance to the condition): this sub-aspect asks for a rationale.',
				'Response B, CONC (Addresses every concern): give a score.',
				'Response C, ACC (Factual accuracy): give a score.'
			],
			first: 'b:COND'
		});
	});
});
