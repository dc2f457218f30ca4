import { describe, expect, it } from 'vitest';
import { bootstrap, seededRandom } from './bootstrap';
import { pearson } from './correlation';
import {
	judgeAgreement,
	judgePoints,
	judgePreferenceAgreement,
	rankJudges,
	type JudgePreferenceRow,
	type JudgeScoreRow
} from './judges';
import { icc } from './ratings';
import type { RubricShape, ScoreRow } from './rubric';

const SHAPE: RubricShape = {
	aspects: [{ code: 'A', subAspects: ['ACC'] }],
	scale: { min: 0, max: 5 }
};
const boot = { resamples: 200, seed: 'judges' };

// Physician means on ACC: q1 a 4, b 2, c 3 (a scored 5 and 3 by two physicians); q2 d 2, e 2, f 4.
const PHYSICIANS: ScoreRow[] = [
	['q1', 'a', 'ann', 5],
	['q1', 'a', 'bob', 3],
	['q1', 'b', 'ann', 2],
	['q1', 'c', 'ann', 3],
	['q2', 'd', 'cat', 2],
	['q2', 'e', 'cat', 2],
	['q2', 'f', 'cat', 4]
].map(([question, candidate, rater, score]) => ({
	question: question as string,
	candidate: candidate as string,
	model: 'm',
	rater: rater as string,
	subAspect: 'ACC',
	score: score as number
}));

const judge = (name: string, scores: Record<string, number>): JudgeScoreRow[] =>
	Object.entries(scores).map(([candidate, score]) => ({
		judge: name,
		question: 'abc'.includes(candidate) ? 'q1' : 'q2',
		candidate,
		subAspect: 'ACC',
		score
	}));

// J1: a 5, b 1, c 1, d 3, e 4, f 2.
const J1 = judge('J1', { a: 5, b: 1, c: 1, d: 3, e: 4, f: 2 });
// J2 gives every answer 3; J3 copies the physicians' means.
const J2 = judge('J2', { a: 3, b: 3, c: 3, d: 3, e: 3, f: 3 });
const J3 = judge('J3', { a: 4, b: 2, c: 3, d: 2, e: 2, f: 4 });

describe('judgeAgreement', () => {
	const results = judgeAgreement(PHYSICIANS, [...J1, ...J2, ...J3], SHAPE, boot);
	const get = (j: string, key: string) => results.find((r) => r.judge === j && r.key === key)!;

	it('pairwise accuracy counts a judge tie as one half: 2.5/5', () => {
		// q1: (a 4, b 2) judge 5 > 1 ✓; (a 4, c 3) 5 > 1 ✓; (c 3 > b 2) judge 1 = 1 → ½.
		// q2: (d 2, e 2) physicians tie → not a pair; (f 4 > d 2) judge 2 < 3 ✗; (f > e) 2 < 4 ✗.
		// (1 + 1 + ½ + 0 + 0)/5 = 0.5.
		expect(get('J1', 'ACC')).toMatchObject({
			kind: 'sub_aspect',
			answers: 6,
			pairs: 5,
			pairwiseAccuracy: { value: 0.5 }
		});
	});

	it('Pearson r and ICC(2,1) of judge vs physician mean, by hand', () => {
		// x (judge) 5,1,1,3,4,2, mean 8/3; y (physicians) 4,2,3,2,2,4, mean 17/6.
		// Σdxdy = 5/3, Σdx² = 40/3, Σdy² = 29/6 → r = (5/3)/√(40/3 · 29/6) = 0.2076137.
		const r = get('J1', 'ACC');
		expect(r.pearson.value).toBeCloseTo(0.20761369963434984, 12);
		expect(r.pearson).toEqual(pearson([5, 1, 1, 3, 4, 2], [4, 2, 3, 2, 2, 4]));
		// Answers × {judge, physicians}: grand mean 33/12; SSR 10.75, SSC 1/12, SST 18.25,
		// SSE 89/12 → MSR 2.15, MSC 1/12, MSE 89/60; ICC(2,1) = (2.15 − 89/60) /
		// (2.15 + 89/60 + 2(1/12 − 89/60)/6) = (2/3)/(19/6) = 4/19.
		expect(r.icc.value).toBeCloseTo(4 / 19, 12);
		// Identical scores from J3: r = 1, ICC = 1.
		expect(get('J3', 'ACC').pearson.value).toBeCloseTo(1, 12);
		expect(get('J3', 'ACC').icc.value).toBeCloseTo(1, 12);
	});

	it('says why Pearson is undefined for a judge who gives every answer the same score', () => {
		const r = get('J2', 'overall');
		expect(r.kind).toBe('overall');
		expect(r.pearson).toEqual({ value: null, reason: 'x has no variance' });
		expect(r.pearsonInterval.low).toBeNull();
		// Every counted pair is a judge tie: 5 × ½ / 5.
		expect(r.pairwiseAccuracy.value).toBe(0.5);
	});

	it('ranks judges by overall pairwise accuracy, then Pearson', () => {
		// J3 1.0; J1 and J2 both 0.5, J1 with a defined r ahead of J2's undefined one.
		expect(rankJudges(results).map((r) => r.judge)).toEqual(['J3', 'J1', 'J2']);
	});

	/** A random study: 15 questions × 4 answers, 2 physicians, a noisy judge. */
	function study(seed: string) {
		const random = seededRandom(seed);
		const phys: ScoreRow[] = [];
		const judged: JudgeScoreRow[] = [];
		for (let q = 0; q < 15; q++)
			for (let c = 0; c < 4; c++) {
				const quality = random() * 5;
				const round = (v: number) => Math.max(0, Math.min(5, Math.round(v)));
				for (const rater of ['p1', 'p2'])
					phys.push({
						question: `q${q}`,
						candidate: `c${c}`,
						model: 'm',
						rater,
						subAspect: 'ACC',
						score: round(quality + random() - 0.5)
					});
				judged.push({
					judge: 'J',
					question: `q${q}`,
					candidate: `c${c}`,
					subAspect: 'ACC',
					score: round(quality + (random() - 0.5) * 3)
				});
			}
		return { phys, judged };
	}

	it('intervals resample questions: the same as bootstrap() of pearson, icc and accuracy', () => {
		const { phys, judged } = study('judge study');
		const [r] = judgeAgreement(phys, judged, SHAPE, { resamples: 300, seed: 'q' });
		// Per question: the judge's and the physicians' mean score of each answer.
		const questions = [...new Set(phys.map((x) => x.question))].map((q) =>
			judged
				.filter((j) => j.question === q)
				.map((j) => {
					const s = phys.filter((p) => p.question === q && p.candidate === j.candidate);
					return { x: j.score, y: (s[0].score + s[1].score) / 2 };
				})
		);
		const flat = (sample: { x: number; y: number }[][]) => sample.flat();
		const expect3 = (
			stat: (a: { x: number; y: number }[]) => number | null,
			got: { low: number | null; high: number | null }
		) => {
			const e = bootstrap(questions, (s) => stat(flat(s)), { resamples: 300, seed: 'q' });
			expect(got.low).toBeCloseTo(e.low!, 9);
			expect(got.high).toBeCloseTo(e.high!, 9);
		};
		expect3(
			(a) =>
				pearson(
					a.map((p) => p.x),
					a.map((p) => p.y)
				).value,
			r.pearsonInterval
		);
		expect3(
			(a) =>
				icc(
					a.flatMap((p, i) => [
						{ unit: String(i), rater: 'j', value: p.x },
						{ unit: String(i), rater: 'p', value: p.y }
					]),
					'2,1'
				).value,
			r.iccInterval
		);
		// Accuracy: pairs within a question, so a question's counts travel with it.
		const e = bootstrap(
			questions,
			(s) => {
				let hits = 0;
				let pairs = 0;
				for (const q of s)
					for (let i = 0; i < q.length; i++)
						for (let j = i + 1; j < q.length; j++) {
							if (q[i].y === q[j].y) continue;
							pairs++;
							const d = (q[i].x - q[j].x) * Math.sign(q[i].y - q[j].y);
							hits += d > 0 ? 1 : d === 0 ? 0.5 : 0;
						}
				return pairs ? hits / pairs : null;
			},
			{ resamples: 300, seed: 'q' }
		);
		expect(r.pairwiseInterval.low).toBeCloseTo(e.low!, 12);
		expect(r.pairwiseInterval.high).toBeCloseTo(e.high!, 12);
		for (const [s, i] of [
			[r.pairwiseAccuracy, r.pairwiseInterval],
			[r.pearson, r.pearsonInterval],
			[r.icc, r.iccInterval]
		] as const) {
			expect(i.low!).toBeLessThanOrEqual(s.value!);
			expect(i.high!).toBeGreaterThanOrEqual(s.value!);
		}
	});

	it('repeats with its seed and changes with another', () => {
		const { phys, judged } = study('seeded');
		const a = judgeAgreement(phys, judged, SHAPE, { resamples: 200, seed: 'x' });
		expect(judgeAgreement(phys, judged, SHAPE, { resamples: 200, seed: 'x' })).toEqual(a);
		const b = judgeAgreement(phys, judged, SHAPE, { resamples: 200, seed: 'y' });
		expect(b[0].pearsonInterval).not.toEqual(a[0].pearsonInterval);
	});
});

describe('judgePreferenceAgreement', () => {
	it('scores preferences against physician means: a judge tie ½, physician ties left out', () => {
		const prefs: JudgePreferenceRow[] = [
			// (a 4, b 2): prefers A ✓ 1. (b 2, c 3): tie ½. (d 2, e 2): physicians tie, not counted.
			// (d 2, f 4): prefers B ✓ 1. (a, zz): zz unscored. → (1 + ½ + 1)/3 = 5/6.
			{
				judge: 'J1',
				question: 'q1',
				candidateA: 'a',
				candidateB: 'b',
				preferred: 'A',
				subAspect: 'ACC'
			},
			{
				judge: 'J1',
				question: 'q1',
				candidateA: 'b',
				candidateB: 'c',
				preferred: 'tie',
				subAspect: 'ACC'
			},
			{
				judge: 'J1',
				question: 'q2',
				candidateA: 'd',
				candidateB: 'e',
				preferred: 'A',
				subAspect: 'ACC'
			},
			{
				judge: 'J1',
				question: 'q2',
				candidateA: 'd',
				candidateB: 'f',
				preferred: 'B',
				subAspect: 'ACC'
			},
			{
				judge: 'J1',
				question: 'q1',
				candidateA: 'a',
				candidateB: 'zz',
				preferred: 'A',
				subAspect: 'ACC'
			},
			// Overall (= ACC here, the only sub-aspect): (a 4, c 3) prefers B ✗ → 0/1.
			{ judge: 'J1', question: 'q1', candidateA: 'a', candidateB: 'c', preferred: 'B' }
		];
		const [acc, overall] = judgePreferenceAgreement(PHYSICIANS, prefs, SHAPE, boot);
		expect(acc).toMatchObject({
			judge: 'J1',
			key: 'ACC',
			pairs: 3,
			physicianTies: 1,
			unscored: 1,
			judgeTies: 1
		});
		expect(acc.accuracy.value).toBeCloseTo(5 / 6, 12);
		// q1 gives 1.5 of 2, q2 1 of 1.
		const expected = bootstrap(
			[
				{ hits: 1.5, n: 2 },
				{ hits: 1, n: 1 }
			],
			(s) => s.reduce((a, b) => a + b.hits, 0) / s.reduce((a, b) => a + b.n, 0),
			boot
		);
		expect(acc.interval).toEqual(expected);
		expect(overall).toMatchObject({ key: 'overall', pairs: 1, accuracy: { value: 0 } });
	});

	it('is undefined, saying why, when the physicians tie every preferred pair', () => {
		const [r] = judgePreferenceAgreement(
			PHYSICIANS,
			[
				{
					judge: 'J',
					question: 'q2',
					candidateA: 'd',
					candidateB: 'e',
					preferred: 'A',
					subAspect: 'ACC'
				}
			],
			SHAPE,
			boot
		);
		expect(r.accuracy).toEqual({
			value: null,
			reason: 'no preference of J on ACC is between answers the physicians scored differently'
		});
		expect(r.interval.low).toBeNull();
	});
});

describe('a judge scoring whole answers (criterion overall)', () => {
	it('is compared with the physicians’ overall mean, and only there', () => {
		// The metric orders q1 as a > c > b (physician means 4, 3, 2: all three pairs agree) and
		// q2 as f > d = e (means 4, 2, 2: d–e is tied by the physicians and not a pair; f > d, f > e
		// agree): 5 of 5 pairs.
		const metric = judge('metric', { a: 0.9, b: 0.1, c: 0.5, d: 0.2, e: 0.3, f: 0.8 }).map((r) => ({
			...r,
			subAspect: 'overall'
		}));
		const results = judgeAgreement(PHYSICIANS, metric, SHAPE, boot);
		const overall = results.find((r) => r.judge === 'metric' && r.key === 'overall')!;
		expect(overall.pairs).toBe(5);
		expect(overall.pairwiseAccuracy.value).toBe(1);
		const acc = results.find((r) => r.judge === 'metric' && r.key === 'ACC')!;
		expect(acc.answers).toBe(0);
	});
});

describe('judgePoints', () => {
	it('gives each answer the judge scored as (judge score, physician mean), as r is computed', () => {
		// J1 without e: the physicians' overall means (one sub-aspect: ACC) are a 4, b 2, c 3, d 2, f 4.
		const points = judgePoints(
			PHYSICIANS,
			J1.filter((r) => r.candidate !== 'e'),
			SHAPE
		);
		expect(points.map((p) => [p.candidate, p.judgeScore, p.physicianMean])).toEqual([
			['a', 5, 4],
			['b', 1, 2],
			['c', 1, 3],
			['d', 3, 2],
			['f', 2, 4]
		]);
		expect(points.every((p) => p.key === 'overall' && p.judge === 'J1' && p.model === 'm')).toBe(
			true
		);
		// The points are the judge's Pearson r: the same answers, paired the same way.
		const [overall] = judgeAgreement(PHYSICIANS, J1, SHAPE, boot).filter(
			(r) => r.key === 'overall'
		);
		const all = judgePoints(PHYSICIANS, J1, SHAPE);
		expect(overall.pearson).toEqual(
			pearson(
				all.map((p) => p.judgeScore),
				all.map((p) => p.physicianMean)
			)
		);
	});

	it('refuses a key the rubric does not have', () => {
		expect(() => judgePoints(PHYSICIANS, J1, SHAPE, 'NOPE')).toThrow(RangeError);
	});
});
