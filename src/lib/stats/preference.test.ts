import { describe, expect, it } from 'vitest';
import { seededRandom } from './bootstrap';
import { bradleyTerry } from './bradley-terry';
import {
	PREFERENCE_OUTCOMES,
	canonicalOutcome,
	normalQuantile,
	positionBias,
	preferenceAgreement,
	preferenceBattles,
	rankingBattles,
	rubricBattles,
	verbosityBias,
	winMatrix,
	type PreferenceOutcome,
	type PreferenceRow
} from './preference';

/** `n` judgements of one rater, each its own question. */
const rows = (
	rater: string,
	left: string,
	right: string,
	outcome: PreferenceOutcome,
	n: number,
	lengths: [number, number] | [] = []
): PreferenceRow[] =>
	Array.from({ length: n }, (_, i) => ({
		question: `${rater}-${left}-${right}-${outcome}-${i}`,
		rater,
		left,
		right,
		outcome,
		...(lengths.length ? { leftLength: lengths[0], rightLength: lengths[1] } : {})
	}));

/** Wilson's interval written out from its textbook form (Wilson 1927; Newcombe 1998, method 3). */
function wilsonByHand(x: number, n: number, z: number) {
	const p = x / n;
	const a = 2 * n * p + z * z;
	const b = z * Math.sqrt(z * z + 4 * n * p * (1 - p));
	const d = 2 * (n + z * z);
	return { low: (a - b) / d, high: (a + b) / d };
}

describe('preferenceBattles', () => {
	it('turns left/right/both-good/both-bad into model_a/model_b/tie/tie (bothbad)', () => {
		const battles = preferenceBattles(
			PREFERENCE_OUTCOMES.map((outcome, i) => ({
				question: `q${i}`,
				rater: 'r',
				left: 'L',
				right: 'R',
				outcome
			}))
		);
		expect(battles.map((b) => [b.modelA, b.modelB, b.winner])).toEqual([
			['L', 'R', 'model_a'],
			['L', 'R', 'model_b'],
			['L', 'R', 'tie'],
			['L', 'R', 'tie (bothbad)']
		]);
		expect(() => preferenceBattles(rows('r', 'A', 'A', 'left', 1))).toThrow(/against itself/);
		expect(() =>
			preferenceBattles([
				{ question: 'q', rater: 'r', left: 'A', right: 'B', outcome: 'draw' as PreferenceOutcome }
			])
		).toThrow(/unknown preference outcome "draw"/);
	});
});

describe('winMatrix', () => {
	it('counts wins, ties and losses per ordered pair, ties as half', () => {
		// A–B: A wins 2 (once on each side), B wins 1, one tie of each kind; A–C: C wins 1; B–C never.
		const { models, cells } = winMatrix(
			preferenceBattles([
				...rows('r', 'A', 'B', 'left', 1),
				...rows('r', 'B', 'A', 'right', 1),
				...rows('r', 'A', 'B', 'right', 1),
				...rows('r', 'A', 'B', 'tie_good', 1),
				...rows('r', 'B', 'A', 'tie_bad', 1),
				...rows('r', 'A', 'C', 'right', 1)
			])
		);
		expect(models).toEqual(['A', 'B', 'C']);
		const cell = (a: string, b: string) => cells.find((c) => c.a === a && c.b === b)!;
		expect(cell('A', 'B')).toEqual({
			a: 'A',
			b: 'B',
			wins: 2,
			ties: 2,
			losses: 1,
			n: 5,
			share: { value: 3 / 5 }
		});
		expect(cell('B', 'A')).toMatchObject({
			wins: 1,
			ties: 2,
			losses: 2,
			n: 5,
			share: { value: 2 / 5 }
		});
		expect(cell('A', 'C').share).toEqual({ value: 0 });
		expect(cell('B', 'C')).toMatchObject({
			n: 0,
			share: { value: null, reason: 'B and C never met' }
		});
		expect(cells).toHaveLength(6);
	});

	it('is consistent both ways on random battles: (a, b) mirrors (b, a)', () => {
		const random = seededRandom('matrix');
		const models = ['a', 'b', 'c', 'd'];
		const data: PreferenceRow[] = [];
		for (let q = 0; q < 300; q++) {
			const x = Math.floor(random() * 4);
			const y = (x + 1 + Math.floor(random() * 3)) % 4;
			const outcome = PREFERENCE_OUTCOMES[Math.floor(random() * 4)];
			data.push({ question: `q${q}`, rater: 'r', left: models[x], right: models[y], outcome });
		}
		const { cells } = winMatrix(preferenceBattles(data));
		let total = 0;
		for (const c of cells) {
			const m = cells.find((o) => o.a === c.b && o.b === c.a)!;
			expect([m.wins, m.ties, m.losses, m.n]).toEqual([c.losses, c.ties, c.wins, c.n]);
			expect(c.share.value! + m.share.value!).toBeCloseTo(1, 12);
			total += c.n;
		}
		expect(total).toBe(2 * data.length);
	});
});

describe('positionBias', () => {
	it('gives the left share among non-tied judgements with its Wilson interval, per rater', () => {
		const data = [
			// ann: 7 left, 3 right, 2 ties; bob: 45 left, 5 right.
			...rows('ann', 'A', 'B', 'left', 4),
			...rows('ann', 'B', 'A', 'left', 3),
			...rows('ann', 'A', 'B', 'right', 3),
			...rows('ann', 'A', 'B', 'tie_good', 1),
			...rows('ann', 'A', 'B', 'tie_bad', 1),
			...rows('bob', 'A', 'B', 'left', 45),
			...rows('bob', 'A', 'B', 'right', 5),
			...rows('cy', 'A', 'B', 'tie_good', 2)
		];
		const { overall, raters } = positionBias(data);
		const z = 1.959963984540054;
		expect(overall).toMatchObject({ rater: null, hits: 52, n: 60, ties: 4, flagged: true });
		expect(overall.share.value).toBeCloseTo(52 / 60, 12);
		const [ann, bob, cy] = raters;
		expect(ann).toMatchObject({ rater: 'ann', hits: 7, n: 10, ties: 2, flagged: false });
		// 7 of 10: Wilson 95 % interval [0.3968, 0.8922] (Newcombe 1998 style hand figures).
		expect(ann.interval!.low).toBeCloseTo(wilsonByHand(7, 10, z).low, 9);
		expect(ann.interval!.high).toBeCloseTo(wilsonByHand(7, 10, z).high, 9);
		expect(ann.interval!.low).toBeCloseTo(0.3968, 4);
		expect(ann.interval!.high).toBeCloseTo(0.8922, 4);
		expect(bob).toMatchObject({ rater: 'bob', hits: 45, n: 50, flagged: true });
		expect(cy).toEqual({
			rater: 'cy',
			hits: 0,
			n: 0,
			ties: 2,
			share: { value: null, reason: 'no judgement chose a side (all were ties)' },
			interval: null,
			flagged: false
		});
		// At 90 % the interval narrows (z = 1.6449): ann's lower bound rises.
		const at90 = positionBias(data, 0.9).raters[0].interval!;
		expect(at90.low).toBeCloseTo(wilsonByHand(7, 10, 1.6448536269514722).low, 8);
	});

	it('uses the normal quantile of the level', () => {
		expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
		expect(normalQuantile(0.95)).toBeCloseTo(1.6448536269514722, 8);
		expect(normalQuantile(0.005)).toBeCloseTo(-2.5758293035489, 8);
	});
});

describe('verbosityBias', () => {
	it('counts how often the longer answer wins, by length-ratio band', () => {
		const data = [
			// ratio 1.1 (band 1): longer (left) wins 2, loses 1.
			...rows('r', 'A', 'B', 'left', 2, [110, 100]),
			...rows('r', 'A', 'B', 'right', 1, [110, 100]),
			// ratio 1.25 exactly → band 2: the longer is right and wins 1.
			...rows('r', 'A', 'B', 'right', 1, [100, 125]),
			// ratio 1.5 exactly → band 3: longer left loses 2.
			...rows('r', 'A', 'B', 'right', 2, [150, 100]),
			// ratio 4 and ∞ (an empty answer) → band 4: the longer wins both.
			...rows('r', 'A', 'B', 'left', 1, [400, 100]),
			...rows('r', 'A', 'B', 'right', 1, [0, 10]),
			// equal lengths, a tie and a judgement without lengths are counted apart.
			...rows('r', 'A', 'B', 'left', 3, [100, 100]),
			...rows('r', 'A', 'B', 'tie_good', 1, [300, 100]),
			...rows('r', 'A', 'B', 'left', 2)
		];
		const v = verbosityBias(data);
		expect(v).toMatchObject({ ties: 1, withoutLengths: 2, equalLength: 3 });
		expect(v.overall).toMatchObject({ hits: 5, n: 8, share: { value: 5 / 8 } });
		expect(v.bands.map((b) => [b.low, b.high, b.hits, b.n])).toEqual([
			[1, 1.25, 2, 3],
			[1.25, 1.5, 1, 1],
			[1.5, 2, 0, 2],
			[2, null, 2, 2]
		]);
		const z = 1.959963984540054;
		expect(v.bands[0].interval!.low).toBeCloseTo(wilsonByHand(2, 3, z).low, 9);
		expect(v.bands[2].interval!.low).toBe(0);
		expect(verbosityBias(rows('r', 'A', 'B', 'left', 2)).overall.share.value).toBeNull();
	});
});

describe('preferenceAgreement', () => {
	it('compares outcomes by model, not side: opposite sides, same model preferred, agree 100 %', () => {
		// ann saw A on the left, bob on the right; both preferred A (and B in q3, and a tie in q4).
		const data: PreferenceRow[] = [
			{ question: 'q1', rater: 'ann', left: 'A', right: 'B', outcome: 'left' },
			{ question: 'q1', rater: 'bob', left: 'B', right: 'A', outcome: 'right' },
			{ question: 'q2', rater: 'ann', left: 'A', right: 'B', outcome: 'left' },
			{ question: 'q2', rater: 'bob', left: 'B', right: 'A', outcome: 'right' },
			{ question: 'q3', rater: 'ann', left: 'B', right: 'A', outcome: 'left' },
			{ question: 'q3', rater: 'bob', left: 'A', right: 'B', outcome: 'right' },
			{ question: 'q4', rater: 'ann', left: 'A', right: 'B', outcome: 'tie_good' },
			{ question: 'q4', rater: 'bob', left: 'B', right: 'A', outcome: 'tie_good' }
		];
		const a = preferenceAgreement(data);
		expect(a).toMatchObject({ units: 4, pairableUnits: 4, raters: 2 });
		expect(a.threeWay.percentAgreement).toEqual({ value: 1 });
		expect(a.threeWay.cohenKappa).toEqual({ value: 1 });
		expect(a.threeWay.fleissKappa).toEqual({ value: 1 });
		expect(a.threeWay.alphaNominal.value).toBeCloseTo(1, 12);
		// Coded as sides (the classic mistake) they would never agree on q1–q3.
		expect(data.filter((r, i) => i % 2 === 0 && r.outcome === data[i + 1].outcome)).toHaveLength(1);
		expect(canonicalOutcome(data[0])).toBe('first');
		expect(canonicalOutcome(data[4])).toBe('second');
	});

	it('gives Cohen’s kappa computed by hand on the three-way outcome, and the four-way variant', () => {
		// Canonical outcomes (A first): ann first, first, second, tie(good); bob first, second,
		// second, tie(bad). pₒ = 3/4; ann's shares ½, ¼, ¼, bob's ¼, ½, ¼ → pₑ = 1/8 + 1/8 + 1/16 =
		// 5/16; κ = (3/4 − 5/16)/(11/16) = 7/11. Four-way: the ties differ → pₒ = 1/2, pₑ = 1/8 + 1/8
		// = 1/4 → κ = (1/2 − 1/4)/(3/4) = 1/3.
		const data: PreferenceRow[] = [
			{ question: 'q1', rater: 'ann', left: 'A', right: 'B', outcome: 'left' },
			{ question: 'q1', rater: 'bob', left: 'B', right: 'A', outcome: 'right' },
			{ question: 'q2', rater: 'ann', left: 'B', right: 'A', outcome: 'right' },
			{ question: 'q2', rater: 'bob', left: 'A', right: 'B', outcome: 'right' },
			{ question: 'q3', rater: 'ann', left: 'A', right: 'B', outcome: 'right' },
			{ question: 'q3', rater: 'bob', left: 'B', right: 'A', outcome: 'left' },
			{ question: 'q4', rater: 'ann', left: 'A', right: 'B', outcome: 'tie_good' },
			{ question: 'q4', rater: 'bob', left: 'B', right: 'A', outcome: 'tie_bad' },
			// A unit only ann judged: not pairable.
			{ question: 'q5', rater: 'ann', left: 'A', right: 'C', outcome: 'left' }
		];
		const a = preferenceAgreement(data);
		expect(a).toMatchObject({ units: 5, pairableUnits: 4, raters: 2 });
		expect(a.threeWay.percentAgreement.value).toBeCloseTo(3 / 4, 12);
		expect(a.threeWay.cohenKappa.value).toBeCloseTo(7 / 11, 12);
		expect(a.fourWay.percentAgreement.value).toBeCloseTo(1 / 2, 12);
		expect(a.fourWay.cohenKappa.value).toBeCloseTo(1 / 3, 12);
		// A third rater makes Cohen's kappa undefined, saying why.
		const three = preferenceAgreement([
			...data,
			{ question: 'q1', rater: 'cy', left: 'A', right: 'B', outcome: 'left' }
		]);
		expect(three.threeWay.cohenKappa).toEqual({
			value: null,
			reason: 'needs exactly 2 raters; found 3'
		});
	});
});

describe('rankingBattles and rubricBattles', () => {
	it('turns each rater’s ranking into its k(k−1)/2 battles, equal ranks tying', () => {
		const battles = rankingBattles([
			{ question: 'q1', rater: 'ann', model: 'C', rank: 1 },
			{ question: 'q1', rater: 'ann', model: 'A', rank: 2 },
			{ question: 'q1', rater: 'ann', model: 'B', rank: 2 },
			{ question: 'q1', rater: 'bob', model: 'A', rank: 1 },
			{ question: 'q1', rater: 'bob', model: 'B', rank: 2 }
		]);
		expect(battles).toEqual([
			{ question: 'q1', modelA: 'A', modelB: 'B', winner: 'tie' },
			{ question: 'q1', modelA: 'A', modelB: 'C', winner: 'model_b' },
			{ question: 'q1', modelA: 'B', modelB: 'C', winner: 'model_b' },
			{ question: 'q1', modelA: 'A', modelB: 'B', winner: 'model_a' }
		]);
		expect(() =>
			rankingBattles([
				{ question: 'q', rater: 'r', model: 'A', rank: 1 },
				{ question: 'q', rater: 'r', model: 'A', rank: 2 }
			])
		).toThrow(/ranked A twice/);
	});

	it('compares models by their mean score on one aspect per question', () => {
		// q1 ACC: A (4 + 5 + 3)/3 = 4, B (4 + 4)/2 = 4 → tie; C 2 → loses to both. SAF is ignored.
		const battles = rubricBattles(
			[
				{ question: 'q1', rater: 'ann', model: 'A', aspect: 'ACC', score: 4 },
				{ question: 'q1', rater: 'bob', model: 'A', aspect: 'ACC', score: 5 },
				{ question: 'q1', rater: 'bob', model: 'A', aspect: 'ACC', score: 3 },
				{ question: 'q1', rater: 'ann', model: 'B', aspect: 'ACC', score: 4 },
				{ question: 'q1', rater: 'bob', model: 'B', aspect: 'ACC', score: 4 },
				{ question: 'q1', rater: 'ann', model: 'C', aspect: 'ACC', score: 2 },
				{ question: 'q1', rater: 'ann', model: 'C', aspect: 'SAF', score: 5 }
			],
			'ACC'
		);
		expect(battles).toEqual([
			{ question: 'q1', modelA: 'A', modelB: 'B', winner: 'tie' },
			{ question: 'q1', modelA: 'A', modelB: 'C', winner: 'model_a' },
			{ question: 'q1', modelA: 'B', modelB: 'C', winner: 'model_a' }
		]);
	});

	it('feeds rankings into Bradley–Terry: A over B 3 : 1 gives 1000 ± 200·log10 3', () => {
		const ranks = [1, 1, 1, 2].flatMap((a, q) => [
			{ question: `q${q}`, rater: 'r', model: 'A', rank: a },
			{ question: `q${q}`, rater: 'r', model: 'B', rank: 3 - a }
		]);
		const r = bradleyTerry(rankingBattles(ranks));
		expect(r.ratings.A.value!).toBeCloseTo(1000 + 200 * Math.log10(3), 9);
	});
});
