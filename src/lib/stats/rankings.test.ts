import { describe, expect, it } from 'vitest';
import { seededRandom } from './bootstrap';
import { averageRanks } from './correlation';
import { consensusRanks, kendallW, rankingsSummary } from './rankings';
import type { RankRow } from './types';

/** Rows of one question from a table: ranks[rater][candidate]. */
function table(ranks: number[][], question = 'q1', candidates = 'abcdefghij'.split('')): RankRow[] {
	return ranks.flatMap((row, r) =>
		row.map((rank, c) => ({ question, rater: `r${r + 1}`, candidate: candidates[c], rank }))
	);
}

/** W = S / (m Σⱼ SSⱼ), SSⱼ rater j's sum of squared deviations of average ranks: the tie-corrected
 * denominator computed directly, with no (t³ − t) term, as an independent check. */
function wByDeviations(ranks: number[][]): number {
	const m = ranks.length;
	const n = ranks[0].length;
	const mid = ranks.map((r) => [...averageRanks(r)]);
	const sums = Array.from({ length: n }, (_, c) => mid.reduce((s, r) => s + r[c], 0));
	const mean = (m * (n + 1)) / 2;
	const s = sums.reduce((acc, v) => acc + (v - mean) ** 2, 0);
	const ss = mid.reduce((acc, r) => acc + r.reduce((a, v) => a + (v - (n + 1) / 2) ** 2, 0), 0);
	return s / (m * ss);
}

function randomRanking(random: () => number, n: number, tieLevels = n): number[] {
	return Array.from({ length: n }, () => 1 + Math.floor(random() * tieLevels));
}

describe("Kendall's W", () => {
	it('Siegel (1956): 3 executives ranking 6 applicants give s = 25.5 and W = 0.16', () => {
		const rows = table([
			[1, 6, 3, 2, 5, 4],
			[1, 5, 6, 4, 2, 3],
			[6, 3, 2, 5, 4, 1]
		]);
		expect(kendallW(rows).value).toBeCloseTo((12 * 25.5) / (9 * (216 - 6)), 12);
		expect(kendallW(rows).value).toBeCloseTo(0.16, 2);
	});

	it('with ties: equals S / (m Σ SSⱼ) computed from the average ranks (seeded random tables)', () => {
		const random = seededRandom('w-ties');
		for (let trial = 0; trial < 30; trial++) {
			const m = 2 + Math.floor(random() * 5);
			const n = 2 + Math.floor(random() * 7);
			const ranks = Array.from({ length: m }, () => randomRanking(random, n, 3));
			const w = kendallW(table(ranks));
			const everyoneTiedAll = ranks.every((r) => new Set(r).size === 1);
			if (everyoneTiedAll) expect(w.value).toBeNull();
			else expect(w.value).toBeCloseTo(wByDeviations(ranks), 12);
		}
	});

	it('a hand-worked tie case: ranks (1,2,3) and (1.5,1.5,3) give W = 78/84', () => {
		// R = (2.5, 3.5, 6), mean 4, S = 2.25 + 0.25 + 4 = 6.5; denominator 2²·(27 − 3) − 2·(2³ − 2) = 84.
		expect(
			kendallW(
				table([
					[1, 2, 3],
					[1, 1, 3]
				])
			).value
		).toBeCloseTo((12 * 6.5) / 84, 12);
	});

	it('treats 1,1,3 and 1,1,2 as the same tie', () => {
		const a = kendallW(
			table([
				[1, 1, 3, 4],
				[2, 1, 3, 4]
			])
		);
		const b = kendallW(
			table([
				[1, 1, 2, 3],
				[2, 1, 3, 4]
			])
		);
		expect(a.value).toBeCloseTo(b.value!, 12);
	});

	it('identical rankings give W = 1, with or without ties (seeded)', () => {
		const random = seededRandom('w-identical');
		for (let trial = 0; trial < 20; trial++) {
			const n = 2 + Math.floor(random() * 8);
			let ranking = randomRanking(random, n, 4);
			if (new Set(ranking).size === 1) ranking = ranking.map((_, i) => i + 1);
			const m = 2 + Math.floor(random() * 4);
			expect(kendallW(table(Array.from({ length: m }, () => ranking))).value).toBeCloseTo(1, 12);
		}
	});

	it('is unchanged when raters and candidates are relabelled and rows shuffled', () => {
		const random = seededRandom('w-relabel');
		const ranks = Array.from({ length: 4 }, () => randomRanking(random, 6, 4));
		const rows = table(ranks);
		const renamed = rows
			.map((r) => ({
				...r,
				rater: `x-${r.rater}`,
				candidate: `answer ${r.candidate.toUpperCase()}`
			}))
			.sort(() => random() - 0.5);
		expect(kendallW(renamed).value).toBeCloseTo(kendallW(rows).value!, 12);
	});

	it('counts only raters who ranked every candidate, and says why W is undefined', () => {
		const complete = table([
			[1, 2, 3],
			[1, 3, 2]
		]);
		const partial = [{ question: 'q1', rater: 'r3', candidate: 'a', rank: 3 }];
		expect(kendallW([...complete, ...partial]).value).toBeCloseTo(kendallW(complete).value!, 12);
		expect(kendallW([...table([[1, 2, 3]]), ...partial])).toEqual({
			value: null,
			reason: 'fewer than 2 raters ranked every candidate of this question'
		});
		expect(kendallW(table([[1], [1]])).reason).toBe('fewer than 2 candidates in this question');
		expect(
			kendallW(
				table([
					[1, 1],
					[2, 2]
				])
			).reason
		).toBe('every rater tied all candidates of this question');
		expect(() => kendallW([...table([[1, 2]]), ...table([[1, 2]], 'q2')])).toThrow(RangeError);
	});
});

describe('rankingsSummary and consensusRanks', () => {
	it('averages W over questions where defined and tau-b over rater pairs, then questions', () => {
		const rows = [
			...table(
				[
					[1, 2, 3],
					[1, 2, 3],
					[3, 2, 1]
				],
				'q1'
			), // taus: 1, −1, −1 → −1/3
			...table(
				[
					[1, 2],
					[2, 1]
				],
				'q2'
			), // W 0, tau −1
			...table([[1, 2, 3]], 'q3') // one rater: both undefined
		];
		const s = rankingsSummary(rows);
		expect(s.questions).toBe(3);
		expect(s.kendall_w_by_question.q1.value).toBeCloseTo(
			kendallW(
				table([
					[1, 2, 3],
					[1, 2, 3],
					[3, 2, 1]
				])
			).value!,
			12
		);
		expect(s.kendall_w_by_question.q2.value).toBe(0);
		expect(s.kendall_w_by_question.q3.reason).toBe(
			'fewer than 2 raters ranked every candidate of this question'
		);
		expect(s.kendall_w_mean.value).toBeCloseTo((s.kendall_w_by_question.q1.value! + 0) / 2, 12);
		expect(s.mean_pairwise_tau_b.value).toBeCloseTo((-1 / 3 + -1) / 2, 12);
	});

	it('says why the means are undefined when no question has enough raters', () => {
		const s = rankingsSummary(table([[1, 2, 3]]));
		expect(s.kendall_w_mean).toEqual({
			value: null,
			reason: 'no question has a defined Kendall W'
		});
		expect(s.mean_pairwise_tau_b).toEqual({
			value: null,
			reason: 'no question has a defined pairwise tau-b'
		});
	});

	it('gives each candidate its mean average rank over the raters who ranked it', () => {
		const rows = [
			...table([
				[1, 2, 3],
				[1, 1, 3]
			]),
			{ question: 'q2', rater: 'r1', candidate: 'a', rank: 1 }
		];
		const c = consensusRanks(rows);
		expect(Object.fromEntries(c.get('q1')!)).toEqual({ a: 1.25, b: 1.75, c: 3 });
		expect(Object.fromEntries(c.get('q2')!)).toEqual({ a: 1 });
	});
});
