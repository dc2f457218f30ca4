import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { parseCsv } from '../../../../csv';
import { assignmentCandidate, candidate, model } from '../../../../db/schema';
import { describeEachDb } from '../../../../db/testing';
import { insertUsers } from '../../../../fixtures/ranking';
import { insertRubric, seedQuestionSet } from '../../../../fixtures/rubric';
import { claimNext } from '../../queue';
import { changeStudyState, createStudy } from '../../studies';
import { pairCount, pairedQuestionCount } from './design';
import {
	BATTLE_COLUMNS,
	PAIRWISE_EXPORT_COLUMNS,
	battlesCsv,
	exportPairwiseJudgements,
	pairwiseJudgementsCsv
} from './export';
import { submitPreference } from './submit';
import type { PreferenceOutcome } from '../../../../../constants';

describeEachDb('pairwise export', (h) => {
	let organiser: string;
	let physicians: string[];
	let studyId: number;

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		physicians = await insertUsers(h.db, 2, ['physician']);
		const set = await seedQuestionSet(h.db, { questions: 2, models: ['beta', 'alpha'] });
		const rubric = await insertRubric(h.db);
		const s = await createStudy(
			h.db,
			{
				name: 'Pairs',
				design: 'pairwise',
				questionSetId: set.questionSetId,
				selection: { types: [] },
				modelIds: set.modelIds,
				includeReference: false,
				rubricId: rubric.rubricId,
				ratersPerQuestion: 2
			},
			organiser
		);
		studyId = s.id;
	});

	/** Claims the physician's next pair and says `outcome` about it; returns the left model. */
	async function judge(physician: string, outcome: PreferenceOutcome, reason = '') {
		const c = await claimNext(h.db, studyId, physician, new Date(), { view: true });
		if (c.status !== 'assigned') throw new Error('nothing to judge');
		const [left] = await h.db
			.select({ name: model.name })
			.from(assignmentCandidate)
			.innerJoin(candidate, eq(candidate.id, assignmentCandidate.candidateId))
			.innerJoin(model, eq(model.id, candidate.modelId))
			.where(eq(assignmentCandidate.publicId, c.view!.candidates[0].id));
		await submitPreference(h.db, physician, studyId, {
			assignmentId: c.publicId,
			idempotencyKey: `key-${physician}-${outcome}`,
			outcome,
			strength: outcome === 'left' || outcome === 'right' ? 'clearly' : null,
			aspects: { REL: outcome === 'right' ? 'right' : 'tie' },
			reason
		});
		return left.name;
	}

	it('counts the pairs and their questions once the study opened', async () => {
		expect(await pairCount(h.db, studyId)).toBe(0);
		await changeStudyState(h.db, studyId, 'open', organiser, { confirm: true });
		// Two models: one pair per question, two questions.
		expect(await pairCount(h.db, studyId)).toBe(2);
		expect(await pairedQuestionCount(h.db, studyId)).toBe(2);
		const set = await seedQuestionSet(h.db, { questions: 2, models: ['x', 'y'], name: 'More' });
		const withReference = await createStudy(
			h.db,
			{
				name: 'With the reference',
				design: 'pairwise',
				questionSetId: set.questionSetId,
				selection: { types: [] },
				modelIds: set.modelIds,
				ratersPerQuestion: 2
			},
			organiser
		);
		await changeStudyState(h.db, withReference.id, 'open', organiser, { confirm: true });
		// Two models and the reference: three pairs per question.
		expect(await pairCount(h.db, withReference.id)).toBe(6);
		expect(await pairedQuestionCount(h.db, withReference.id)).toBe(2);
	});

	it('exports one row per judgement with sides as shown and the outcome in canonical order', async () => {
		await changeStudyState(h.db, studyId, 'open', organiser, { confirm: true });
		const leftA = await judge(physicians[0], 'right', '=HYPERLINK("x")');
		const leftB = await judge(physicians[1], 'tie_bad');
		const rows = await exportPairwiseJudgements(h.db, studyId);
		expect(rows).toHaveLength(2);
		const [a, b] = rows;
		// model_a / model_b by name, whatever side each was shown on.
		expect(a).toMatchObject({
			design: 'pairwise',
			unit: 1,
			model_a: 'alpha',
			model_b: 'beta',
			left_model: leftA,
			right_model: leftA === 'alpha' ? 'beta' : 'alpha',
			side_a: leftA === 'alpha' ? 'left' : 'right',
			outcome: 'right',
			// The right answer won: model_b when alpha sat left, else model_a.
			winner: leftA === 'alpha' ? 'model_b' : 'model_a',
			strength: 'clearly',
			aspects_shown: { REL: 'right' },
			aspects: { REL: leftA === 'alpha' ? 'model_b' : 'model_a' },
			reason: '=HYPERLINK("x")'
		});
		expect(a.physician).toMatch(/\S/);
		expect(a.physician).not.toContain('@');
		expect(a.question).toMatch(/^set:\d+$/);
		expect(a.length_a).toBeGreaterThan(0);
		expect(a.left_length).toBe(leftA === 'alpha' ? a.length_a : a.length_b);
		expect(typeof a.assignment_seed).toBe('string');
		expect(a.presentation_position).toBe(1);
		expect(Date.parse(a.submitted_at as string)).toBeGreaterThanOrEqual(
			Date.parse(a.assigned_at as string)
		);
		expect(b).toMatchObject({ outcome: 'tie_bad', winner: 'tie (bothbad)', strength: null });
		expect(b.left_model).toBe(leftB);
		expect(b.aspects).toEqual({ REL: 'tie' });

		const csv = parseCsv(pairwiseJudgementsCsv(rows));
		expect(csv[0]).toEqual([...PAIRWISE_EXPORT_COLUMNS]);
		expect(csv).toHaveLength(3);
		const cell = (row: string[], column: string) =>
			row[PAIRWISE_EXPORT_COLUMNS.indexOf(column as never)];
		// A reason a spreadsheet would run as a formula is neutralised.
		expect(cell(csv[1], 'reason')).toBe(`'=HYPERLINK("x")`);
		expect(JSON.parse(cell(csv[1], 'aspects_shown'))).toEqual({ REL: 'right' });

		const battles = parseCsv(battlesCsv(rows));
		expect(battles[0]).toEqual([...BATTLE_COLUMNS]);
		expect(battles.slice(1)).toEqual(
			rows.map((r) => [
				r.question,
				r.question,
				'alpha',
				'beta',
				r.winner,
				r.physician,
				String(r.length_a),
				String(r.length_b)
			])
		);
	});

	it('shows real names only when asked', async () => {
		await changeStudyState(h.db, studyId, 'open', organiser, { confirm: true });
		await judge(physicians[0], 'left');
		const [pseudonymous] = await exportPairwiseJudgements(h.db, studyId);
		const [named] = await exportPairwiseJudgements(h.db, studyId, { names: true });
		expect(named.physician).not.toBe(pseudonymous.physician);
	});
});
