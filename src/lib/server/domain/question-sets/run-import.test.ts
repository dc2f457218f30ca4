// The run import and the editing of an answer's sentences against a real database: BioGen
// topics as a set, runs in the 2024 and both 2025 formats, cited PMIDs without an abstract
// (rejected or kept), unknown topics, re-imports, merging and splitting sentences, and the lock
// once an evidence study using the answer has opened.
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { recordLabel, type RecordError } from '../../../schemas/qa-record';
import {
	auditEvent,
	evidenceAnswerSentence,
	importRecord,
	model,
	setQuestion,
	setResponse
} from '../../db/schema';
import { countAllRows, describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { insertUsers } from '../../fixtures/ranking';
import { changeStudyState, createStudy } from '../studies';
import { importDocuments } from '../documents';
import { answerSplit, importQuestions, importRuns, mergeSentences, splitSentence } from '.';

// A stand-in splitter (the real one has its own tests): sentences end at ". ", brackets of PMIDs
// are taken out of the text and become its citations.
vi.mock('../../../text/sentences', () => ({
	splitSentences: (text: string) => [text],
	splitAnswer: (text: string) =>
		text
			.split(/(?<=\.)\s+/)
			.filter((s) => s.trim())
			.map((s) => ({
				text: s
					.replace(/\s*\[[\d,\s]*\]/g, '')
					.replace(/\s+\./g, '.')
					.trim(),
				citations: [...s.matchAll(/\[([\d,\s]*)\]/g)].flatMap((m) =>
					m[1]
						.split(',')
						.map((p) => p.trim())
						.filter(Boolean)
				)
			}))
}));

const actor = { userId: null, label: 'test' };
const jsonl = (fileName: string, records: unknown[]) => ({
	fileName,
	text: records.map((r) => JSON.stringify(r)).join('\n') + '\n'
});
const json = (fileName: string, value: unknown) => ({ fileName, text: JSON.stringify(value) });

const topics = [
	{
		id: 1,
		topic: 'NSAIDs and ACE inhibitors',
		question: 'Can I take ibuprofen with lisinopril?',
		narrative: 'A 60-year-old on lisinopril asks about pain relief.'
	},
	{
		id: '2',
		topic: 'HbA1c',
		question: 'What does an HbA1c of 8% mean?',
		narrative: 'Type 2 diabetes.'
	}
];
const docs = [1001, 1002, 1003, 1004].map((pmid) => ({ pmid, abstract: `Abstract ${pmid}.` }));

const run2024 = {
	team_id: 'team-x',
	run_name: 'run-2024',
	results: [
		{
			topic_id: 1,
			answer:
				'Ibuprofen may blunt lisinopril [1001, 1002]. Ask your doctor. Kidneys can suffer [1003].',
			references: ['1001', '1002', '1003']
		},
		{ topic_id: '2', answer: 'It is above target [1004].', references: [1004] }
	]
};
const run2025b = [
	{
		metadata: { team_id: 't', run_id: 'run-b', topic_id: '1' },
		responses: [
			{ text: 'Avoid the combination.', citations: ['1001'] },
			{ text: 'It raises creatinine [1003].', citations: [1002] }
		]
	}
];
const run2025a = [
	{
		metadata: { team_id: 't', run_id: 'run-a', topic_id: 2 },
		answers: [
			{ text: 'Above target.', supported_citations: ['1004'], contradicted_citations: [] },
			{
				text: 'No change is needed.',
				supported_citations: [1001],
				contradicted_citations: [1002, '1001']
			}
		]
	}
];

async function problems(work: Promise<unknown>): Promise<DomainError> {
	const e = await work.then(
		() => null,
		(err: unknown) => err
	);
	expect(e).toBeInstanceOf(DomainError);
	return e as DomainError;
}
const labelled = (errors: readonly RecordError[]) =>
	errors.map((e) => `${recordLabel(e)} ${e.field}`);

describeEachDb('runs', (h) => {
	let setId: number;
	beforeEach(async () => {
		({ setId } = await importQuestions(h.db, [jsonl('topics.jsonl', topics)], {
			setName: 'BioGen 2024',
			actor
		}));
	});
	const sentencesOf = (setResponseId: number) => answerSplit(h.db, setResponseId);
	async function responseOf(run: string, topic: string) {
		const [row] = await h.db
			.select({ id: setResponse.id, text: setResponse.text, record: setResponse.record })
			.from(setResponse)
			.innerJoin(model, eq(model.id, setResponse.modelId))
			.innerJoin(setQuestion, eq(setQuestion.id, setResponse.setQuestionId))
			.where(and(eq(model.name, run), eq(setQuestion.externalId, topic)));
		return row;
	}

	it('takes BioGen topics as questions: the narrative is the context, the topic kept', async () => {
		const rows = await h.db.select().from(setQuestion).orderBy(setQuestion.id);
		expect(rows.map((r) => [r.externalId, r.question, r.context])).toEqual([
			['1', topics[0].question, topics[0].narrative],
			['2', topics[1].question, topics[1].narrative]
		]);
		expect(rows[0].record).toEqual(topics[0]);
		const [imp] = await h.db.select().from(importRecord);
		expect(imp.warnings).toEqual([]);
		const e = await problems(
			importQuestions(
				h.db,
				[json('t.json', [{ id: 3, question: 'Q?', context: 'A', narrative: 'B' }])],
				{ setName: 'S', actor }
			)
		);
		expect(labelled(e.records)).toEqual(['t.json record 1 narrative']);
	});

	it('imports a 2024 run: one answer per topic, split into sentences with their citations', async () => {
		await importDocuments(h.db, [jsonl('d.jsonl', docs)], actor);
		const r = await importRuns(h.db, [json('run.json', run2024)], { setId }, actor);
		expect(r).toMatchObject({
			created: 2,
			total: 2,
			models: ['run-2024'],
			formats: [{ file: 'run.json', format: 'biogen2024' }],
			sentences: 4,
			missingDocuments: [],
			warnings: []
		});
		const [answer] = await h.db.select().from(setResponse).orderBy(setResponse.id).limit(1);
		expect(answer.text).toBe(run2024.results[0].answer);
		expect(answer.record).toMatchObject({ run_name: 'run-2024', topic_id: 1 });
		expect(await sentencesOf(answer.id)).toEqual([
			{
				position: 1,
				text: 'Ibuprofen may blunt lisinopril.',
				citations: ['1001', '1002'],
				claimed: null
			},
			{ position: 2, text: 'Ask your doctor.', citations: [], claimed: null },
			{ position: 3, text: 'Kidneys can suffer.', citations: ['1003'], claimed: null }
		]);
		const [imp] = await h.db.select().from(importRecord).where(eq(importRecord.kind, 'runs'));
		expect(imp).toMatchObject({ modelName: 'run-2024', created: 2 });
		const actions = (await h.db.select().from(auditEvent)).map((e) => e.action);
		expect(actions).toContain('import.runs');

		// The same file again changes nothing; a changed answer replaces its sentences.
		expect(await importRuns(h.db, [json('run.json', run2024)], { setId }, actor)).toMatchObject({
			created: 0,
			updated: 0,
			unchanged: 2,
			sentences: 0
		});
		const changed = {
			...run2024,
			results: [{ ...run2024.results[0], answer: 'Avoid it [1001].' }, run2024.results[1]]
		};
		const again = await importRuns(h.db, [json('run.json', changed)], { setId }, actor);
		expect(again).toMatchObject({ updated: 1, unchanged: 1, sentences: 1 });
		expect(again.warnings).toMatchObject([{ kind: 'uncited_reference', count: 1 }]);
		expect(await sentencesOf(answer.id)).toEqual([
			{ position: 1, text: 'Avoid it.', citations: ['1001'], claimed: null }
		]);
	});

	it('imports 2025 task B and task A lines, task A with what the run claimed', async () => {
		await importDocuments(h.db, [jsonl('d.jsonl', docs)], actor);
		const r = await importRuns(
			h.db,
			[jsonl('b.jsonl', run2025b), jsonl('a.jsonl', run2025a)],
			{ setName: 'BioGen 2024' },
			actor
		);
		expect(r).toMatchObject({
			created: 2,
			models: ['run-b', 'run-a'],
			formats: [
				{ file: 'b.jsonl', format: 'biogen2025b' },
				{ file: 'a.jsonl', format: 'biogen2025a' }
			]
		});
		const b = await responseOf('run-b', '1');
		expect(b.text).toBe('Avoid the combination. It raises creatinine.');
		expect(await sentencesOf(b.id)).toEqual([
			{ position: 1, text: 'Avoid the combination.', citations: ['1001'], claimed: null },
			// The bracket left in the text joins the item's own citations.
			{ position: 2, text: 'It raises creatinine.', citations: ['1002', '1003'], claimed: null }
		]);
		// One line alone, named .json, is still a 2025 record, not a list of its sentences.
		const single = await importRuns(h.db, [json('a.json', run2025a[0])], { setId }, actor);
		expect(single).toMatchObject({
			unchanged: 1,
			formats: [{ file: 'a.json', format: 'biogen2025a' }]
		});
		const a = await responseOf('run-a', '2');
		expect(await sentencesOf(a.id)).toEqual([
			{
				position: 1,
				text: 'Above target.',
				citations: ['1004'],
				claimed: { supported: ['1004'], contradicted: [] }
			},
			{
				position: 2,
				text: 'No change is needed.',
				citations: ['1001', '1002'],
				claimed: { supported: ['1001'], contradicted: ['1002', '1001'] }
			}
		]);
	});

	it('rejects cited PMIDs without an abstract, or keeps them with a warning when asked', async () => {
		await importDocuments(h.db, [jsonl('d.jsonl', docs.slice(0, 1))], actor);
		const before = await countAllRows(h.db);
		const e = await problems(importRuns(h.db, [json('run.json', run2024)], { setId }, actor));
		expect(e.message).toMatch(/3 cited PMIDs have no imported abstract \(1002, 1003, 1004\)/);
		expect(e.message).toMatch(/Import their abstracts first.*or choose to keep them/);
		expect(labelled(e.records)).toEqual(['run.json record 1 answer', 'run.json record 2 answer']);
		expect(await countAllRows(h.db)).toEqual(before);

		const kept = await importRuns(
			h.db,
			[json('run.json', run2024)],
			{ setId, missingDocuments: 'keep' },
			actor
		);
		expect(kept).toMatchObject({ created: 2, missingDocuments: ['1002', '1003', '1004'] });
		expect(kept.warnings).toMatchObject([{ kind: 'missing_document', count: 2 }]);
		expect(kept.warnings[0].message).toMatch(/document not available/);
	});

	it('names the first 20 missing PMIDs and their count', async () => {
		const many = Array.from({ length: 25 }, (_, i) => 5000 + i);
		const e = await problems(
			importRuns(
				h.db,
				[jsonl('b.jsonl', [{ ...run2025b[0], responses: [{ text: 'A.', citations: many }] }])],
				{ setId },
				actor
			)
		);
		expect(e.message).toContain('5019, … (25 in all)');
		expect(e.message).not.toContain('5020');
	});

	it('rejects a record naming a topic the set does not have, and bad records by field', async () => {
		const before = await countAllRows(h.db);
		const unknown = await problems(
			importRuns(
				h.db,
				[
					jsonl('b.jsonl', [
						run2025b[0],
						{ ...run2025b[0], metadata: { run_id: 'r', topic_id: 9 } }
					])
				],
				{ setId, missingDocuments: 'keep' },
				actor
			)
		);
		expect(labelled(unknown.records)).toEqual(['b.jsonl record 2 metadata.topic_id']);
		expect(unknown.records[0].reason).toMatch(/topic "9", which set "BioGen 2024" does not have/);

		const bad = await problems(
			importRuns(
				h.db,
				[
					jsonl('a.jsonl', [
						run2025a[0],
						{ metadata: { topic_id: 1 }, answers: [] },
						{ ...run2025a[0], answers: [{ text: 'x', supported_citations: ['PMC1'] }] },
						{ ...run2025a[0], answers: [{ text: 'a\u0000b' }] },
						{ ...run2025a[0], answers: [{ text: '[1001]' }] }
					])
				],
				{ setId, missingDocuments: 'keep' },
				actor
			)
		);
		expect(labelled(bad.records)).toEqual([
			'a.jsonl record 2 metadata.run_id',
			'a.jsonl record 2 answers',
			'a.jsonl record 3 answers[0].supported_citations[0]',
			'a.jsonl record 4 answers[0].text',
			'a.jsonl record 5 answers[0].text'
		]);
		expect(bad.records[2].reason).toMatch(/must be a PubMed id/);
		expect(bad.records[3].reason).toMatch(/NUL character/);

		const noRun = await problems(
			importRuns(
				h.db,
				[json('run.json', { results: [{ topic_id: 1, answer: 'A.' }] })],
				{ setId },
				actor
			)
		);
		expect(labelled(noRun.records)).toEqual(['run.json record 1 run_name']);
		expect(await countAllRows(h.db)).toEqual(before);
	});

	it('refuses hostile files with a clear reason, writing nothing', async () => {
		const before = await countAllRows(h.db);
		const deep = '['.repeat(100_000) + ']'.repeat(100_000);
		const nested = await problems(
			importRuns(h.db, [{ fileName: 'run.json', text: `{"results": ${deep}}` }], { setId }, actor)
		);
		expect(nested.records[0].reason).toMatch(/nests deeper than 64 levels/);
		const line = await problems(
			importRuns(h.db, [{ fileName: 'b.jsonl', text: deep }], { setId }, actor)
		);
		expect(labelled(line.records)).toEqual(['b.jsonl record 1 (record)']);
		const huge = await problems(
			importRuns(
				h.db,
				[jsonl('b.jsonl', [{ ...run2025b[0], responses: [{ text: 'x'.repeat(2_000_000) }] }])],
				{ setId },
				actor
			)
		);
		expect(huge.records[0].reason).toMatch(/longer than 1,000,000 characters/);
		const neither = await problems(
			importRuns(h.db, [json('x.json', { answers: [] })], { setId }, actor)
		);
		expect(neither.records[0].reason).toMatch(/must be a BioGen 2024 run/);
		const empty = await problems(
			importRuns(h.db, [{ fileName: 'e.jsonl', text: ' ' }], { setId }, actor)
		);
		expect(empty.records[0].reason).toBe('is empty');
		const noSet = await problems(
			importRuns(h.db, [jsonl('b.jsonl', run2025b)], { setName: 'Nope' }, actor)
		);
		expect(noSet.field).toBe('set');
		expect(await countAllRows(h.db)).toEqual(before);
	});

	describe('editing an answer’s sentences', () => {
		let answerId: number;
		let organiser: string;
		beforeEach(async () => {
			[organiser] = await insertUsers(h.db, 1, ['organiser']);
			await insertUsers(h.db, 1, ['physician']);
			await importDocuments(h.db, [jsonl('d.jsonl', docs)], actor);
			await importRuns(h.db, [json('run.json', run2024)], { setId }, actor);
			answerId = (await responseOf('run-2024', '1')).id;
		});

		it('merges a sentence with the next one and splits one at a word, renumbering', async () => {
			const merged = await mergeSentences(h.db, answerId, 2, organiser);
			expect(merged).toEqual([
				{
					position: 1,
					text: 'Ibuprofen may blunt lisinopril.',
					citations: ['1001', '1002'],
					claimed: null
				},
				{
					position: 2,
					text: 'Ask your doctor. Kidneys can suffer.',
					citations: ['1003'],
					claimed: null
				}
			]);
			const split = await splitSentence(h.db, answerId, 1, 2, organiser);
			expect(split).toEqual([
				{ position: 1, text: 'Ibuprofen may', citations: [], claimed: null },
				{ position: 2, text: 'blunt lisinopril.', citations: ['1001', '1002'], claimed: null },
				{
					position: 3,
					text: 'Ask your doctor. Kidneys can suffer.',
					citations: ['1003'],
					claimed: null
				}
			]);
			const again = await mergeSentences(h.db, answerId, 1, organiser);
			expect(again[0]).toMatchObject({
				text: 'Ibuprofen may blunt lisinopril.',
				citations: ['1001', '1002']
			});
			const events = await h.db
				.select({ action: auditEvent.action })
				.from(auditEvent)
				.where(eq(auditEvent.objectType, 'set_response'));
			expect(events.map((e) => e.action)).toEqual([
				'set_response.merge_sentences',
				'set_response.split_sentence',
				'set_response.merge_sentences'
			]);
		});

		it('refuses a merge past the last sentence and a split outside the words', async () => {
			expect((await problems(mergeSentences(h.db, answerId, 3, organiser))).field).toBe('position');
			expect((await problems(splitSentence(h.db, answerId, 2, 0, organiser))).field).toBe('atWord');
			expect((await problems(splitSentence(h.db, answerId, 2, 3, organiser))).field).toBe('atWord');
			expect((await problems(splitSentence(h.db, answerId, 9, 1, organiser))).field).toBe(
				'position'
			);
			expect((await problems(mergeSentences(h.db, answerId + 99, 1, organiser))).code).toBe(
				'not_found'
			);
			expect(await answerSplit(h.db, answerId)).toHaveLength(3);
		});

		it('locks the sentences once an evidence study using the answer has opened', async () => {
			const [{ id: modelId }] = await h.db.select({ id: model.id }).from(model);
			const study = await createStudy(
				h.db,
				{
					name: 'Evidence',
					design: 'evidence',
					questionSetId: setId,
					selection: { types: [] },
					modelIds: [modelId],
					ratersPerQuestion: 1
				},
				organiser,
				{ confirm: true }
			);
			// A draft study does not hold the answer yet.
			await mergeSentences(h.db, answerId, 2, organiser);
			await changeStudyState(h.db, study.id, 'open', organiser, { confirm: true });
			const e = await problems(splitSentence(h.db, answerId, 1, 1, organiser));
			expect(e.code).toBe('locked');
			expect((await problems(mergeSentences(h.db, answerId, 1, organiser))).code).toBe('locked');
			const rows = await h.db
				.select()
				.from(evidenceAnswerSentence)
				.where(eq(evidenceAnswerSentence.setResponseId, answerId));
			expect(rows).toHaveLength(2);
		});
	});
});
