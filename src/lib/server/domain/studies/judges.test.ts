import { and, count, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import {
	auditEvent,
	candidate,
	importRecord,
	judge,
	judgePreference,
	judgeScore,
	model,
	setQuestion,
	studyQuestion
} from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { insertUsers } from '../../fixtures/ranking';
import { insertRubric, seedQuestionSet } from '../../fixtures/rubric';
import { importJudgeFile, judgeRows, listJudges } from './judges';
import { changeStudyState, createStudy } from './studies';

const actor = { userId: null, label: 'test' };
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');
const file = (fileName: string, text: string) => ({ fileName, text });

describeEachDb('judge imports', (h) => {
	let organiser: string;
	let studyId: number;
	let setId: number;
	let modelIds: number[];

	async function makeStudy(name: string, design: 'rubric' | 'ranking', open = true) {
		const rubric =
			design === 'rubric' ? await insertRubric(h.db, undefined, `${name} rubric`) : null;
		const s = await createStudy(
			h.db,
			{
				name,
				design,
				questionSetId: setId,
				...(rubric ? { rubricId: rubric.rubricId } : {}),
				selection: { types: [] },
				modelIds,
				ratersPerQuestion: 2
			},
			organiser
		);
		if (open) await changeStudyState(h.db, s.id, 'open', organiser);
		return s.id;
	}

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		await insertUsers(h.db, 2, ['physician']);
		const set = await seedQuestionSet(h.db, { questions: 2, models: ['m1', 'm2'] });
		setId = set.questionSetId;
		modelIds = set.modelIds;
		studyId = await makeStudy('Rubric study', 'rubric');
	});

	/** The candidate id of `who` (a model name or 'reference') in question `external`. */
	async function candidateOf(external: string, who: string): Promise<string> {
		const rows = await h.db
			.select({ id: candidate.id, ref: candidate.isReference, model: model.name })
			.from(candidate)
			.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
			.innerJoin(setQuestion, eq(setQuestion.id, studyQuestion.setQuestionId))
			.leftJoin(model, eq(model.id, candidate.modelId))
			.where(and(eq(studyQuestion.studyId, studyId), eq(setQuestion.externalId, external)));
		return String(rows.find((r) => (r.ref ? 'reference' : r.model) === who)!.id);
	}
	async function stored() {
		const [s] = await h.db.select({ n: count() }).from(judgeScore);
		const [p] = await h.db.select({ n: count() }).from(judgePreference);
		const [j] = await h.db.select({ n: count() }).from(judge);
		const [i] = await h.db
			.select({ n: count() })
			.from(importRecord)
			.where(eq(importRecord.kind, 'judge'));
		return {
			scores: Number(s.n),
			preferences: Number(p.n),
			judges: Number(j.n),
			imports: Number(i.n)
		};
	}
	const nothing = { scores: 0, preferences: 0, judges: 0, imports: 0 };

	/** The rejection of an import, as record (1-based) → field → reason. */
	async function rejection(p: Promise<unknown>) {
		const e = await p.then(
			() => null,
			(x: unknown) => x
		);
		expect(e).toBeInstanceOf(DomainError);
		return (e as DomainError).records.map((r) => ({
			record: r.index + 1,
			field: r.field,
			reason: r.reason
		}));
	}

	it('imports scores from JSON Lines and preferences from a JSON array, with their values', async () => {
		const scores = jsonl([
			{
				question_id: 'q1',
				model: 'm1',
				scores: { COND: 4, ACC: 5 },
				rationales: { COND: 'on topic' }
			},
			{ question_id: 'q1', model: 'reference', score: 3.5 },
			{ question_id: 'q2', model: 'm2', scores: { CONC: 0 } }
		]);
		const a = await importJudgeFile(h.db, studyId, file('gpt.jsonl', scores), {
			judge: 'gpt',
			actor
		});
		// 2 + 1 + 1 scores, no preferences, a new judge.
		expect(a.judges).toEqual([{ name: 'gpt', scores: 4, preferences: 0, replaced: false }]);
		expect(a.warnings).toEqual([]);

		const prefs = JSON.stringify([
			{ judge: 'gpt', question_id: 'q1', model_a: 'm1', model_b: 'm2', preferred: 'A' },
			{
				judge: 'claude',
				question_id: 'q2',
				model_a: 'reference',
				model_b: 'm1',
				preferred: 'tie',
				criterion: 'ACC',
				rationale: 'both fine'
			}
		]);
		const b = await importJudgeFile(h.db, studyId, file('prefs.json', prefs), { actor });
		// "gpt" is imported again, so its four scores are replaced by this file's one preference.
		expect(b.judges).toEqual([
			{ name: 'claude', scores: 0, preferences: 1, replaced: false },
			{ name: 'gpt', scores: 0, preferences: 1, replaced: true }
		]);

		const c = await importJudgeFile(h.db, studyId, file('gpt.jsonl', scores), {
			judge: 'gpt',
			actor
		});
		expect(c.judges[0]).toMatchObject({ name: 'gpt', scores: 4, preferences: 0, replaced: true });

		const rows = await judgeRows(h.db, studyId);
		const q1m1 = await candidateOf('q1', 'm1');
		const q1ref = await candidateOf('q1', 'reference');
		const q2m1 = await candidateOf('q2', 'm1');
		const q2m2 = await candidateOf('q2', 'm2');
		const q2ref = await candidateOf('q2', 'reference');
		const [q1, q2] = (
			await h.db
				.select({ id: studyQuestion.id })
				.from(studyQuestion)
				.where(eq(studyQuestion.studyId, studyId))
				.orderBy(studyQuestion.id)
		).map((r) => String(r.id));
		expect(rows.scores).toEqual(
			expect.arrayContaining([
				{ judge: 'gpt', question: q1, candidate: q1m1, criterion: 'COND', score: 4 },
				{ judge: 'gpt', question: q1, candidate: q1m1, criterion: 'ACC', score: 5 },
				{ judge: 'gpt', question: q1, candidate: q1ref, criterion: 'overall', score: 3.5 },
				{ judge: 'gpt', question: q2, candidate: q2m2, criterion: 'CONC', score: 0 }
			])
		);
		expect(rows.scores).toHaveLength(4);
		expect(rows.preferences).toEqual([
			{
				judge: 'claude',
				question: q2,
				candidateA: q2ref,
				candidateB: q2m1,
				criterion: 'ACC',
				preferred: 'tie'
			}
		]);
		const rationale = await h.db
			.select({ r: judgeScore.rationale })
			.from(judgeScore)
			.where(eq(judgeScore.criterion, 'COND'));
		expect(rationale).toEqual([{ r: 'on topic' }]);

		const listed = await listJudges(h.db, studyId);
		expect(
			listed.map(({ importedAt, ...j }) => ({ ...j, dated: importedAt instanceof Date }))
		).toEqual([
			{ name: 'claude', scores: 0, preferences: 1, criteria: ['ACC'], dated: true },
			{
				name: 'gpt',
				scores: 4,
				preferences: 0,
				criteria: ['ACC', 'CONC', 'COND', 'overall'],
				dated: true
			}
		]);
		expect(await stored()).toEqual({ scores: 4, preferences: 1, judges: 2, imports: 3 });
		const audits = await h.db.select().from(auditEvent).where(eq(auditEvent.objectType, 'judge'));
		// gpt (new), claude (new), gpt (replaced), gpt (replaced).
		expect(audits.map((a) => a.action).sort()).toEqual([
			'judge.import',
			'judge.import',
			'judge.replace',
			'judge.replace'
		]);
	});

	it("takes the record's judge over the option", async () => {
		const text = jsonl([
			{ judge: 'named', question_id: 'q1', model: 'm1', score: 1 },
			{ question_id: 'q1', model: 'm2', score: 2 }
		]);
		const r = await importJudgeFile(h.db, studyId, file('j.jsonl', text), {
			judge: 'option',
			actor
		});
		expect(r.judges.map((j) => [j.name, j.scores])).toEqual([
			['named', 1],
			['option', 1]
		]);
	});

	it('refuses a record without a judge name, and writes nothing', async () => {
		const text = jsonl([{ question_id: 'q1', model: 'm1', score: 1 }]);
		expect(
			await rejection(importJudgeFile(h.db, studyId, file('j.jsonl', text), { actor }))
		).toEqual([{ record: 1, field: 'judge', reason: expect.stringContaining('is missing') }]);
		expect(await stored()).toEqual(nothing);
	});

	it('names every bad record and field, and writes nothing', async () => {
		const text = jsonl([
			{ question_id: 'q1', model: 'm1', score: 1 }, // good
			{ question_id: 'q9', model: 'm1', score: 1 },
			{ question_id: 'q1', model: 'm7', score: 1 },
			{ question_id: 'q1', model: 'm2', scores: { XYZ: 1 } },
			{ question_id: 'q1', model: 'm2', scores: { COND: '3' } },
			{ question_id: 'q1', model: 'm2', score: null }, // written 1e400 below: JSON.parse reads Infinity
			{ question_id: 'q1', model_a: 'm1', model_b: 'm1', preferred: 'A' },
			{ question_id: 'q1', model_a: 'm1', model_b: 'm2', preferred: 'C' },
			{ question_id: 'q1', model: 'm1', score: 2 } // conflicts with record 1
		]).replace('"score":null', '"score":1e400');
		const errors = await rejection(
			importJudgeFile(h.db, studyId, file('j.jsonl', text), { judge: 'g', actor })
		);
		expect(errors.map((e) => [e.record, e.field])).toEqual([
			[2, 'question_id'],
			[3, 'model'],
			[4, 'scores.XYZ'],
			[5, 'scores.COND'],
			[6, 'score'],
			[7, 'model_b'],
			[8, 'preferred'],
			[9, 'score']
		]);
		expect(errors[0].reason).toContain('“q9” is not a question of this study');
		expect(errors[3].reason).toBe('must be a finite number');
		expect(errors[4].reason).toBe('must be a finite number');
		expect(errors[7].reason).toContain('different value than record 1');
		expect(await stored()).toEqual(nothing);
	});

	it('imports a judgement given twice identically once, with a warning', async () => {
		const text = jsonl([
			{ question_id: 'q1', model_a: 'm1', model_b: 'm2', preferred: 'A' },
			// The same preference seen from the other side.
			{ question_id: 'q1', model_a: 'm2', model_b: 'm1', preferred: 'B' }
		]);
		const r = await importJudgeFile(h.db, studyId, file('j.jsonl', text), { judge: 'g', actor });
		expect(r.judges[0].preferences).toBe(1);
		expect(r.warnings).toMatchObject([
			{ kind: 'duplicate_record', count: 1, records: [{ index: 1 }] }
		]);
		const flipped = jsonl([
			{ question_id: 'q1', model_a: 'm1', model_b: 'm2', preferred: 'A' },
			{ question_id: 'q1', model_a: 'm2', model_b: 'm1', preferred: 'A' }
		]);
		expect(
			await rejection(
				importJudgeFile(h.db, studyId, file('j.jsonl', flipped), { judge: 'h', actor })
			)
		).toMatchObject([{ record: 2, field: 'preferred' }]);
	});

	it('accepts only "overall" in a ranking study', async () => {
		const ranking = await makeStudy('Ranking study', 'ranking');
		const text = jsonl([
			{ question_id: 'q1', model: 'm1', score: 2 },
			{ question_id: 'q1', model: 'm1', scores: { COND: 2 } }
		]);
		expect(
			await rejection(importJudgeFile(h.db, ranking, file('j.jsonl', text), { judge: 'g', actor }))
		).toEqual([
			{ record: 2, field: 'scores.COND', reason: expect.stringContaining('judged “overall” only') }
		]);
		expect(await stored()).toEqual(nothing);
	});

	it('refuses a draft study clearly', async () => {
		const draft = await makeStudy('Draft study', 'rubric', false);
		const text = jsonl([{ question_id: 'q1', model: 'm1', score: 2 }]);
		await expect(
			importJudgeFile(h.db, draft, file('j.jsonl', text), { judge: 'g', actor })
		).rejects.toThrow(/is a draft/);
		expect(await stored()).toEqual(nothing);
	});

	it('refuses hostile files with a clear reason', async () => {
		const deep = `[${'['.repeat(100)}${']'.repeat(100)}]`;
		const deepError = await rejection(
			importJudgeFile(h.db, studyId, file('deep.json', deep), { judge: 'g', actor })
		);
		expect(deepError[0].reason).toMatch(/nests deeper than 64 levels/);

		const nul = jsonl([{ question_id: 'q1', model: 'm1', score: 1, rationale: 'a\u0000b' }]);
		expect(
			await rejection(importJudgeFile(h.db, studyId, file('nul.jsonl', nul), { judge: 'g', actor }))
		).toEqual([
			{
				record: 1,
				field: 'rationale',
				reason: expect.stringMatching(/NUL|null character|U\+0000/i)
			}
		]);

		// A raw NUL byte inside a string is not JSON at all: the file is refused as such.
		const rawNul = '{"question_id": "q1", "model": "m1", "score": 1, "rationale": "a\u0000b"}';
		expect(
			await rejection(
				importJudgeFile(h.db, studyId, file('raw.jsonl', rawNul), { judge: 'g', actor })
			)
		).toEqual([{ record: 0, field: '(file)', reason: expect.stringContaining('not valid JSON') }]);

		const bytes = new TextEncoder().encode(jsonl([{ question_id: 'q1', model: 'm1', score: 1 }]));
		const bad = new Uint8Array([...bytes.slice(0, 10), 0xff, 0xfe, ...bytes.slice(10)]);
		async function* chunks() {
			yield bad;
		}
		const utf8 = await rejection(
			importJudgeFile(
				h.db,
				studyId,
				{ fileName: 'bad.jsonl', chunks: chunks() },
				{ judge: 'g', actor }
			)
		);
		expect(utf8[0].reason).toMatch(/UTF-8/);
		expect(await stored()).toEqual(nothing);
	});
});
