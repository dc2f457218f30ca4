import { describe, expect, it } from 'vitest';
import { seededRandom } from './bootstrap';
import { averageRanks, kendallTauB, pearson, spearman } from './correlation';

/** Tau-b by its definition, over all n(n−1)/2 pairs: the independent check of the fast version. */
function bruteTauB(x: number[], y: number[]): number {
	let c = 0;
	let d = 0;
	let tx = 0;
	let ty = 0;
	const n = x.length;
	for (let i = 0; i < n; i++)
		for (let j = i + 1; j < n; j++) {
			const s = Math.sign(x[i] - x[j]) * Math.sign(y[i] - y[j]);
			if (s > 0) c++;
			else if (s < 0) d++;
			if (x[i] === x[j]) tx++;
			if (y[i] === y[j]) ty++;
		}
	const n0 = (n * (n - 1)) / 2;
	return (c - d) / Math.sqrt((n0 - tx) * (n0 - ty));
}

describe('correlation', () => {
	it("Pearson: Anscombe's (1973) quartet, set I, has r = 0.81642", () => {
		const x = [10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5];
		const y = [8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68];
		expect(pearson(x, y).value).toBeCloseTo(0.81642, 5);
	});

	it("Spearman: Wikipedia's IQ / hours of TV example gives rho = −29/165", () => {
		const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
		const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
		expect(spearman(iq, tv).value).toBeCloseTo(-29 / 165, 12);
	});

	it('Spearman uses average ranks for ties (equals Pearson of the mid-ranks)', () => {
		expect([...averageRanks([10, 20, 20, 30, 20])]).toEqual([1, 3, 3, 5, 3]);
		const x = [1, 2, 2, 3, 4, 4, 4, 5];
		const y = [2, 1, 3, 3, 5, 4, 6, 6];
		expect(spearman(x, y).value).toBeCloseTo(
			pearson([...averageRanks(x)], [...averageRanks(y)]).value!,
			12
		);
	});

	it('Kendall tau-b with ties: the SciPy kendalltau documentation example gives −0.47140', () => {
		const x = [12, 2, 1, 12, 2];
		const y = [1, 4, 7, 1, 0];
		expect(kendallTauB(x, y).value).toBeCloseTo(-0.47140452079103173, 12);
	});

	it('Kendall tau-b equals an O(n²) brute-force count on random data with many ties (seeded)', () => {
		const random = seededRandom('tau-b');
		for (let trial = 0; trial < 50; trial++) {
			const n = 2 + Math.floor(random() * 40);
			const x = Array.from({ length: n }, () => Math.floor(random() * 5));
			const y = Array.from({ length: n }, () => Math.floor(random() * 4));
			const tau = kendallTauB(x, y);
			if (new Set(x).size < 2 || new Set(y).size < 2) expect(tau.value).toBeNull();
			else expect(tau.value).toBeCloseTo(bruteTauB(x, y), 12);
		}
	});

	it('reversing one ranking gives tau-b = −1 and Spearman = −1; identical gives +1', () => {
		const random = seededRandom('reverse');
		const x = Array.from({ length: 30 }, () => random());
		const reversed = x.map((v) => -v);
		expect(kendallTauB(x, reversed).value).toBe(-1);
		expect(spearman(x, reversed).value).toBe(-1);
		expect(kendallTauB(x, x).value).toBe(1);
	});

	it('is unchanged when the pairs are relabelled (shuffled together)', () => {
		const random = seededRandom('shuffle');
		const x = Array.from({ length: 25 }, () => Math.floor(random() * 6));
		const y = x.map((v) => v + Math.floor(random() * 4));
		const order = x.map((_, i) => i).sort(() => random() - 0.5);
		const xs = order.map((i) => x[i]);
		const ys = order.map((i) => y[i]);
		for (const f of [pearson, spearman, kendallTauB])
			expect(f(xs, ys).value).toBeCloseTo(f(x, y).value!, 12);
	});

	it('drops pairs with a missing value and says why a correlation is undefined', () => {
		expect(pearson([1, 2, NaN, 4], [2, 4, 5, 8]).value).toBeCloseTo(1, 12);
		expect(pearson([1], [2])).toEqual({ value: null, reason: 'fewer than 2 pairs' });
		expect(pearson([3, 3, 3], [1, 2, 3])).toEqual({ value: null, reason: 'x has no variance' });
		expect(spearman([1, 2, 3], [5, 5, 5])).toEqual({
			value: null,
			reason: 'y has all values tied'
		});
		expect(kendallTauB([2, 2], [1, 2])).toEqual({ value: null, reason: 'x has all values tied' });
		expect(() => pearson([1, 2], [1])).toThrow(RangeError);
	});
});
