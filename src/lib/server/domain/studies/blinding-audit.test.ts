import { describe, expect, it } from 'vitest';
import type { QaType } from '../../../constants';
import { SUBMISSION_CASES, SUBMISSION_MODELS } from '../../fixtures/submission-outputs';
import { typedFields } from '../items/fields';
import {
	auditBlinding,
	auditWarning,
	describeAudit,
	singlesOut,
	surfaceFeatures,
	type AuditQuestion
} from './blinding-audit';
import { presentCandidates } from './presentation';

/** One question: the reference first, then one model per text. */
function question(type: QaType, ref: string, models: string[], id = 1): AuditQuestion {
	return {
		id,
		label: `Q${id}`,
		type,
		candidates: [
			{ text: ref, isReference: true, model: null },
			...models.map((text, i) => ({ text, isReference: false, model: `m${i}` }))
		]
	};
}

describe('singlesOut', () => {
	it('categorical: the target differs while all others share one value', () => {
		expect(singlesOut('prefix', 'none', ['final answer', 'final answer'])).toBe(true);
		expect(singlesOut('prefix', 'none', ['final answer', 'none'])).toBe(false);
		expect(singlesOut('prefix', 'none', ['final answer', 'answer'])).toBe(false);
		// One other candidate is not enough to single anything out.
		expect(singlesOut('prefix', 'none', ['final answer'])).toBe(false);
	});
	it('numeric: strict minimum or maximum by more than the others’ spread and 1.5 ×', () => {
		expect(singlesOut('characters', 10, [40, 45, 50])).toBe(true);
		expect(singlesOut('characters', 100, [40, 45, 50])).toBe(true);
		expect(singlesOut('characters', 30, [40, 45, 50])).toBe(false); // gap 10 ≤ spread 10
		expect(singlesOut('characters', 35, [60, 60, 60])).toBe(true);
		expect(singlesOut('characters', 45, [60, 60, 60])).toBe(false); // 60 < 1.5 × 45
		expect(singlesOut('lines', 1, [2, 2])).toBe(true);
		expect(singlesOut('lines', 3, [1, 3])).toBe(false);
	});
});

describe('surfaceFeatures', () => {
	it('reads the label, list separator, case, lines, reasoning part and ending', () => {
		expect(
			surfaceFeatures('Final Answer: aspirin.\nReasoning: it is', 'short_answer')
		).toMatchObject({
			prefix: 'final answer',
			separator: 'n/a',
			firstLetter: 'upper',
			lines: 2,
			detailPart: 'yes',
			ending: 'letter or digit',
			characters: 39,
			words: 6
		});
		expect(surfaceFeatures('a; b; c', 'list')).toMatchObject({
			prefix: 'none',
			separator: '“; ”',
			firstLetter: 'lower',
			ending: 'letter or digit'
		});
		expect(surfaceFeatures('A, B', 'list').separator).toBe('“, ”');
		expect(surfaceFeatures('- A\n- B', 'list').separator).toBe('one per line');
		expect(surfaceFeatures('3 mg.', 'short_answer')).toMatchObject({
			firstLetter: 'not a letter',
			ending: '“.”'
		});
	});
});

describe('auditBlinding on raw texts', () => {
	const models = [
		'Final Answer: Intramuscular adrenaline',
		'Final Answer: Intramuscular adrenaline'
	];
	it('flags a difference in the prefix alone', () => {
		const audit = auditBlinding([
			question('short_answer', 'Intramuscular adrenaline', [...models, models[0]])
		]);
		expect(audit.byForm).toEqual([{ id: 1, label: 'Q1', features: ['prefix'] }]);
	});
	it('flags a difference in the list separator alone', () => {
		const audit = auditBlinding([
			question('list', 'Iron deficiency; Thalassaemia trait', [
				'Iron deficiency, Thalassaemia trait',
				'Iron deficiency, Thalassaemia trait',
				'Iron deficiency, Folate deficiency'
			])
		]);
		expect(audit.byForm).toEqual([{ id: 1, label: 'Q1', features: ['separator'] }]);
	});
	it('flags a difference in the case of the first letter alone', () => {
		const audit = auditBlinding([
			question('short_inverse', 'ferritin rises with inflammation.', [
				'Ferritin rises with inflammation.',
				'Ferritin is an acute-phase protein.',
				'Ferritin rises in inflammation.'
			])
		]);
		expect(audit.byForm).toEqual([{ id: 1, label: 'Q1', features: ['firstLetter'] }]);
	});
	it('flags a missing reasoning part and the lines that go with it', () => {
		const audit = auditBlinding([
			question('multi_hop', 'It rises', [
				'Final Answer: It rises\nReasoning: sodium loss',
				'Final Answer: It falls\nReasoning: more water',
				'Final Answer: Unchanged\nReasoning: no effect'
			])
		]);
		expect(audit.byForm[0].features).toEqual(['prefix', 'lines', 'detailPart']);
	});
	it('reports length separately and names a model told apart in most of its questions', () => {
		const questions = [1, 2, 3].map((id) =>
			question(
				'short_answer',
				'Median nerve',
				[
					'Median nerve',
					'The median nerve',
					'FINAL ANSWER: The median nerve at the wrist, compressed'
				],
				id
			)
		);
		const audit = auditBlinding(questions);
		expect(audit.byForm).toEqual([]);
		expect(audit.byLength).toEqual([]);
		expect(audit.models).toContainEqual({ model: 'm2', feature: 'prefix', questions: 3, of: 3 });
		expect(auditWarning(audit)).toMatch(
			/One model is told apart by its leading label .* 3 of its 3/
		);
	});
	it('reports a reference that is much shorter than every model answer', () => {
		const audit = auditBlinding([
			question('short_answer', 'Adrenaline', [
				'Adrenaline given intramuscularly into the thigh',
				'Intramuscular adrenaline at 0.5 mg for an adult',
				'Adrenaline 1:1000 intramuscularly, repeated after five minutes'
			])
		]);
		expect(audit.byLength).toEqual([{ id: 1, label: 'Q1', features: ['characters', 'words'] }]);
		expect(audit.byForm).toEqual([]);
		expect(auditWarning(audit)).toBeNull();
	});
});

/** The fixture's questions with candidate texts raw or presented. */
function fixtureQuestions(presented: boolean): AuditQuestion[] {
	return SUBMISSION_CASES.map((c, i) => {
		const fields = typedFields(c.record);
		const raw = [
			{ text: fields.answer ?? '', isReference: true, model: null },
			...SUBMISSION_MODELS.map((m) => ({ text: c.outputs[m], isReference: false, model: m }))
		];
		const texts = presented
			? presentCandidates(
					{ type: c.record.type, options: fields.options, reasoning: fields.reasoning },
					raw
				)
			: raw.map((r) => r.text);
		return {
			id: i + 1,
			label: c.record.question,
			type: c.record.type,
			candidates: raw.map((r, j) => ({ ...r, text: texts[j] }))
		};
	});
}

describe('the submission-format fixture', () => {
	it('gives the reference away by its form when texts are shown raw', () => {
		const audit = auditBlinding(fixtureQuestions(false));
		const flagged = new Map(audit.byForm.map((q) => [q.id, q.features]));
		expect(audit.withReference).toBe(14);
		// Short answer and short inverse: the reference alone lacks the prompt's prefix.
		expect(flagged.get(7)).toContain('prefix');
		expect(flagged.get(9)).toEqual(expect.arrayContaining(['prefix', 'firstLetter']));
		// Lists: the reference alone is joined with "; ".
		expect(flagged.get(5)).toEqual(['separator']);
		// Multi-hop: the reference alone has no reasoning part.
		expect(flagged.get(11)).toContain('detailPart');
		expect(audit.byForm.length).toBeGreaterThanOrEqual(9);
		expect(describeAudit(audit)).toMatch(/^Reference identifiable by form in \d+ of 14 questions/);
	});

	it('leaves no form feature that singles out the reference once presented canonically', () => {
		const audit = auditBlinding(fixtureQuestions(true));
		expect(audit.withReference).toBe(14);
		expect(audit.byForm).toEqual([]);
		expect(audit.models).toEqual([]);
		expect(auditWarning(audit)).toBeNull();
		expect(describeAudit(audit)).toBe('Reference identifiable by form in 0 of 14 questions (0 %)');
	});
});
