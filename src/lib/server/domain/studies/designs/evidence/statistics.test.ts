import { beforeEach, expect, it } from 'vitest';
import { describeEachDb } from '../../../../db/testing';
import { insertUsers } from '../../../../fixtures/ranking';
import {
	openEvidenceStudy,
	seedAssessedEvidenceStudy,
	seedEvidenceSet
} from '../../../../fixtures/evidence';
import { evidenceReport } from './statistics';

describeEachDb('evidence statistics', (h) => {
	let organiser: string;
	let assessors: [string, string];

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		assessors = (await insertUsers(h.db, 2, ['physician'])) as [string, string];
	});

	it('gives the official figures per run and the assessors’ agreement, checked by hand', async () => {
		const { studyId } = await seedAssessedEvidenceStudy(h.db, organiser, assessors, {
			runs: ['run-a', 'run-b']
		});
		const r = (await evidenceReport(h.db, studyId))!;
		expect(r.counts).toEqual({ answers: 2, assessed: 2, doubleAssessed: 2 });
		// run-a's official record is the second assessor's: sentences borderline, unnecessary,
		// required; sentence 1 supported by one of its two documents, sentence 2 by both.
		expect(r.figures.runs['run-a']).toEqual({
			accuracy: 100,
			acceptable_answers: 1,
			precision: 33.33,
			redundancy: 33.33,
			harmfulness: 0,
			citation_coverage: 66.67,
			citation_support_rate: 75,
			citation_contradict_rate: 0,
			document_recall: 100,
			document_precision: 100
		});
		// run-b's is the first assessor's "does not answer": every sentence null.
		expect(r.figures.runs['run-b']).toEqual({
			accuracy: 0,
			acceptable_answers: 0,
			precision: 0,
			redundancy: 0,
			harmfulness: 0,
			citation_coverage: 0,
			citation_support_rate: 0,
			citation_contradict_rate: 0,
			document_recall: 0,
			document_precision: 0
		});
		// One question: too few for an interval.
		expect(r.intervals['run-a'].accuracy).toMatchObject({ low: null });
		expect(r.bootstrap).toEqual({ resamples: 1000, seed: `evidence-${studyId}` });
		// Accuracy: (yes, yes) and (no, yes) → alpha 0. Interpretable on run-a's sentences:
		// (T, T), (F, T), (T, T) → 0. Relevance: (required, borderline), (inappropriate, required)
		// → 1 − 1 / (10/12) = −0.2. Relations: sentence 1's two documents (supporting, supporting),
		// (contradicting, not relevant) → 1 − 0.5 / (10/12) = 0.4. Spans: sentence 1 covers words
		// 0–4 for both (F1 1), sentence 3 words 0–1 against 0–2 (F1 0.8) → 0.9.
		const a = r.agreement;
		expect(a.answerAccurate).toMatchObject({ units: 2 });
		expect(a.answerAccurate.value).toBeCloseTo(0, 10);
		expect(a.interpretable.value).toBeCloseTo(0, 10);
		expect(a.interpretable.units).toBe(3);
		expect(a.relevance.value).toBeCloseTo(-0.2, 10);
		expect(a.relation.value).toBeCloseTo(0.4, 10);
		expect(a.relation.units).toBe(2);
		expect(a.spans.value).toBeCloseTo(0.9, 10);
		expect(a.spans.n).toBe(2);
	});

	it('says why agreement is undefined before two assessors finish an answer', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 1, runs: ['r1'] });
		const studyId = await openEvidenceStudy(h.db, seed, organiser, { mode: 'sentence' });
		const r = (await evidenceReport(h.db, studyId))!;
		expect(r.mode).toBe('sentence');
		expect(r.counts).toEqual({ answers: 1, assessed: 0, doubleAssessed: 0 });
		expect(r.figures.runs).toEqual({});
		expect(r.agreement.answerAccurate).toMatchObject({ value: null, reason: /two finished/ });
		expect(r.agreement.spans).toMatchObject({ value: null, reason: /per-sentence/ });
	});
});
