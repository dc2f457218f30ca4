import { describe, expect, it } from 'vitest';
import { percentileInterval, seededRandom } from './bootstrap';
import {
	bradleyTerry,
	btLeaderboard,
	btLeaderboardSteps,
	type Battle,
	type BattleWinner
} from './bradley-terry';

/** `n` battles of a against b with the given winner, each its own question. */
const battles = (a: string, b: string, winner: BattleWinner, n: number, tag = ''): Battle[] =>
	Array.from({ length: n }, (_, i) => ({
		question: `${a}-${b}-${winner}-${i}${tag}`,
		modelA: a,
		modelB: b,
		winner
	}));
const value = (s: { value: number | null }) => s.value!;

describe('bradleyTerry (FastChat: base 10, scale 400, ties half a win, mean 1000)', () => {
	it('two models: 3 wins to 1 give ratings 1000 ± 200·log10(3)', () => {
		// P(A beats B) = 3/4 = 1/(1 + 10^(−d/400)) ⇒ d = 400·log10(3) = 190.848…, centred on 1000.
		const r = bradleyTerry([
			...battles('A', 'B', 'model_a', 3),
			...battles('A', 'B', 'model_b', 1)
		]);
		expect(value(r.ratings.A)).toBeCloseTo(1000 + 200 * Math.log10(3), 9);
		expect(value(r.ratings.B)).toBeCloseTo(1000 - 200 * Math.log10(3), 9);
	});

	it('a tie is half a win for each side, of either tie kind', () => {
		// A: 1 win + ½ + ½ (its halves of the two ties) = 2; B: ½ + ½ = 1: the same as 2 wins to 1.
		const mixed = bradleyTerry([
			...battles('A', 'B', 'model_a', 1),
			...battles('A', 'B', 'tie', 1),
			...battles('B', 'A', 'tie (bothbad)', 1)
		]);
		const plain = bradleyTerry([
			...battles('A', 'B', 'model_a', 2),
			...battles('A', 'B', 'model_b', 1)
		]);
		expect(value(mixed.ratings.A)).toBeCloseTo(value(plain.ratings.A), 9);
		expect(value(mixed.ratings.A) - value(mixed.ratings.B)).toBeCloseTo(400 * Math.log10(2), 9);
	});

	it('three models in a chain, worked by hand', () => {
		// A–B 3:1 and B–C 3:1, no A–C battle: each link's difference is its own 400·log10(3); centred,
		// A = 1000 + 400·log10 3, B = 1000, C = 1000 − 400·log10 3.
		const r = bradleyTerry([
			...battles('A', 'B', 'model_a', 3),
			...battles('A', 'B', 'model_b', 1),
			...battles('B', 'C', 'model_a', 3),
			...battles('C', 'B', 'model_a', 1)
		]);
		expect(value(r.ratings.A)).toBeCloseTo(1000 + 400 * Math.log10(3), 9);
		expect(value(r.ratings.B)).toBeCloseTo(1000, 9);
		expect(value(r.ratings.C)).toBeCloseTo(1000 - 400 * Math.log10(3), 9);
	});

	it('a balanced cycle rates every model 1000', () => {
		const r = bradleyTerry([
			...battles('A', 'B', 'model_a', 2),
			...battles('A', 'B', 'model_b', 1),
			...battles('B', 'C', 'model_a', 2),
			...battles('B', 'C', 'model_b', 1),
			...battles('C', 'A', 'model_a', 2),
			...battles('C', 'A', 'model_b', 1)
		]);
		for (const m of ['A', 'B', 'C']) expect(value(r.ratings[m])).toBeCloseTo(1000, 9);
	});

	it('agrees with an independent solver (Hunter’s MM algorithm) on random battles', () => {
		const random = seededRandom('bt-random');
		const models = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'];
		const strength = [0, 0.3, 0.5, 0.9, 1.2, 1.6];
		const data: Battle[] = [];
		for (let q = 0; q < 400; q++) {
			const a = Math.floor(random() * 6);
			const b = (a + 1 + Math.floor(random() * 5)) % 6;
			const p = 1 / (1 + 10 ** (strength[b] - strength[a]));
			const u = random();
			const winner: BattleWinner = u < 0.1 ? 'tie' : u < 0.1 + 0.9 * p ? 'model_a' : 'model_b';
			data.push({ question: `q${q}`, modelA: models[a], modelB: models[b], winner });
		}
		// MM (Hunter 2004): γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j), W_i = wins + ½ ties, n_ij = games.
		const k = models.length;
		const wins = new Float64Array(k);
		const games = new Float64Array(k * k);
		for (const d of data) {
			const a = models.indexOf(d.modelA);
			const b = models.indexOf(d.modelB);
			games[a * k + b] += 1;
			games[b * k + a] += 1;
			if (d.winner === 'model_a') wins[a] += 1;
			else if (d.winner === 'model_b') wins[b] += 1;
			else {
				wins[a] += 0.5;
				wins[b] += 0.5;
			}
		}
		let gamma = new Float64Array(k).fill(1);
		for (let it = 0; it < 100_000; it++) {
			const next = new Float64Array(k);
			for (let i = 0; i < k; i++) {
				let d = 0;
				for (let j = 0; j < k; j++) if (j !== i) d += games[i * k + j] / (gamma[i] + gamma[j]);
				next[i] = wins[i] / d;
			}
			const g = Math.exp(next.reduce((t, x) => t + Math.log(x), 0) / k);
			const change = Math.max(
				...next.map((x, i) => Math.abs(Math.log(x / g) - Math.log(gamma[i])))
			);
			gamma = next.map((x) => x / g);
			if (change < 1e-14) break;
		}
		const r = bradleyTerry(data);
		models.forEach((m, i) =>
			expect(value(r.ratings[m])).toBeCloseTo(1000 + 400 * Math.log10(gamma[i]), 6)
		);
		const ratings = models.map((m) => value(r.ratings[m]));
		expect(ratings.reduce((t, x) => t + x, 0) / k).toBeCloseTo(1000, 9);
	});

	it('says a model that won every comparison has no finite rating, and fits the others without it', () => {
		const r = bradleyTerry([
			...battles('Top', 'A', 'model_a', 2),
			...battles('Top', 'B', 'model_a', 1),
			...battles('A', 'B', 'model_a', 3),
			...battles('A', 'B', 'model_b', 1)
		]);
		expect(r.ratings.Top).toEqual({
			value: null,
			reason:
				'Top won every comparison it took part in: its rating has no finite maximum-likelihood value'
		});
		expect(value(r.ratings.A)).toBeCloseTo(1000 + 200 * Math.log10(3), 9);
		expect(value(r.ratings.B)).toBeCloseTo(1000 - 200 * Math.log10(3), 9);
	});

	it('refuses a battle of a model against itself and an unknown winner label', () => {
		expect(() => bradleyTerry(battles('A', 'A', 'model_a', 1))).toThrow(/against itself/);
		expect(() =>
			bradleyTerry([{ question: 'q', modelA: 'A', modelB: 'B', winner: 'draw' as BattleWinner }])
		).toThrow(/unknown winner label "draw"/);
	});
});

describe('btLeaderboard', () => {
	const random = seededRandom('leaderboard');
	const data: Battle[] = [];
	// 60 questions, each with battles among three models (A strongest).
	for (let q = 0; q < 60; q++)
		for (const [a, b, pa] of [
			['A', 'B', 0.7],
			['B', 'C', 0.65],
			['A', 'C', 0.8]
		] as const)
			data.push({
				question: `q${q}`,
				modelA: a,
				modelB: b,
				winner: random() < pa ? 'model_a' : 'model_b'
			});

	it('orders models best first with intervals that cover their ratings, the same for the same seed', () => {
		const one = btLeaderboard(data, { resamples: 200, seed: 's1' });
		expect(one.rows.map((r) => r.model)).toEqual(['A', 'B', 'C']);
		expect(one.questions).toBe(60);
		for (const r of one.rows) {
			expect(r.interval.low).not.toBeNull();
			expect(r.interval.low!).toBeLessThanOrEqual(r.rating.value!);
			expect(r.interval.high!).toBeGreaterThanOrEqual(r.rating.value!);
		}
		expect(btLeaderboard(data, { resamples: 200, seed: 's1' })).toEqual(one);
		expect(btLeaderboard(data, { resamples: 200, seed: 's2' }).rows[0].interval).not.toEqual(
			one.rows[0].interval
		);
	});

	it('step by step, counts every resample and ends on the same leaderboard', () => {
		const steps = btLeaderboardSteps(data, { resamples: 40, seed: 's1' });
		const counted: number[] = [];
		let step = steps.next();
		while (!step.done) {
			counted.push(step.value);
			step = steps.next();
		}
		expect(counted).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
		expect(step.value).toEqual(btLeaderboard(data, { resamples: 40, seed: 's1' }));
	});

	it('gives each model the range of ranks its interval allows', () => {
		const { rows } = btLeaderboard(data, { resamples: 200, seed: 's1' });
		for (const r of rows) {
			const others = rows.filter((o) => o.model !== r.model);
			expect(r.rankBest).toBe(1 + others.filter((o) => o.interval.low! > r.interval.high!).length);
			expect(r.rankWorst).toBe(
				1 + others.filter((o) => o.interval.high! >= r.interval.low!).length
			);
			expect(r.rankBest!).toBeLessThanOrEqual(r.rankWorst!);
		}
	});
});

describe('btLeaderboard’s compiled resampling', () => {
	/** The bootstrap as first written: the drawn questions' battles refitted with `bradleyTerry`. */
	function slowIntervals(data: Battle[], resamples: number, seed: string) {
		const byQuestion = new Map<string, Battle[]>();
		for (const b of data) byQuestion.set(b.question, [...(byQuestion.get(b.question) ?? []), b]);
		const questions = [...byQuestion.values()];
		const models = bradleyTerry(data).models;
		const values = new Map<string, number[]>(models.map((m) => [m, []]));
		const random = seededRandom(seed);
		for (let r = 0; r < resamples; r++) {
			const drawn: Battle[] = [];
			for (let i = 0; i < questions.length; i++)
				drawn.push(...questions[Math.floor(random() * questions.length)]);
			const ratings = bradleyTerry(drawn).ratings;
			for (const m of models) if (ratings[m]?.value != null) values.get(m)!.push(ratings[m].value!);
		}
		return values;
	}

	it('gives exactly the intervals of refitting each resample’s battles', () => {
		// Few questions and a weak model, so some resamples leave a model unbeaten or absent.
		const random = seededRandom('compiled');
		const models = ['a', 'b', 'c', 'd', 'e'];
		const data: Battle[] = [];
		for (let q = 0; q < 25; q++)
			for (let x = 0; x < 5; x++)
				for (let y = x + 1; y < 5; y++) {
					if (random() < 0.5) continue;
					const u = random();
					const p = 1 / (1 + 10 ** ((x - y) * 0.3));
					const winner: BattleWinner =
						u < 0.1
							? 'tie'
							: u < 0.15
								? 'tie (bothbad)'
								: u < 0.15 + 0.85 * p
									? 'model_b'
									: 'model_a';
					data.push({ question: `q${q}`, modelA: models[x], modelB: models[y], winner });
				}
		// z took part in three questions and won once: many resamples leave it without a win or absent.
		data.push(
			{ question: 'q1', modelA: 'z', modelB: 'a', winner: 'model_a' },
			{ question: 'q2', modelA: 'z', modelB: 'b', winner: 'model_b' },
			{ question: 'q3', modelA: 'c', modelB: 'z', winner: 'model_a' }
		);
		const fast = btLeaderboard(data, { resamples: 300, seed: 'same' });
		const slow = slowIntervals(data, 300, 'same');
		let skipped = 0;
		for (const row of fast.rows) {
			const values = Float64Array.from(slow.get(row.model)!);
			skipped += 300 - values.length;
			expect(row.interval).toEqual(percentileInterval(values, 0.95, 300));
		}
		expect(skipped).toBeGreaterThan(0);
	});
});
