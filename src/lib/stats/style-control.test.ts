import { describe, expect, it } from 'vitest';
import { seededRandom } from './bootstrap';
import { bradleyTerry, btLeaderboard, type BattleWinner } from './bradley-terry';
import { styleControlledBt, type LengthBattle } from './style-control';

const sigma = (z: number) => 1 / (1 + Math.exp(-z));

/** Normalised length differences standardised as FastChat does (numpy's population std). */
function standardised(battles: LengthBattle[]): number[] {
	const raw = battles.map((b) => (b.lengthA - b.lengthB) / (b.lengthA + b.lengthB));
	const mean = raw.reduce((t, x) => t + x, 0) / raw.length;
	const sd = Math.sqrt(raw.reduce((t, x) => t + (x - mean) ** 2, 0) / raw.length);
	return raw.map((x) => (x - mean) / sd);
}

/**
 * Battles of every pair of `models` in each of `questions` questions, drawn from the model:
 * true ratings `rating`, answer lengths around `length` (log-normal spread), length effect `gamma`
 * on the standardised feature; a share `ties` of ties (which pull ratings together, so a test of
 * recovery draws none).
 */
function simulate(
	seed: string,
	models: string[],
	rating: number[],
	length: number[],
	gamma: number,
	questions: number,
	ties = 0.1
): LengthBattle[] {
	const random = seededRandom(seed);
	const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
	const out: LengthBattle[] = [];
	const pairs: [number, number][] = [];
	for (let q = 0; q < questions; q++)
		for (let a = 0; a < models.length; a++)
			for (let b = a + 1; b < models.length; b++) {
				const [x, y] = random() < 0.5 ? [a, b] : [b, a];
				pairs.push([x, y]);
				out.push({
					question: `q${q}`,
					modelA: models[x],
					modelB: models[y],
					winner: 'tie',
					lengthA: Math.round(length[x] * Math.exp(0.4 * normal())),
					lengthB: Math.round(length[y] * Math.exp(0.4 * normal()))
				});
			}
	const x = standardised(out);
	out.forEach((b, i) => {
		const [a, c] = pairs[i];
		const p = sigma((Math.LN10 * (rating[a] - rating[c])) / 400 + gamma * x[i]);
		const u = random();
		b.winner = u < ties ? 'tie' : u < ties + (1 - ties) * p ? 'model_a' : 'model_b';
	});
	return out;
}

describe('styleControlledBt', () => {
	it('equals bradleyTerry when every battle has the same length difference (x ≡ 0)', () => {
		const random = seededRandom('flat');
		const models = ['a', 'b', 'c', 'd'];
		const battles: LengthBattle[] = [];
		for (let q = 0; q < 200; q++) {
			const x = Math.floor(random() * 4);
			const y = (x + 1 + Math.floor(random() * 3)) % 4;
			const u = random();
			const winner: BattleWinner =
				u < 0.15 ? 'tie' : u < 0.6 - 0.1 * x + 0.1 * y ? 'model_a' : 'model_b';
			battles.push({
				question: `q${q}`,
				modelA: models[x],
				modelB: models[y],
				winner,
				lengthA: 300,
				lengthB: 100
			});
		}
		const sc = styleControlledBt(battles);
		const bt = bradleyTerry(battles);
		for (const m of models) expect(sc.ratings[m].value!).toBeCloseTo(bt.ratings[m].value!, 9);
		expect(sc.lengthCoefficient.value).toBeNull();
		expect(sc.lengthCoefficient.reason).toMatch(/same in every battle/);
		// The bootstrap draws questions as btLeaderboard does: the same seed, the same intervals.
		const boot = styleControlledBt(battles, { resamples: 200, seed: 'b' });
		const board = btLeaderboard(battles, { resamples: 200, seed: 'b' });
		for (const row of board.rows) {
			const i = boot.intervals!.ratings[row.model];
			expect(i.low!).toBeCloseTo(row.interval.low!, 8);
			expect(i.high!).toBeCloseTo(row.interval.high!, 8);
		}
	});

	it('recovers known ratings and length effect, where plain Bradley–Terry is fooled by length', () => {
		// "verbose" is as good as "terse" but writes three times as much; longer answers win more.
		const models = ['strong', 'terse', 'verbose', 'weak'];
		const truth = [1150, 1000, 1000, 850];
		const battles = simulate('length', models, truth, [400, 150, 450, 300], 0.8, 1500, 0);
		const sc = styleControlledBt(battles);
		const plain = bradleyTerry(battles);
		models.forEach((m, i) => expect(Math.abs(sc.ratings[m].value! - truth[i])).toBeLessThan(15));
		expect(Math.abs(sc.lengthCoefficient.value! - 0.8)).toBeLessThan(0.06);
		const gap = (r: typeof sc.ratings) => r.verbose.value! - r.terse.value!;
		expect(gap(plain.ratings)).toBeGreaterThan(80);
		expect(Math.abs(gap(sc.ratings))).toBeLessThan(Math.abs(gap(plain.ratings)) / 4);
		const mean = models.reduce((t, m) => t + sc.ratings[m].value!, 0) / 4;
		expect(mean).toBeCloseTo(1000, 9);
	});

	it('agrees with plain gradient ascent on the log-likelihood', () => {
		const models = ['m1', 'm2', 'm3'];
		const battles = simulate('ascent', models, [1080, 1000, 940], [200, 300, 250], 0.5, 80);
		const x = standardised(battles);
		const idx = (m: string) => models.indexOf(m);
		// Gradient ascent on Σ (2·[a won] + [tie]) log σ(z) + (2·[b won] + [tie]) log σ(−z),
		// z = ln 10 (β_a − β_b) + γ x, β in log10 units; a fixed small step until the gradient vanishes.
		const beta = [0, 0, 0];
		let gamma = 0;
		let converged = false;
		for (let it = 0; it < 200_000; it++) {
			const gb = [0, 0, 0];
			let gg = 0;
			battles.forEach((b, i) => {
				const wa = b.winner === 'model_a' ? 2 : b.winner === 'model_b' ? 0 : 1;
				const p = sigma(Math.LN10 * (beta[idx(b.modelA)] - beta[idx(b.modelB)]) + gamma * x[i]);
				const g = wa - 2 * p;
				gb[idx(b.modelA)] += Math.LN10 * g;
				gb[idx(b.modelB)] -= Math.LN10 * g;
				gg += x[i] * g;
			});
			const step = 2e-4;
			for (let k = 0; k < 3; k++) beta[k] += step * gb[k];
			gamma += step * gg;
			if (Math.max(...gb.map(Math.abs), Math.abs(gg)) < 1e-10) {
				converged = true;
				break;
			}
		}
		expect(converged).toBe(true);
		const mean = beta.reduce((t, v) => t + v, 0) / 3;
		const sc = styleControlledBt(battles);
		models.forEach((m, i) =>
			expect(sc.ratings[m].value!).toBeCloseTo(400 * (beta[i] - mean) + 1000, 6)
		);
		expect(sc.lengthCoefficient.value!).toBeCloseTo(gamma, 8);
	});

	it('leaves a model that won every comparison undefined, as bradleyTerry does', () => {
		const battles = simulate('top', ['a', 'b', 'c'], [1000, 1000, 1000], [100, 200, 300], 0.3, 30);
		for (let q = 0; q < 3; q++)
			battles.push({
				question: `t${q}`,
				modelA: 'top',
				modelB: 'a',
				winner: 'model_a',
				lengthA: 50,
				lengthB: 90
			});
		const sc = styleControlledBt(battles);
		expect(sc.ratings.top).toEqual(bradleyTerry(battles).ratings.top);
		expect(sc.ratings.top.reason).toMatch(/won every comparison/);
		expect(sc.ratings.a.value).not.toBeNull();
	});

	it('gives bootstrap intervals over questions that repeat with the seed and cover the estimates', () => {
		const models = ['a', 'b', 'c'];
		const battles = simulate('boot', models, [1050, 1000, 950], [100, 300, 200], 0.6, 60);
		const one = styleControlledBt(battles, { resamples: 200, seed: 's' });
		expect(styleControlledBt(battles, { resamples: 200, seed: 's' })).toEqual(one);
		expect(one.intervals!.questions).toBe(60);
		for (const m of models) {
			const i = one.intervals!.ratings[m];
			expect(i.low!).toBeLessThanOrEqual(one.ratings[m].value!);
			expect(i.high!).toBeGreaterThanOrEqual(one.ratings[m].value!);
		}
		const g = one.intervals!.lengthCoefficient;
		expect(g.low!).toBeLessThan(one.lengthCoefficient.value!);
		expect(g.high!).toBeGreaterThan(one.lengthCoefficient.value!);
	});

	it('refuses a negative or missing length', () => {
		expect(() =>
			styleControlledBt([
				{ question: 'q', modelA: 'a', modelB: 'b', winner: 'tie', lengthA: -1, lengthB: 3 }
			])
		).toThrow(/length must be a number ≥ 0/);
	});
});
