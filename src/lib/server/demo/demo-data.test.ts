import { describe, expect, it } from 'vitest';
import { DEMO_MODELS, demoPassages, demoQaRecords, demoResponses } from './demo-data';

const TYPES = [
	'true_false',
	'multiple_choice',
	'list',
	'short_answer',
	'short_inverse',
	'multi_hop',
	'multi_hop_inverse'
] as const;

const KEYS: Record<(typeof TYPES)[number], string[]> = {
	true_false: ['answer', 'question', 'source', 'type'],
	multiple_choice: ['correct_answer', 'options', 'question', 'source', 'type'],
	list: ['answer', 'options', 'question', 'source', 'type'],
	short_answer: ['answer', 'question', 'source', 'type'],
	short_inverse: ['answer', 'false_answer', 'incorrect_explanation', 'question', 'source', 'type'],
	multi_hop: ['answer', 'question', 'reasoning', 'source', 'type'],
	multi_hop_inverse: [
		'answer',
		'incorrect_reasoning_step',
		'question',
		'reasoning',
		'source',
		'type'
	]
};

const wordCount = (s: string) => s.trim().split(/\s+/).length;

function checkSteps(reasoning: string[]) {
	expect(reasoning.length).toBeGreaterThanOrEqual(3);
	expect(reasoning.length).toBeLessThanOrEqual(4);
	reasoning.forEach((step, i) => expect(step).toMatch(new RegExp(`^Step ${i + 1}: \\S`)));
}

describe('demo passages', () => {
	it('has 12 passages with unique ids, the demo ISBN, pages 1–200 and 80–180 words', () => {
		expect(demoPassages).toHaveLength(12);
		expect(new Set(demoPassages.map((p) => p.paragraph_id)).size).toBe(12);
		for (const p of demoPassages) {
			expect(p.isbn).toBe('978-0-00-000000-0');
			expect(p.paragraph_id).toMatch(/^demo-\d{4}-p\d{3}-para\d{2}$/);
			expect(p.page).toBeGreaterThanOrEqual(1);
			expect(p.page).toBeLessThanOrEqual(200);
			expect(wordCount(p.text)).toBeGreaterThanOrEqual(80);
			expect(wordCount(p.text)).toBeLessThanOrEqual(180);
		}
	});
});

describe('demo QA records', () => {
	it('has 3 records of each of the 7 types (21 in all)', () => {
		expect(demoQaRecords).toHaveLength(21);
		for (const t of TYPES) expect(demoQaRecords.filter((r) => r.type === t)).toHaveLength(3);
	});

	it('has exactly the ClinIQLink keys for its type', () => {
		for (const r of demoQaRecords) expect(Object.keys(r).sort()).toEqual(KEYS[r.type]);
	});

	it('points every source at an existing passage with matching isbn and page', () => {
		const byId = new Map(demoPassages.map((p) => [p.paragraph_id, p]));
		for (const r of demoQaRecords) {
			const p = byId.get(r.source.paragraph_id);
			expect(p, r.source.paragraph_id).toBeDefined();
			expect(r.source).toEqual({ isbn: p!.isbn, page: p!.page, paragraph_id: p!.paragraph_id });
			expect(r.question.trim().length).toBeGreaterThan(0);
		}
	});

	it('satisfies the per-type answer invariants', () => {
		for (const r of demoQaRecords) {
			switch (r.type) {
				case 'true_false':
					expect(['True', 'False']).toContain(r.answer);
					break;
				case 'multiple_choice':
					expect(r.options).toHaveLength(4);
					expect(new Set(r.options).size).toBe(4);
					expect(r.options).toContain(r.correct_answer);
					break;
				case 'list':
					expect(r.options.length).toBeGreaterThanOrEqual(5);
					expect(r.options.length).toBeLessThanOrEqual(8);
					expect(new Set(r.options).size).toBe(r.options.length);
					expect(r.answer.length).toBeGreaterThanOrEqual(2);
					expect(r.answer.length).toBeLessThanOrEqual(4);
					for (const a of r.answer) expect(r.options).toContain(a);
					break;
				case 'short_answer':
					expect(r.answer.trim().length).toBeGreaterThan(0);
					break;
				case 'short_inverse':
					expect(r.false_answer).toBe(r.answer);
					expect(r.incorrect_explanation).toMatch(/^[a-z]/);
					break;
				case 'multi_hop':
					checkSteps(r.reasoning);
					break;
				case 'multi_hop_inverse': {
					checkSteps(r.reasoning);
					expect(r.incorrect_reasoning_step).toHaveLength(2);
					const m = /^- Step (\d+) contains the incorrect inference/.exec(
						r.incorrect_reasoning_step[0]
					);
					expect(m, r.incorrect_reasoning_step[0]).not.toBeNull();
					const k = Number(m![1]);
					expect(k).toBeGreaterThanOrEqual(1);
					expect(k).toBeLessThanOrEqual(r.reasoning.length);
					expect(r.incorrect_reasoning_step[1]).toMatch(/^- Explanation: \S/);
					break;
				}
			}
		}
	});
});

describe('demo responses', () => {
	it('has exactly one response per (model, item) pair', () => {
		expect(demoResponses).toHaveLength(DEMO_MODELS.length * demoQaRecords.length);
		const seen = new Set<string>();
		for (const r of demoResponses) {
			expect(DEMO_MODELS).toContain(r.model);
			expect(Number.isInteger(r.item)).toBe(true);
			expect(r.item).toBeGreaterThanOrEqual(0);
			expect(r.item).toBeLessThan(demoQaRecords.length);
			expect(r.response.trim().length).toBeGreaterThan(0);
			const key = `${r.model}#${r.item}`;
			expect(seen.has(key), key).toBe(false);
			seen.add(key);
		}
		for (const m of DEMO_MODELS)
			for (let i = 0; i < demoQaRecords.length; i++) expect(seen.has(`${m}#${i}`)).toBe(true);
	});

	it('includes several long open-ended answers for the ranking screen', () => {
		const openTypes = new Set(['short_answer', 'short_inverse', 'multi_hop', 'multi_hop_inverse']);
		const long = demoResponses.filter((r) => {
			const n = wordCount(r.response);
			return openTypes.has(demoQaRecords[r.item].type) && n >= 120 && n <= 250;
		});
		expect(long.length).toBeGreaterThanOrEqual(5);
	});
});
