import { describe, expect, it } from 'vitest';
import {
	BiogenInputError,
	biogenFigures,
	biogenIntervals,
	biogenQuestionFigures,
	parseBiogenAssessments,
	pyRound2
} from './biogen';

type Citation = { cited_pmid: string | number; evidence_relation: string };
const sentence = (
	relevance: string | null,
	citations: Citation[] | null,
	id = 's'
): Record<string, unknown> => ({
	answer_sentence_id: id,
	answer_sentence: 'Metformin lowers HbA1c.',
	answer_sentence_relevance: relevance,
	citation_assessment: citations
});
const cite = (pmid: string | number, relation: string): Citation => ({
	cited_pmid: pmid,
	evidence_relation: relation
});

// Three questions, runs A and B, counted by hand below.
const FILE = [
	{
		question_id: '1',
		machine_generated_answers: {
			A: {
				is_answer_accurate: 'Yes',
				answer_sentences: [
					sentence('Required', [cite('101', 'supporting'), cite(102, 'neutral')]),
					sentence('unnecessary', [cite('103', 'not relevant')]),
					sentence(null, null),
					sentence('INAPPROPRIATE', [cite('101', 'contradicting'), cite(101, 'supporting')])
				]
			},
			B: {
				is_answer_accurate: 'no',
				answer_sentences: [
					sentence('required', []),
					sentence('borderline', [cite('104', 'contradicting'), cite('105', 'supporting')])
				]
			}
		}
	},
	{
		question_id: 2,
		machine_generated_answers: {
			A: { is_answer_accurate: 'yes', answer_sentences: [sentence('required', null)] },
			B: { is_answer_accurate: 'YES', answer_sentences: [] }
		}
	},
	{
		question_id: '3',
		machine_generated_answers: {
			A: {
				is_answer_accurate: 'No',
				answer_sentences: [sentence('required', [cite(200, 'not relevant')])]
			}
		}
	}
];

describe('pyRound2', () => {
	it("rounds like Python's round(x, 2): the binary value, exact ties to even", () => {
		expect(pyRound2(0.125)).toBe(0.12); // a tie (1/8), to even
		expect(pyRound2(0.375)).toBe(0.38); // a tie (3/8), to even
		expect(pyRound2(-0.125)).toBe(-0.12);
		expect(pyRound2(2.675)).toBe(2.67); // the double is just below 2.675
		expect(pyRound2(1.005)).toBe(1.0); // likewise below
		expect(pyRound2(12.345)).toBe(12.35); // the double is just above
		expect(pyRound2(8.335)).toBe(8.34);
		expect(pyRound2(16.665)).toBe(16.66);
		expect(pyRound2(200 / 3)).toBe(66.67);
		expect(pyRound2(100)).toBe(100);
		expect(pyRound2(0)).toBe(0);
	});
});

describe('biogenFigures', () => {
	it('reproduces figures counted by hand', () => {
		const out = biogenFigures(parseBiogenAssessments(FILE));
		expect(out.questions).toBe(3);
		// Pools (supporting, contradicting or neutral in any run): question 1 {101, 102, 104, 105}
		// (103 is only "not relevant"); questions 2 and 3 none.
		//
		// Run A, question 1: 4 sentences (the null relevance counts in the total): required,
		// unnecessary, inappropriate 1 each → 25 % each. Cited sets {101, 102}, {103}, {}, {101} →
		// 4 generated; sentences 1 and 4 have a supporting citation → coverage 2/4 = 50 %, support
		// 2/4 = 50 %, contradiction 1/4 = 25 %. Judged {101, 102} of a pool of 4 → recall 50 %;
		// of the 3 provided → precision 66.67 %.
		// Question 2: one required sentence without citations → 100 % precision, coverage and rates
		// 0 (but counted), empty pool → left out of recall, nothing provided → precision 0.
		// Question 3: required; cites 200 "not relevant" → coverage, rates 0; empty pool; 0/1 → 0.
		// Accuracy: Yes, yes, No → 2/3. Precision (25 + 100 + 100)/3 = 75; redundancy and
		// harmfulness 25/3; coverage 50/3; support 50/3; contradiction 25/3; recall 50/1;
		// document precision (200/3)/3 = 22.22.
		expect(out.runs.A).toEqual({
			accuracy: 66.67,
			acceptable_answers: 2,
			precision: 75,
			redundancy: 8.33,
			harmfulness: 8.33,
			citation_coverage: 16.67,
			citation_support_rate: 16.67,
			citation_contradict_rate: 8.33,
			document_recall: 50,
			document_precision: 22.22
		});
		// Run B, question 1 ("no"): 2 sentences, required 1 → 50 %; borderline counts only in the
		// total. The empty list cites nothing; sentence 2 cites {104, 105}, 105 supporting → coverage
		// 1/2, support 1/2, contradiction (104) 1/2 → 50 % each; judged {104, 105} of 4 → recall
		// 50 %; of 2 provided → 100 %. Question 2 ("YES"): no sentence → out of precision,
		// coverage 0 with a note, rates 0, out of recall, document precision 0.
		// Accuracy 1/2; precision 50/1; coverage, support, contradiction 50/2; recall 50/1;
		// document precision 100/2.
		expect(out.runs.B).toEqual({
			accuracy: 50,
			acceptable_answers: 1,
			precision: 50,
			redundancy: 0,
			harmfulness: 0,
			citation_coverage: 25,
			citation_support_rate: 25,
			citation_contradict_rate: 25,
			document_recall: 50,
			document_precision: 50
		});
		expect(Object.keys(out.runs)).toEqual(['A', 'B']);
		const pool = 'no run cites a document judged supporting, contradicting or neutral';
		expect(out.notes).toEqual([
			`run "A", question "2": ${pool}, so the question is left out of document recall`,
			'run "B", question "2": no sentence, citation coverage counted as 0',
			`run "B", question "2": ${pool}, so the question is left out of document recall`,
			`run "A", question "3": ${pool}, so the question is left out of document recall`
		]);
	});

	it('gives the raw per-question percentages, unrounded', () => {
		const rows = biogenQuestionFigures(parseBiogenAssessments(FILE));
		expect(rows.map((r) => [r.question, r.run])).toEqual([
			['1', 'A'],
			['1', 'B'],
			['2', 'A'],
			['2', 'B'],
			['3', 'A']
		]);
		expect(rows[0].document_precision).toBe((2 / 3) * 100);
		expect(rows[3]).toMatchObject({
			sentences: 0,
			precision: null,
			citation_coverage: 0,
			document_recall: null
		});
	});

	it('pools documents over entries that repeat a question id with other runs', () => {
		const q = (run: string, pmid: number) => ({
			question_id: '7',
			machine_generated_answers: {
				[run]: {
					is_answer_accurate: 'yes',
					answer_sentences: [sentence('required', [cite(pmid, 'supporting')])]
				}
			}
		});
		const out = biogenFigures(parseBiogenAssessments([q('A', 1), q('B', 2)]));
		// Pool {1, 2}: each run found one of the two.
		expect(out.questions).toBe(1);
		expect(out.runs.A.document_recall).toBe(50);
		expect(out.runs.B.document_recall).toBe(50);
	});

	it('leaves undefined what no question defines, and says so', () => {
		const out = biogenFigures(
			parseBiogenAssessments([
				{
					question_id: 'q',
					machine_generated_answers: { M: { is_answer_accurate: 'no', answer_sentences: [] } }
				}
			])
		);
		expect(out.runs.M).toMatchObject({
			accuracy: 0,
			precision: null,
			document_recall: null,
			citation_coverage: 0
		});
		expect(out.notes).toContain(
			'run "M": no answer has a sentence, so precision, redundancy and harmfulness are undefined'
		);
		expect(out.notes).toContain(
			'run "M": no question has a judged document, so document recall is undefined'
		);
	});

	it('does not depend on the order of the runs within a question', () => {
		let state = 7;
		const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
		const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
		const relations = ['supporting', 'contradicting', 'neutral', 'not relevant'];
		const labels = ['required', 'unnecessary', 'borderline', 'inappropriate', null];
		const runs = ['R1', 'R2', 'R3', 'R4'];
		const file = Array.from({ length: 12 }, (_, q) => ({
			question_id: `q${q}`,
			machine_generated_answers: Object.fromEntries(
				runs.map((run) => [
					run,
					{
						is_answer_accurate: pick(['yes', 'no']),
						answer_sentences: Array.from({ length: Math.floor(random() * 4) }, () =>
							sentence(
								pick(labels),
								random() < 0.2
									? null
									: Array.from({ length: Math.floor(random() * 4) }, () =>
											cite(Math.floor(random() * 6), pick(relations))
										)
							)
						)
					}
				])
			)
		}));
		const reversed = file.map((q) => ({
			...q,
			machine_generated_answers: Object.fromEntries(
				Object.entries(q.machine_generated_answers).reverse()
			)
		}));
		const a = biogenFigures(parseBiogenAssessments(file));
		const b = biogenFigures(parseBiogenAssessments(reversed));
		expect(Object.keys(b.runs)).toEqual(['R4', 'R3', 'R2', 'R1']);
		expect(b.runs).toEqual(a.runs);
		expect([...b.notes].sort()).toEqual([...a.notes].sort());
	});
});

describe('parseBiogenAssessments', () => {
	const refusal = (json: unknown) => {
		try {
			parseBiogenAssessments(json);
		} catch (e) {
			expect(e).toBeInstanceOf(BiogenInputError);
			return (e as Error).message;
		}
		throw new Error('accepted');
	};
	const withSentence = (s: Record<string, unknown>) => [
		FILE[0],
		{
			question_id: '12',
			machine_generated_answers: {
				M2: { is_answer_accurate: 'yes', answer_sentences: [sentence('required', null), s] }
			}
		}
	];

	it('refuses relation labels that are not exactly the official ones, naming where', () => {
		expect(refusal(withSentence(sentence('required', [cite(5, 'Supporting')])))).toBe(
			'question 2 (id "12"), run "M2", sentence 2: evidence_relation "Supporting" is not one of supporting, contradicting, neutral, not relevant'
		);
		expect(refusal(withSentence(sentence('required', [cite(5, 'partially supporting')])))).toMatch(
			/^question 2 \(id "12"\), run "M2", sentence 2: evidence_relation "partially supporting" is not one of/
		);
	});

	it('refuses other labels, missing fields and PMIDs that are not whole numbers', () => {
		expect(refusal(withSentence(sentence('relevant', null)))).toMatch(
			/sentence 2: answer_sentence_relevance "relevant" is not one of required, unnecessary, borderline, inappropriate/
		);
		expect(refusal(withSentence(sentence('required', [cite('12a', 'neutral')])))).toMatch(
			/sentence 2: citation 1: cited_pmid "12a" is not a whole number/
		);
		expect(refusal(withSentence(sentence('required', [cite(1.5, 'neutral')])))).toMatch(
			/cited_pmid 1.5/
		);
		const { citation_assessment: _, ...noCitations } = sentence('required', null);
		expect(refusal(withSentence(noCitations))).toMatch(
			/sentence 2: citation_assessment is missing/
		);
		expect(
			refusal([
				{
					question_id: '4',
					machine_generated_answers: { X: { is_answer_accurate: 'maybe', answer_sentences: [] } }
				}
			])
		).toBe('question 1 (id "4"), run "X": is_answer_accurate "maybe" is not yes or no');
		expect(
			refusal([{ question_id: '4', machine_generated_answers: { X: { answer_sentences: [] } } }])
		).toMatch(/is_answer_accurate \(missing\)/);
		expect(refusal([{ machine_generated_answers: {} }])).toMatch(/^question 1: question_id/);
		expect(refusal({ questions: [] })).toMatch(/must be a list of questions/);
	});

	it('refuses a run given twice for one question id', () => {
		const entry = {
			question_id: '9',
			machine_generated_answers: { M1: { is_answer_accurate: 'yes', answer_sentences: [] } }
		};
		expect(refusal([entry, FILE[1], entry])).toBe(
			'question 3 (id "9"), run "M1": this run already answered question id "9" in question 1'
		);
	});

	it('survives hostile input: deep nesting and huge strings', () => {
		let deep: unknown = [];
		for (let i = 0; i < 100_000; i++) deep = [deep];
		expect(
			refusal([
				{
					question_id: '1',
					machine_generated_answers: { M: { is_answer_accurate: 'yes', answer_sentences: [deep] } }
				}
			])
		).toMatch(/sentence 1: must be an object; found a list/);
		const huge = 'x'.repeat(5_000_000);
		const message = refusal([{ question_id: huge, machine_generated_answers: null }]);
		expect(message.length).toBeLessThan(300);
	});
});

describe('biogenIntervals', () => {
	const many = Array.from({ length: 20 }, (_, q) => ({
		question_id: `q${q}`,
		machine_generated_answers: {
			A: {
				is_answer_accurate: q % 3 === 0 ? 'no' : 'yes',
				answer_sentences: [
					sentence(q % 2 ? 'required' : 'unnecessary', [cite(q, q % 4 ? 'supporting' : 'neutral')])
				]
			},
			B: {
				is_answer_accurate: q % 2 ? 'yes' : 'no',
				answer_sentences: [sentence('required', null)]
			}
		}
	}));
	const few = [FILE[0]];

	it('gives percentile intervals around each figure, identical for the same seed', () => {
		const questions = parseBiogenAssessments(many);
		const one = biogenIntervals(questions, { resamples: 300, seed: 's1' });
		expect(biogenIntervals(questions, { resamples: 300, seed: 's1' })).toEqual(one);
		expect(biogenIntervals(questions, { resamples: 300, seed: 's2' })).not.toEqual(one);
		// Accuracy of A: 13 of 20 → 65 %, inside its interval.
		const accuracy = one.A.accuracy;
		expect(accuracy.low).not.toBeNull();
		if (accuracy.low !== null) {
			expect(accuracy.low).toBeLessThanOrEqual(65);
			expect(accuracy.high).toBeGreaterThanOrEqual(65);
			expect(accuracy).toMatchObject({ level: 0.95, resamples: 300, valid: 300 });
		}
		// B cites nothing: its support rate is 0 on every resample.
		expect(one.B.citation_support_rate).toMatchObject({ low: 0, high: 0 });
	});

	it('gives no interval over fewer than 5 questions, with the reason', () => {
		const out = biogenIntervals(parseBiogenAssessments(few), { resamples: 50, seed: 's' });
		expect(out.A.precision).toEqual({
			low: null,
			high: null,
			reason: 'needs at least 5 questions answered by the run; has 1'
		});
	});
});
