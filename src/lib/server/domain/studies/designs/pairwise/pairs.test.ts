import { describe, expect, it } from 'vitest';
import { planPairs, sourceOrder, type PlanQuestion } from './pairs';

const models = ['1', '2', '3', '4', '5', '6', '7', '8'];
const questions = (n: number, sources = models): PlanQuestion[] =>
	Array.from({ length: n }, (_, i) => ({ questionId: i + 1, sources }));
const key = (a: string, b: string) => `${a}|${b}`;

describe('planPairs', () => {
	it('shows every pair of each question with `all`, models by id and the reference last', () => {
		const plan = planPairs([{ questionId: 7, sources: ['10', 'reference', '9'] }], { mode: 'all' });
		expect(plan).toEqual([
			{ questionId: 7, a: '9', b: '10' },
			{ questionId: 7, a: '9', b: 'reference' },
			{ questionId: 7, a: '10', b: 'reference' }
		]);
		expect(sourceOrder(['reference', '12', '3'])).toEqual(['3', '12', 'reference']);
	});

	it('gives each question p distinct pairs and every model pair within one use of the others', () => {
		for (const [n, p] of [
			[100, 3],
			[50, 5],
			[7, 28],
			[13, 1]
		]) {
			const plan = planPairs(questions(n), { mode: 'balanced', perQuestion: p, seed: 's1' });
			const perQuestion = new Map<number, Set<string>>();
			for (const x of plan) {
				const set = perQuestion.get(x.questionId) ?? new Set();
				set.add(key(x.a, x.b));
				perQuestion.set(x.questionId, set);
			}
			expect(perQuestion.size).toBe(n);
			for (const s of perQuestion.values()) expect(s.size).toBe(p);
			const uses = new Map<string, number>();
			for (const x of plan) uses.set(key(x.a, x.b), (uses.get(key(x.a, x.b)) ?? 0) + 1);
			const counts = [...uses.values()];
			// 28 model pairs: each used floor or ceil of n·p/28 times.
			expect(
				Math.max(...counts) - Math.min(...(uses.size === 28 ? counts : [0]))
			).toBeLessThanOrEqual(1);
			expect(counts.reduce((a, b) => a + b, 0)).toBe(n * p);
		}
	});

	it('is reproducible from its seed and differs with another seed', () => {
		const a = planPairs(questions(20), { mode: 'balanced', perQuestion: 4, seed: 'x' });
		expect(planPairs(questions(20), { mode: 'balanced', perQuestion: 4, seed: 'x' })).toEqual(a);
		expect(planPairs(questions(20), { mode: 'balanced', perQuestion: 4, seed: 'y' })).not.toEqual(
			a
		);
	});

	it('takes only pairs a question has both answers of, and all it has when fewer than asked', () => {
		const qs: PlanQuestion[] = [
			{ questionId: 1, sources: ['1', '2', '3', 'reference'] },
			{ questionId: 2, sources: ['1', '2', '3'] },
			{ questionId: 3, sources: ['1', '2'] }
		];
		const plan = planPairs(qs, { mode: 'balanced', perQuestion: 2, seed: 's' });
		for (const x of plan) {
			const q = qs.find((q) => q.questionId === x.questionId)!;
			expect(q.sources).toContain(x.a);
			expect(q.sources).toContain(x.b);
		}
		expect(plan.filter((x) => x.questionId === 3)).toEqual([{ questionId: 3, a: '1', b: '2' }]);
		expect(plan.filter((x) => x.questionId === 1)).toHaveLength(2);
	});
});
