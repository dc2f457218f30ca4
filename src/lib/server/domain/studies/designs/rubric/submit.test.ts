import { count, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
	assignment,
	auditEvent,
	rubricJudgement,
	rubricScore,
	rubricStudy,
	rubricVersion
} from '../../../../db/schema';
import { describeEachDb } from '../../../../db/testing';
import { DomainError } from '../../../../errors';
import { insertUsers } from '../../../../fixtures/ranking';
import { insertRubric, seedQuestionSet, SMALL_RUBRIC } from '../../../../fixtures/rubric';
import { claimNext, type ClaimResult } from '../../queue';
import { changeStudyState, createStudy } from '../../studies';
import { rubricDefinitionSchema } from '../../../../../schemas/rubric';
import { sheetProblems, submitScores, type SheetScore } from './submit';

const definition = rubricDefinitionSchema.parse(SMALL_RUBRIC);

/** A complete sheet: every answer scored on every sub-aspect, rationales where required. */
function fullSheet(answers: string[], score = (i: number) => i % 6): SheetScore[] {
	return answers.flatMap((answer, i) =>
		['COND', 'CONC', 'ACC'].map((subAspect) => ({
			answer,
			subAspect,
			score: score(i),
			rationale: subAspect === 'COND' ? `Reason for ${answer}` : ''
		}))
	);
}

describe('sheetProblems', () => {
	const answers = ['a1', 'a2'];
	it('accepts a complete sheet', () => {
		expect(sheetProblems(definition, answers, fullSheet(answers))).toEqual([]);
	});
	it('names each problem by letter and sub-aspect', () => {
		const sheet = fullSheet(answers);
		sheet[0].score = 6; // A, COND: above the 0–5 scale
		sheet[1].score = null; // A, CONC: missing
		sheet[3].rationale = ''; // B, COND: required rationale missing
		sheet[5].rationale = 'not wanted'; // B, ACC: rationale off
		sheet.push({ answer: 'a1', subAspect: 'XYZ', score: 1, rationale: '' });
		sheet.push({ answer: 'zz', subAspect: 'ACC', score: 1, rationale: '' });
		expect(sheetProblems(definition, answers, sheet)).toEqual([
			'“XYZ” is not a sub-aspect of this study’s rubric.',
			'A score names an answer that is not shown in this question.',
			'Response A, COND (Relevance to the condition): the score must be a whole number from 0 to 5.',
			'Response A, CONC (Addresses every concern): give a score.',
			'Response B, COND (Relevance to the condition): this sub-aspect asks for a rationale.',
			'Response B, ACC (Factual accuracy): this sub-aspect takes no rationale.'
		]);
	});
	it('refuses fractions and non-numbers', () => {
		const sheet = fullSheet(answers);
		sheet[2].score = 2.5;
		sheet[4].score = Number.NaN;
		expect(sheetProblems(definition, answers, sheet)).toHaveLength(2);
	});
});

describeEachDb('rubric studies', (h) => {
	let organiser: string;
	let physicians: string[];
	let studyId: number;
	let versionId: number;

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		physicians = await insertUsers(h.db, 2, ['physician']);
		const set = await seedQuestionSet(h.db, { questions: 3, models: ['m1', 'm2', 'm3'] });
		const rubric = await insertRubric(h.db);
		versionId = rubric.versionId;
		const study = await createStudy(
			h.db,
			{
				name: 'Rubric study',
				design: 'rubric',
				questionSetId: set.questionSetId,
				rubricId: rubric.rubricId,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 2
			},
			organiser
		);
		studyId = study.id;
	});

	async function open() {
		await changeStudyState(h.db, studyId, 'open', organiser);
	}
	async function claim(physician: string): Promise<Extract<ClaimResult, { status: 'assigned' }>> {
		const c = await claimNext(h.db, studyId, physician, new Date(), { view: true });
		if (c.status !== 'assigned') throw new Error('nothing to claim');
		return c;
	}
	const sheetOf = (c: Extract<ClaimResult, { status: 'assigned' }>, key: string) => ({
		assignmentId: c.publicId,
		idempotencyKey: key,
		layout: 'side_by_side' as const,
		scores: fullSheet(c.view!.candidates.map((x) => x.id))
	});

	it('a rubric study needs a rubric', async () => {
		await expect(
			createStudy(
				h.db,
				{
					name: 'No rubric',
					design: 'rubric',
					selection: { types: [] },
					modelIds: [1],
					ratersPerQuestion: 2
				},
				organiser
			)
		).rejects.toMatchObject({ code: 'invalid', field: 'rubricId' });
	});

	it('opening freezes the rubric version and the free-text questions with their answers', async () => {
		const [before] = await h.db.select().from(rubricStudy).where(eq(rubricStudy.studyId, studyId));
		expect(before.rubricVersionId).toBeNull();
		await open();
		const [after] = await h.db.select().from(rubricStudy).where(eq(rubricStudy.studyId, studyId));
		expect(after.rubricVersionId).toBe(versionId);
		const c = await claim(physicians[0]);
		const view = c.view!;
		expect(view.study.design).toBe('rubric');
		expect(view.question.type).toBe('free_text');
		expect(view.question.text).toMatch(/^Is symptom number \d/);
		expect(view.question.context).toMatch(/A patient in their/);
		// Three models and the reference.
		expect(view.candidates).toHaveLength(4);
		expect(view.candidates.map((x) => x.label)).toEqual([
			'Response A',
			'Response B',
			'Response C',
			'Response D'
		]);
	});

	it('stores a complete sheet with sides and an audit event, and claims the next question', async () => {
		await open();
		const c = await claim(physicians[0]);
		const stored = await submitScores(
			h.db,
			physicians[0],
			studyId,
			c.view!.candidates.map((x) => x.id),
			sheetOf(c, 'key-00000001'),
			{ next: true }
		);
		expect(stored.duplicate).toBe(false);
		expect(stored.next?.status).toBe('assigned');
		const scores = await h.db
			.select()
			.from(rubricScore)
			.where(eq(rubricScore.judgementId, stored.judgementId))
			.orderBy(rubricScore.displayPosition, rubricScore.subAspect);
		expect(scores).toHaveLength(12);
		// Side by side: A | B, C | D.
		expect(scores.map((s) => `${s.displayPosition}${s.side}`)).toEqual([
			...Array(3).fill('1left'),
			...Array(3).fill('2right'),
			...Array(3).fill('3left'),
			...Array(3).fill('4right')
		]);
		const [a] = await h.db.select().from(assignment).where(eq(assignment.publicId, c.publicId));
		expect(a.state).toBe('submitted');
		const [{ n }] = await h.db
			.select({ n: count() })
			.from(auditEvent)
			.where(eq(auditEvent.action, 'rubric.submit'));
		expect(n).toBe(1);
		// A retry with the same key returns the stored sheet; a second sheet is refused.
		const again = await submitScores(
			h.db,
			physicians[0],
			studyId,
			c.view!.candidates.map((x) => x.id),
			sheetOf(c, 'key-00000001')
		);
		expect(again).toMatchObject({ duplicate: true, judgementId: stored.judgementId });
		await expect(
			submitScores(
				h.db,
				physicians[0],
				studyId,
				c.view!.candidates.map((x) => x.id),
				sheetOf(c, 'key-00000002')
			)
		).rejects.toMatchObject({ code: 'already_submitted' });
		const [{ sheets }] = await h.db.select({ sheets: count() }).from(rubricJudgement);
		expect(sheets).toBe(1);
	});

	it('refuses bad sheets and stores nothing', async () => {
		await open();
		const c = await claim(physicians[0]);
		const answers = c.view!.candidates.map((x) => x.id);
		const bad = [
			(s: SheetScore[]) => (s[0].score = 7),
			(s: SheetScore[]) => (s[0].rationale = ''),
			(s: SheetScore[]) => (s[1].subAspect = 'NOPE'),
			(s: SheetScore[]) => s.pop()
		];
		for (const [i, spoil] of bad.entries()) {
			const sheet = sheetOf(c, `bad-key-${i}0000`);
			spoil(sheet.scores);
			const e = await submitScores(h.db, physicians[0], studyId, answers, sheet).catch((x) => x);
			expect(e).toBeInstanceOf(DomainError);
			expect(e.code).toBe('invalid');
		}
		// Answers the screen claims were shown but the assignment does not hold: refused by the database.
		const forged = sheetOf(c, 'forged-key-1');
		const fake = forged.scores.map((s) => ({
			...s,
			answer: s.answer === answers[0] ? 'X' : s.answer
		}));
		await expect(
			submitScores(h.db, physicians[0], studyId, ['X', ...answers.slice(1)], {
				...forged,
				scores: fake
			})
		).rejects.toMatchObject({ code: 'invalid' });
		// Another rater cannot submit this assignment.
		await expect(
			submitScores(h.db, physicians[1], studyId, answers, sheetOf(c, 'other-key-1'))
		).rejects.toMatchObject({ code: 'not_found' });
		const [{ n }] = await h.db.select({ n: count() }).from(rubricScore);
		expect(n).toBe(0);
	});

	it('a version saved after opening does not reach the study', async () => {
		await open();
		const [{ rubricId }] = await h.db
			.select({ rubricId: rubricStudy.rubricId })
			.from(rubricStudy)
			.where(eq(rubricStudy.studyId, studyId));
		const changed = rubricDefinitionSchema.parse({
			aspects: [{ code: 'X', name: 'X', subAspects: [{ code: 'ONLY', name: 'Only' }] }]
		});
		await h.db.insert(rubricVersion).values({ rubricId, version: 2, definition: changed });
		const c = await claim(physicians[1]);
		// The frozen version (three sub-aspects) still decides what a complete sheet is.
		const stored = await submitScores(
			h.db,
			physicians[1],
			studyId,
			c.view!.candidates.map((x) => x.id),
			sheetOf(c, 'frozen-key-1')
		);
		expect(stored.duplicate).toBe(false);
	});
});
