import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from '$lib/server/forms';
import { pairsOf } from './pairing';
import { studyFormMessage, studyFormSchema } from './study-form';

const base = { name: 'Pairs', modelIds: ['1', '2'], ratersPerQuestion: '2' };

describe('the create-study form', () => {
	it('reads a balanced pairwise study with p, seed and a rubric for aspect preferences', () => {
		const parsed = studyFormSchema.parse({
			...base,
			design: 'pairwise',
			pairing: 'balanced',
			pairsPerQuestion: ' 2 ',
			pairSeed: ' trial-1 ',
			aspectRubricId: '4',
			rubricId: '9'
		});
		expect(parsed).toMatchObject({
			design: 'pairwise',
			pairing: 'balanced',
			pairsPerQuestion: 2,
			pairSeed: 'trial-1',
			rubricId: 4,
			ratersPerQuestion: 2
		});
	});

	it('leaves the seed to be drawn when blank, and p out when every pair is shown', () => {
		const balanced = studyFormSchema.parse({
			...base,
			design: 'pairwise',
			pairing: 'balanced',
			pairsPerQuestion: '3',
			pairSeed: '  '
		});
		expect(balanced.pairSeed).toBeUndefined();
		const all = studyFormSchema.parse({
			...base,
			design: 'pairwise',
			pairing: 'all',
			pairsPerQuestion: '3',
			pairSeed: 'x'
		});
		expect(all).toMatchObject({ pairing: 'all' });
		expect(all.pairsPerQuestion).toBeUndefined();
		expect(all.pairSeed).toBeUndefined();
		expect(all.rubricId).toBeUndefined();
	});

	it('names the field at fault when a balanced sample lacks p or gets a bad one', () => {
		for (const [p, message] of [
			['', 'Say how many pairs each question gets (p) for a balanced sample.'],
			['0', 'Pairs per question must be a whole number from 1 to 351.'],
			['2.5', 'Pairs per question must be a whole number from 1 to 351.'],
			['400', 'Pairs per question must be a whole number from 1 to 351.']
		]) {
			const parsed = studyFormSchema.safeParse({
				...base,
				design: 'pairwise',
				pairing: 'balanced',
				pairsPerQuestion: p
			});
			expect(parsed.success).toBe(false);
			const errors = zodFieldErrors(parsed.error!);
			expect(errors).toEqual({ pairsPerQuestion: message });
			expect(studyFormMessage(errors)).toBe(message);
		}
		const seed = studyFormSchema.safeParse({
			...base,
			design: 'pairwise',
			pairing: 'balanced',
			pairsPerQuestion: '2',
			pairSeed: 's'.repeat(101)
		});
		expect(zodFieldErrors(seed.error!)).toEqual({ pairSeed: 'must be at most 100 characters' });
	});

	it('ignores the pairwise fields of another design', () => {
		const parsed = studyFormSchema.parse({
			...base,
			design: 'rubric',
			rubricId: '9',
			aspectRubricId: '4',
			pairing: 'balanced',
			pairsPerQuestion: 'lots'
		});
		expect(parsed.rubricId).toBe(9);
		expect(parsed).not.toHaveProperty('pairing');
		expect(parsed).not.toHaveProperty('pairsPerQuestion');
	});

	it('reads an evidence study’s mode, per assertion unless per sentence is chosen', () => {
		const sentence = studyFormSchema.parse({
			...base,
			design: 'evidence',
			source: '7',
			evidenceMode: 'sentence'
		});
		expect(sentence).toMatchObject({
			design: 'evidence',
			questionSetId: 7,
			evidenceMode: 'sentence'
		});
		const plain = studyFormSchema.parse({ ...base, design: 'evidence', source: '7' });
		expect(plain.evidenceMode).toBe('assertion');
		const other = studyFormSchema.parse({ ...base, design: 'ranking', evidenceMode: 'sentence' });
		expect(other).not.toHaveProperty('evidenceMode');
		const bad = studyFormSchema.safeParse({ ...base, design: 'evidence', evidenceMode: 'word' });
		expect(bad.success).toBe(false);
		expect(zodFieldErrors(bad.error!)).toHaveProperty('evidenceMode');
	});

	it('counts a question’s pairs as C(n, 2)', () => {
		expect([1, 2, 3, 4, 8].map(pairsOf)).toEqual([0, 1, 3, 6, 28]);
	});

	it('reads a benchmark study’s round, gold rate and flag mark, ignoring a round’s fields', () => {
		const parsed = studyFormSchema.parse({
			...base,
			purpose: 'benchmark',
			qualificationStudyId: '12',
			goldEvery: ' 20 ',
			flagMark: '75',
			passMark: 'junk',
			questionsPerAttempt: '500'
		});
		expect(parsed).toMatchObject({
			purpose: 'benchmark',
			qualificationStudyId: 12,
			goldEvery: 20,
			passMark: 0.75
		});
		const plain = studyFormSchema.parse(base);
		expect(plain).toMatchObject({
			purpose: 'benchmark',
			qualificationStudyId: null,
			goldEvery: null,
			passMark: 0.8
		});
	});

	it('reads a qualification round’s pass mark and attempts, and no round or gold rate', () => {
		const parsed = studyFormSchema.parse({
			...base,
			purpose: 'qualification',
			qualificationStudyId: '12',
			goldEvery: '20',
			flagMark: 'junk',
			passMark: '90',
			questionsPerAttempt: '10',
			maxAttempts: '3'
		});
		expect(parsed).toMatchObject({
			purpose: 'qualification',
			qualificationStudyId: null,
			goldEvery: null,
			passMark: 0.9,
			questionsPerAttempt: 10,
			maxAttempts: 3
		});
	});

	it('names each quality field out of bounds', () => {
		const errors = (values: Record<string, string>) => {
			const parsed = studyFormSchema.safeParse({ ...base, ...values });
			expect(parsed.success).toBe(false);
			return zodFieldErrors(parsed.error!);
		};
		expect(errors({ goldEvery: '1', flagMark: '120' })).toEqual({
			goldEvery:
				'The gold rate must be a whole number from 2 to 1000 (1 gold check in every N questions), or blank for none.',
			flagMark: 'The flag mark must be a percentage from 0 to 100.'
		});
		expect(errors({ goldEvery: '1001' })).toHaveProperty('goldEvery');
		expect(
			errors({
				purpose: 'qualification',
				passMark: '-5',
				questionsPerAttempt: '0',
				maxAttempts: '11'
			})
		).toEqual({
			passMark: 'The pass mark must be a percentage from 0 to 100.',
			questionsPerAttempt: 'Questions per attempt must be a whole number from 1 to 100.',
			maxAttempts: 'Attempts must be a whole number from 1 to 10.'
		});
		expect(errors({ purpose: 'audit' })).toHaveProperty('purpose');
		expect(studyFormMessage(errors({ maxAttempts: '0', purpose: 'qualification' }))).toBe(
			'Attempts must be a whole number from 1 to 10.'
		);
	});
});
