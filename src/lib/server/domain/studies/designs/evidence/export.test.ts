import { sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDb } from '../../../../db/testing';
import { parseCsv } from '../../../../csv';
import { insertUsers } from '../../../../fixtures/ranking';
import {
	assessAnswer,
	assessEach,
	openEvidenceStudy,
	pmidOf,
	seedAssessedEvidenceStudy,
	seedEvidenceSet
} from '../../../../fixtures/evidence';
import { parseBiogenAssessments } from '../../../../../stats/biogen';
import { claimNext } from '../../queue';
import {
	EVIDENCE_EXPORT_COLUMNS,
	evidenceLongCsv,
	exportEvidenceLong,
	exportEvidenceOfficial
} from './export';

describeEachDb('evidence exports', (h) => {
	let organiser: string;
	let assessors: [string, string];

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		assessors = (await insertUsers(h.db, 2, ['physician'])) as [string, string];
	});

	it('writes the official layout from each answer’s first finished assessment', async () => {
		const { studyId } = await seedAssessedEvidenceStudy(h.db, organiser, assessors, {
			runs: ['run-a', 'run-b']
		});
		const official = await exportEvidenceOfficial(h.db, studyId);
		const [d1, d2, d3] = [1, 2, 3].map((d) => pmidOf(1, d));
		expect(official).toHaveLength(1);
		expect(official[0].question_id).toBe('1');
		expect(Object.keys(official[0].machine_generated_answers)).toEqual(['run-a', 'run-b']);
		// run-a: the second assessor finished first.
		const a = official[0].machine_generated_answers['run-a'];
		expect(a.is_answer_accurate).toBe('yes');
		expect(a.answer_sentences[0].answer_sentence).toBe(
			'Run 1 claim 1 about condition 1 holds in most adults.'
		);
		expect(
			a.answer_sentences.map((s) => [s.answer_sentence_id, s.answer_sentence_relevance])
		).toEqual([
			['1', 'borderline'],
			['2', 'unnecessary'],
			['3', 'required']
		]);
		expect(a.answer_sentences.map((s) => s.citation_assessment)).toEqual([
			[
				{ cited_pmid: d1, evidence_relation: 'supporting' },
				{ cited_pmid: d2, evidence_relation: 'not relevant' }
			],
			[
				{ cited_pmid: d2, evidence_relation: 'supporting' },
				{ cited_pmid: d3, evidence_relation: 'supporting' }
			],
			null
		]);
		// run-b: the first assessor finished first, and said it does not answer the question.
		const b = official[0].machine_generated_answers['run-b'];
		expect(b.is_answer_accurate).toBe('no');
		expect(b.answer_sentences).toHaveLength(3);
		for (const s of b.answer_sentences)
			expect([s.answer_sentence_relevance, s.citation_assessment]).toEqual([null, null]);
		// The statistics module reads it as the official layout.
		expect(parseBiogenAssessments(JSON.parse(JSON.stringify(official)))).toHaveLength(1);
	});

	it('leaves out answers nobody finished', async () => {
		const seed = await seedEvidenceSet(h.db, { questions: 2, runs: ['r1'] });
		const studyId = await openEvidenceStudy(h.db, seed, organiser);
		expect(await exportEvidenceOfficial(h.db, studyId)).toEqual([]);
		const claim = await claimNext(h.db, studyId, assessors[0]);
		if (claim.status !== 'assigned') throw new Error('nothing to claim');
		await assessAnswer(h.db, assessors[0], claim.publicId, { answers: false });
		expect(await exportEvidenceOfficial(h.db, studyId)).toHaveLength(1);
	});

	it('the long table: a row per assessor, sentence, assertion and cited document', async () => {
		const { studyId } = await seedAssessedEvidenceStudy(h.db, organiser, assessors, {
			runs: ['run-a', 'run-b']
		});
		const [d1, d2] = [pmidOf(1, 1), pmidOf(1, 2)];
		await h.db.execute(
			sql`update evidence_sentence set claimed = ${JSON.stringify({
				supported: [d1],
				contradicted: [d2]
			})}::jsonb where position = 1`
		);
		const rows = await exportEvidenceLong(h.db, studyId);
		const pseudonyms = new Set(rows.map((r) => r.assessor));
		expect(pseudonyms.size).toBe(2);
		for (const p of pseudonyms) expect(assessors).not.toContain(p);
		// The first assessor's run-a: sentence 1 has 2 assertions × 2 documents, sentence 2 (not
		// interpretable) one row per document, sentence 3 one assertion citing nothing.
		const first = rows.filter((r) => r.run === 'run-a' && r.assessment_order === 2);
		expect(first.map((r) => [r.answer_sentence_id, r.assertion, r.cited_pmid])).toEqual([
			['1', 1, d1],
			['1', 1, d2],
			['1', 2, d1],
			['1', 2, d2],
			['2', null, d2],
			['2', null, pmidOf(1, 3)],
			['3', 1, null]
		]);
		expect(first[2]).toMatchObject({
			interpretable: true,
			span_start_word: 3,
			span_end_word: 5,
			assertion_text: '1 about',
			relevance: 'unnecessary',
			document_available: true,
			relation: 'partially_supports',
			evidence_sentences: '3',
			claimed_relation: 'supports',
			time_on_task_ms: 60_000
		});
		expect(first[0]).toMatchObject({ relation: 'supports', evidence_sentences: '1;2' });
		expect(first[3]).toMatchObject({ relation: 'contradicts', claimed_relation: 'contradicts' });
		expect(first[4]).toMatchObject({ interpretable: false, relation: null, relevance: null });
		// An answer that does not answer the question: one row per sentence and cited document.
		const no = rows.filter((r) => r.run === 'run-b' && r.assessment_order === 1);
		expect(no).toHaveLength(5);
		expect(no.every((r) => r.answers_question === false && r.interpretable === null)).toBe(true);

		const csv = parseCsv(evidenceLongCsv(rows));
		expect(csv[0]).toEqual([...EVIDENCE_EXPORT_COLUMNS]);
		expect(csv).toHaveLength(rows.length + 1);
	});

	it('marks a cited document that was never imported, and leaves it out of the official file', async () => {
		const seed = await seedEvidenceSet(h.db, {
			questions: 1,
			runs: ['r1'],
			sentences: 1,
			missing: true
		});
		// One sentence citing documents 1 and 2 needs a citation: seeded sentences only cite when not last.
		await h.db.execute(
			sql`update evidence_answer_sentence set citations = ${`{${pmidOf(1, 1)},${pmidOf(1, 2)}}`}::text[]`
		);
		const studyId = await openEvidenceStudy(h.db, seed, organiser);
		await assessEach(h.db, studyId, assessors[0], ({ publicId }) =>
			assessAnswer(h.db, assessors[0], publicId, {
				answers: true,
				sentences: {
					1: {
						interpretable: true,
						assertions: [
							{
								start: 0,
								end: 2,
								relevance: 'required',
								relations: [{ pmid: pmidOf(1, 1), relation: 'neutral', evidence: [] }]
							}
						]
					}
				}
			})
		);
		const rows = await exportEvidenceLong(h.db, studyId);
		expect(rows.map((r) => [r.cited_pmid, r.document_available, r.relation])).toEqual([
			[pmidOf(1, 1), true, 'neutral'],
			[pmidOf(1, 2), false, null]
		]);
		const [q] = await exportEvidenceOfficial(h.db, studyId);
		expect(q.machine_generated_answers.r1.answer_sentences[0].citation_assessment).toEqual([
			{ cited_pmid: pmidOf(1, 1), evidence_relation: 'neutral' }
		]);
	});

	it('keeps a formula out of the CSV', () => {
		const csv = evidenceLongCsv([
			{ sentence: '=HYPERLINK("x")' } as unknown as Parameters<typeof evidenceLongCsv>[0][number]
		]);
		expect(csv).not.toMatch(/,=HYPERLINK/);
	});
});
