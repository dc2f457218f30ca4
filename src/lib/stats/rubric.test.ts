import { describe, expect, it } from 'vitest';
import { bootstrap, bootstrapRatio, seededRandom } from './bootstrap';
import { icc, krippendorffAlpha, weightedKappa } from './ratings';
import {
	modelMeans,
	planRatios,
	positionBias,
	ratioIntervals,
	ratioIntervalsOf,
	ratioShard,
	ratioShardOf,
	rubricAgreement,
	scoreDistributions,
	type RubricShape,
	type ScoreRow
} from './rubric';
import type { Rating } from './types';

const SHAPE: RubricShape = {
	aspects: [{ code: 'A', subAspects: ['ACC', 'CLR'] }],
	scale: { min: 0, max: 5 }
};
const boot = { resamples: 200, seed: 'rubric' };

/** Rows from [question, candidate, model, rater, subAspect, score, slot?]. */
const rows = (list: [string, string, string, string, string, number, number?][]): ScoreRow[] =>
	list.map(([question, candidate, model, rater, subAspect, score, slot]) => ({
		question,
		candidate,
		model,
		rater,
		subAspect,
		score,
		slot
	}));

// 2 questions × 2 answers × 2 raters; the raters differ between questions (ann, bob on q1; cat,
// dan on q2), as when each question draws its raters from a pool. ACC by slot (1st, 2nd):
//   q1/a 4,5   q1/b 2,2   q2/c 3,4   q2/d 1,1
const SMALL = rows([
	['q1', 'a', 'X', 'ann', 'ACC', 4, 1],
	['q1', 'a', 'X', 'bob', 'ACC', 5, 2],
	['q1', 'b', 'Y', 'ann', 'ACC', 2, 1],
	['q1', 'b', 'Y', 'bob', 'ACC', 2, 2],
	['q2', 'c', 'X', 'cat', 'ACC', 3, 1],
	['q2', 'c', 'X', 'dan', 'ACC', 4, 2],
	['q2', 'd', 'Y', 'cat', 'ACC', 1, 1],
	['q2', 'd', 'Y', 'dan', 'ACC', 1, 2],
	// CLR: ann's and bob's on q1/a; dan left q2/c's CLR unscored, so dan has no aspect score there.
	['q1', 'a', 'X', 'ann', 'CLR', 3, 1],
	['q1', 'a', 'X', 'bob', 'CLR', 5, 2],
	['q2', 'c', 'X', 'cat', 'CLR', 2, 1]
]);

const bySlot = (r: ScoreRow[], sub: string): Rating[] =>
	r
		.filter((x) => x.subAspect === sub)
		.map((x) => ({ unit: x.candidate, rater: `s${x.slot}`, value: x.score }));

/** A random study: each question's 2–3 raters drawn from a pool of 6, some scores missing. */
function study(questions: number, seed: string, raters = 3): ScoreRow[] {
	const random = seededRandom(seed);
	const out: ScoreRow[] = [];
	for (let q = 0; q < questions; q++) {
		const pool = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].sort(() => random() - 0.5).slice(0, raters);
		for (let c = 0; c < 3; c++) {
			const quality = random() * 5;
			for (const [slot, rater] of pool.entries())
				for (const sub of ['ACC', 'CLR']) {
					if (random() < 0.05) continue;
					const score = Math.max(0, Math.min(5, Math.round(quality + (random() - 0.5) * 2)));
					out.push({
						question: `q${q}`,
						candidate: `q${q}c${c}`,
						model: `m${c}`,
						rater,
						subAspect: sub,
						score,
						slot: slot + 1,
						side: c === 0 ? 'left' : c === 1 ? 'right' : null
					});
				}
		}
	}
	return out;
}

describe('rubricAgreement', () => {
	it('computes ICC and QWK on rater slots: 28/31, 56/59 and 0.875 by hand', () => {
		const acc = rubricAgreement(SMALL, SHAPE, boot).find((r) => r.key === 'ACC')!;
		// n = 4 answers, k = 2 slots, grand mean 22/8 = 2.75.
		// Row means 4.5, 2, 3.5, 1: SSR = 2·(1.75² + 0.75² + 0.75² + 1.75²) = 14.5, MSR = 14.5/3.
		// Slot means 2.5, 3: SSC = 4·(0.25² + 0.25²) = 0.5 = MSC. SST = 15.5, SSE = 0.5, MSE = 0.5/3.
		// ICC(2,1) = (14/3) / (29/6 + 1/6 + 2·(1/2 − 1/6)/4) = (14/3)/(31/6) = 28/31.
		// ICC(2,k) = (14/3) / (29/6 + (1/2 − 1/6)/4) = (14/3)/(59/12) = 56/59.
		expect(acc.icc2_1.stat.value).toBeCloseTo(28 / 31, 12);
		expect(acc.icc2_k.stat.value).toBeCloseTo(56 / 59, 12);
		// The same as ratings.ts' icc on the slot-labelled ratings.
		expect(acc.icc2_1.stat).toEqual(icc(bySlot(SMALL, 'ACC'), '2,1'));
		// QWK = 2·cov / (var₁ + var₂ + Δmean²): cov = 7/4, var₁ = 5/4, var₂ = 10/4, Δmean² = 1/4
		// → 3.5 / 4 = 0.875.
		expect(acc.qwk.stat.value).toBeCloseTo(0.875, 12);
		expect(acc.qwk.stat).toEqual(
			weightedKappa(bySlot(SMALL, 'ACC'), 'quadratic', [0, 1, 2, 3, 4, 5])
		);
		expect(acc).toMatchObject({ kind: 'sub_aspect', units: 4, raters: 4, slots: 2 });
		expect(acc.notes).toContain('rater slot');
	});

	it('computes alpha on the true rater ids, as krippendorffAlpha does', () => {
		const acc = rubricAgreement(SMALL, SHAPE, boot).find((r) => r.key === 'ACC')!;
		const byId = SMALL.filter((x) => x.subAspect === 'ACC').map((x) => ({
			unit: x.candidate,
			rater: x.rater,
			value: x.score
		}));
		// On the ids no answer is scored by all 4 raters, so the ICC could not be computed on them.
		expect(icc(byId, '2,1').value).toBeNull();
		expect(acc.alpha_interval.stat.value).toBeCloseTo(
			krippendorffAlpha(byId, 'interval').value!,
			12
		);
		expect(acc.alpha_ordinal.stat.value).toBeCloseTo(
			krippendorffAlpha(byId, 'ordinal', [0, 1, 2, 3, 4, 5]).value!,
			12
		);
		expect(acc.alpha_interval.stat.value).toBeGreaterThan(0.8);
	});

	it('scores an aspect by each rater’s mean over its sub-aspects, only when all are present', () => {
		const a = rubricAgreement(SMALL, SHAPE, boot).find((r) => r.key === 'A')!;
		// Aspect scores: ann (4+3)/2 = 3.5, bob (5+5)/2 = 5 on q1/a; cat (3+2)/2 = 2.5 on q2/c; dan
		// scored no CLR there; no CLR on b, d. So 2 answers, one with 2 scores: alpha over one
		// pairable unit with values 3.5, 5 — every pairable value differs, alpha = 1 − (n−1)·D_o/D_e
		// with n = 2: D_o = 2·1.5² = 4.5, D_e = 2·2·(0.75² + 0.75²) = 4.5 → 1 − 1·4.5/4.5 = 0.
		expect(a).toMatchObject({ kind: 'aspect', units: 2, raters: 3 });
		expect(a.alpha_interval.stat.value).toBeCloseTo(0, 12);
		// One answer scored in both slots: the ICC needs 2.
		expect(a.icc2_1.stat).toEqual({
			value: null,
			reason: 'needs at least 2 units rated by every rater; found 1'
		});
	});

	it('leaves QWK and the ICC undefined, saying why, with one rater per question', () => {
		const single = SMALL.filter((x) => x.slot === 1);
		const acc = rubricAgreement(single, SHAPE, boot).find((r) => r.key === 'ACC')!;
		expect(acc.qwk.stat).toEqual({
			value: null,
			reason: 'quadratic-weighted kappa needs exactly 2 rater slots; found 1'
		});
		expect(acc.qwk.interval.low).toBeNull();
		expect(acc.icc2_1.stat).toEqual({ value: null, reason: 'needs at least 2 raters; found 1' });
		expect(acc.alpha_interval.stat.value).toBeNull();
	});

	it('computes alpha on the ids when two raters were given one slot, and says why the ICC is not', () => {
		// bob's judgements of q1 are recorded as slot 1 too: slot 1 has two scores on q1/a and q1/b.
		const clash = SMALL.map((x) => (x.rater === 'bob' ? { ...x, slot: 1 } : x));
		const acc = rubricAgreement(clash, SHAPE, boot).find((r) => r.key === 'ACC')!;
		expect(acc.icc2_1.stat.reason).toMatch(/rated unit .* more than once/);
		const fine = rubricAgreement(SMALL, SHAPE, boot).find((r) => r.key === 'ACC')!;
		expect(acc.alpha_interval.stat.value).toBeCloseTo(fine.alpha_interval.stat.value!, 12);
	});

	it('ranks raters by id within a question when no slot is given', () => {
		const noSlots = SMALL.map((x) => ({ ...x, slot: undefined }));
		// ann < bob and cat < dan: the same slots as given, so the same ICC.
		const acc = rubricAgreement(noSlots, SHAPE, boot).find((r) => r.key === 'ACC')!;
		expect(acc.icc2_1.stat.value).toBeCloseTo(28 / 31, 12);
	});

	it('resamples questions: the ICC interval equals bootstrap() of icc over questions', () => {
		const data = study(12, 'clusters', 2);
		const acc = rubricAgreement(data, SHAPE, { resamples: 300, seed: 's' }).find(
			(r) => r.key === 'ACC'
		)!;
		const questions = [...new Set(data.map((x) => x.question))];
		const expected = bootstrap(
			questions,
			(sample) => {
				const r: Rating[] = [];
				sample.forEach((q, i) => {
					for (const x of data)
						if (x.question === q && x.subAspect === 'ACC')
							r.push({ unit: `${i}/${x.candidate}`, rater: `s${x.slot}`, value: x.score });
				});
				return icc(r, '2,1').value;
			},
			{ resamples: 300, seed: 's' }
		);
		expect(acc.icc2_1.interval.low).toBeCloseTo(expected.low!, 10);
		expect(acc.icc2_1.interval.high).toBeCloseTo(expected.high!, 10);
	});

	it('repeats with its seed, changes with another, and covers its estimates', () => {
		const data = study(40, 'seeded');
		const a = rubricAgreement(data, SHAPE, { resamples: 200, seed: 'x' });
		expect(rubricAgreement(data, SHAPE, { resamples: 200, seed: 'x' })).toEqual(a);
		const b = rubricAgreement(data, SHAPE, { resamples: 200, seed: 'y' });
		expect(b[0].icc2_1.interval).not.toEqual(a[0].icc2_1.interval);
		for (const r of a)
			for (const e of [r.icc2_1, r.icc2_k, r.alpha_ordinal, r.alpha_interval]) {
				expect(e.stat.value).not.toBeNull();
				expect(e.interval.low!).toBeLessThanOrEqual(e.stat.value!);
				expect(e.interval.high!).toBeGreaterThanOrEqual(e.stat.value!);
			}
	});

	it('refuses a score given twice', () => {
		expect(() => rubricAgreement([...SMALL, SMALL[0]], SHAPE, boot)).toThrow(/twice/);
	});
});

describe('modelMeans', () => {
	it('weighs each answer the same, however many physicians scored it', () => {
		const data = rows([
			// X: answer a scored 5, 5, 2 (mean 4), answer c scored 1 (mean 1) → (4 + 1)/2 = 2.5,
			// not the pooled (5 + 5 + 2 + 1)/4 = 3.25.
			['q1', 'a', 'X', 'ann', 'ACC', 5],
			['q1', 'a', 'X', 'bob', 'ACC', 5],
			['q1', 'a', 'X', 'eve', 'ACC', 2],
			['q2', 'c', 'X', 'cat', 'ACC', 1],
			// Y: b 3 (CLR 1, aspect (3 + 1)/2 = 2); d 0.
			['q1', 'b', 'Y', 'ann', 'ACC', 3],
			['q1', 'b', 'Y', 'ann', 'CLR', 1],
			['q2', 'd', 'Y', 'cat', 'ACC', 0]
		]);
		const m = modelMeans(data, SHAPE, boot);
		const get = (model: string, key: string) => m.find((x) => x.model === model && x.key === key)!;
		expect(get('X', 'ACC')).toMatchObject({ n: 2, kind: 'sub_aspect', mean: { value: 2.5 } });
		expect(get('Y', 'ACC')).toMatchObject({ n: 2, mean: { value: 1.5 } });
		expect(get('Y', 'A')).toMatchObject({ n: 1, kind: 'aspect', mean: { value: 2 } });
		expect(get('X', 'CLR')).toMatchObject({
			n: 0,
			mean: { value: null, reason: 'model X has no answer scored on CLR' }
		});
		// The interval resamples questions: q1 alone gives 4, q2 alone 1, both 2.5.
		const expected = bootstrap(
			[
				{ sum: 4, n: 1 },
				{ sum: 1, n: 1 }
			],
			(s) => s.reduce((a, b) => a + b.sum, 0) / s.reduce((a, b) => a + b.n, 0),
			boot
		);
		expect(get('X', 'ACC').interval).toEqual(expected);
	});
});

describe('scoreDistributions', () => {
	it('counts each level of the scale per sub-aspect, overall and per model', () => {
		const d = scoreDistributions(SMALL, SHAPE);
		// ACC scores 4, 5, 2, 2, 3, 4, 1, 1 on 0..5.
		expect(d.find((x) => x.key === 'ACC' && x.model === null)!.counts).toEqual([0, 2, 2, 1, 2, 1]);
		// X's ACC: 4, 5, 3, 4.
		expect(d.find((x) => x.key === 'ACC' && x.model === 'X')!.counts).toEqual([0, 0, 0, 1, 2, 1]);
		expect(d.find((x) => x.key === 'CLR' && x.model === 'Y')!.counts).toEqual([0, 0, 0, 0, 0, 0]);
		const off = scoreDistributions(rows([['q', 'a', 'X', 'r', 'ACC', 7]]), SHAPE);
		expect(off[0]).toMatchObject({ counts: [0, 0, 0, 0, 0, 0], offScale: 1 });
	});
});

describe('positionBias', () => {
	const sides = (list: [string, string, string, string, number, 'left' | 'right'][]): ScoreRow[] =>
		list.map(([question, candidate, rater, subAspect, score, side]) => ({
			question,
			candidate,
			model: 'm',
			rater,
			subAspect,
			score,
			side
		}));
	it('averages left − right over pairs: overall 1/3, ACC 1/2', () => {
		const data = sides([
			// q1, ann: ACC 4 left vs 2 right → +2; CLR 3 vs 3 → 0.
			['q1', 'a', 'ann', 'ACC', 4, 'left'],
			['q1', 'b', 'ann', 'ACC', 2, 'right'],
			['q1', 'a', 'ann', 'CLR', 3, 'left'],
			['q1', 'b', 'ann', 'CLR', 3, 'right'],
			// q2, cat: ACC 1 left vs 2 right → −1.
			['q2', 'c', 'cat', 'ACC', 1, 'left'],
			['q2', 'd', 'cat', 'ACC', 2, 'right']
		]);
		const [overall, acc, clr] = positionBias(data, boot);
		// Overall (2 + 0 − 1)/3 = 1/3; ACC (2 − 1)/2 = 1/2; CLR 0.
		expect(overall).toMatchObject({
			key: 'overall',
			pairs: 3,
			leftHigher: 1,
			rightHigher: 1,
			ties: 1
		});
		expect(overall.meanDifference.value).toBeCloseTo(1 / 3, 12);
		expect(acc).toMatchObject({ key: 'ACC', pairs: 2, meanDifference: { value: 0.5 } });
		expect(clr).toMatchObject({ key: 'CLR', pairs: 1, meanDifference: { value: 0 } });
		// Questions resampled: q1 contributes sum 2 over 2 pairs, q2 sum −1 over 1 pair.
		const expected = bootstrap(
			[
				{ sum: 2, n: 2 },
				{ sum: -1, n: 1 }
			],
			(s) => s.reduce((a, b) => a + b.sum, 0) / s.reduce((a, b) => a + b.n, 0),
			boot
		);
		expect(overall.interval).toEqual(expected);
	});

	it('is undefined, saying why, when no answers were shown side by side', () => {
		const [overall] = positionBias(SMALL, boot);
		expect(overall.pairs).toBe(0);
		expect(overall.meanDifference).toEqual({
			value: null,
			reason:
				'no rater scored a left and a right answer of the same question on the same sub-aspect'
		});
		expect(overall.interval.low).toBeNull();
	});
});

describe('ratioIntervals', () => {
	it('gives each series bootstrapRatio’s interval with the seed, whole or drawn in shards', () => {
		// Sizes on both sides of 2¹⁶ units, series with zero denominators and a constant one.
		for (const n of [7, 5_000, 70_001]) {
			const random = seededRandom(`ratio ${n}`);
			const series = Array.from({ length: 4 }, (_, k) => ({
				numerators: Float64Array.from({ length: n }, () => (k === 3 ? 1 : random() * 10)),
				denominators: Float64Array.from({ length: n }, () => (random() < 0.2 * k ? 0 : 1))
			}));
			const opts = { resamples: n > 10_000 ? 12 : 60, seed: `r${n}`, level: 0.9 };
			const whole = ratioIntervals(series, opts);
			series.forEach(({ numerators, denominators }, k) =>
				expect(whole[k]).toEqual(bootstrapRatio(numerators, denominators, opts))
			);
			const plan = planRatios(series, opts)!;
			const cuts = [0, 1, Math.floor(opts.resamples / 2), opts.resamples];
			const shards = cuts.slice(1).map((to, i) => ratioShard(ratioShardOf(plan, cuts[i], to)));
			expect(ratioIntervalsOf(plan, shards)).toEqual(whole);
		}
	});
});
