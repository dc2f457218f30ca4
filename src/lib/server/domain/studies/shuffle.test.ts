import { describe, expect, it } from 'vitest';
import { responseLetter, seededPermutations, seededShuffle } from './shuffle';

const ids = [11, 12, 13, 14, 15, 16, 17, 18];

describe('seededShuffle', () => {
	it('is deterministic for a seed and keeps every item once', () => {
		const a = seededShuffle(ids, 'seed-1');
		expect(seededShuffle(ids, 'seed-1')).toEqual(a);
		expect([...a].sort()).toEqual(ids);
		expect(ids).toEqual([11, 12, 13, 14, 15, 16, 17, 18]);
	});

	it('gives different orders for different seeds', () => {
		const orders = new Set(
			Array.from({ length: 20 }, (_, i) => seededShuffle(ids, `p${i}:q1`).join())
		);
		expect(orders.size).toBeGreaterThan(15);
	});

	it('puts every item in the first position about equally often', () => {
		const first = new Map<number, number>();
		for (let i = 0; i < 8000; i++) {
			const [head] = seededShuffle(ids, `s${i}`);
			first.set(head, (first.get(head) ?? 0) + 1);
		}
		for (const id of ids) expect(first.get(id)).toBeGreaterThan(850);
	});

	it('labels positions with letters', () => {
		expect([0, 1, 7].map(responseLetter)).toEqual(['A', 'B', 'H']);
	});
});

describe('seededPermutations', () => {
	it('is the seeded shuffle of n indices for every n, one after the other', () => {
		for (const seed of ['seed-1', 'another seed', 'x']) {
			const all = seededPermutations(seed, 26);
			expect(all).toHaveLength((26 * 27) / 2);
			for (let n = 1; n <= 26; n++) {
				const start = (n * (n - 1)) / 2;
				const indices = Array.from({ length: n }, (_, i) => i);
				expect(all.slice(start, start + n)).toEqual(seededShuffle(indices, seed));
			}
		}
	});
});
