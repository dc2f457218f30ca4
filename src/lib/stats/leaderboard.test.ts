import { describe, expect, it } from 'vitest';
import { bootstrap, seededRandom } from './bootstrap';
import {
	expertLeaderboard,
	expertLeaderboardSteps,
	leaderboardOf,
	leaderboardSteps,
	planExpertLeaderboard,
	plackettLuce,
	plShard,
	shardOf,
	tierRankings,
	type TierRanking
} from './leaderboard';

/** Draws a full ranking from Plackett–Luce: each place is chosen with probability ∝ strength. */
function simulate(random: () => number, strengths: Record<string, number>): string[][] {
	const left = Object.keys(strengths);
	const ranking: string[][] = [];
	while (left.length) {
		const total = left.reduce((s, l) => s + strengths[l], 0);
		let u = random() * total;
		let k = 0;
		while (k < left.length - 1 && (u -= strengths[left[k]]) > 0) k++;
		ranking.push(left.splice(k, 1));
	}
	return ranking;
}

const TRUE = { alpha: 0.4, bravo: 0.25, charlie: 0.15, delta: 0.12, echo: 0.08 };

function simulated(seed: string, questions: number, raters = 3): TierRanking[] {
	const random = seededRandom(seed);
	const out: TierRanking[] = [];
	for (let q = 0; q < questions; q++)
		for (let r = 0; r < raters; r++)
			out.push({ question: `q${q}`, rater: `r${r}`, ranking: simulate(random, TRUE) });
	return out;
}

const order = (strengths: Record<string, number>) =>
	Object.keys(strengths).sort((a, b) => strengths[b] - strengths[a]);

describe('plackettLuce', () => {
	it('two candidates, no prior: A beating B 3 times to 1 gives the Bradley–Terry 3 : 1', () => {
		const rankings = [...Array(3).fill([['A'], ['B']]), [['B'], ['A']]].map((ranking, i) => ({
			question: `q${i}`,
			rater: 'r',
			ranking
		}));
		const fit = plackettLuce(rankings, { pseudo: 0 });
		expect(fit.converged).toBe(true);
		expect(fit.strengths.A).toBeCloseTo(0.75, 8);
		expect(fit.strengths.B).toBeCloseTo(0.25, 8);
		expect(fit.logStrengths.A).toBeCloseTo(Math.log(0.75), 8);
	});

	it('recovers the true order from rankings simulated from known strengths (seeded)', () => {
		const fit = plackettLuce(simulated('pl-recover', 800));
		expect(fit.converged).toBe(true);
		expect(order(fit.strengths)).toEqual(Object.keys(TRUE));
		for (const [label, s] of Object.entries(TRUE))
			expect(Math.abs(fit.strengths[label] - s)).toBeLessThan(0.02);
		expect(Object.values(fit.strengths).reduce((a, b) => a + b)).toBeCloseTo(1, 12);
	});

	it('satisfies the score equations of the tied (Breslow) likelihood, checked by a naive gradient', () => {
		const random = seededRandom('pl-ties');
		const labels = ['a', 'b', 'c', 'd'];
		const rankings: TierRanking[] = Array.from({ length: 60 }, (_, i) => {
			const shuffled = [...labels].sort(() => random() - 0.5);
			const ranking: string[][] = [];
			for (const l of shuffled) {
				if (ranking.length && random() < 0.3) ranking[ranking.length - 1].push(l);
				else ranking.push([l]);
			}
			return { question: `q${i}`, rater: 'r', ranking };
		});
		const { strengths } = plackettLuce(rankings, { pseudo: 0 });
		for (const i of labels) {
			// ∂ log L / ∂ log γᵢ = Σ over choices (tiers but the last): [i chosen] − |tier|·γᵢ / Σ remaining γ
			let gradient = 0;
			for (const { ranking } of rankings)
				ranking.slice(0, -1).forEach((tier, k) => {
					const remaining = ranking.slice(k).flat();
					if (!remaining.includes(i)) return;
					const total = remaining.reduce((s, l) => s + strengths[l], 0);
					gradient += (tier.includes(i) ? 1 : 0) - (tier.length * strengths[i]) / total;
				});
			expect(Math.abs(gradient)).toBeLessThan(1e-6);
		}
	});

	it('gives tied candidates equal strength and a never-winning one a small positive strength', () => {
		const rankings = Array.from({ length: 5 }, (_, i) => ({
			question: `q${i}`,
			rater: 'r',
			ranking: [['A', 'B'], ['C']]
		}));
		const { strengths, converged } = plackettLuce(rankings);
		expect(converged).toBe(true);
		expect(strengths.A).toBeCloseTo(strengths.B, 10);
		expect(strengths.C).toBeGreaterThan(0);
		expect(strengths.C).toBeLessThan(strengths.A / 2);
	});

	it('is invariant to relabelling candidates and reordering rankings', () => {
		const rankings = simulated('pl-relabel', 40);
		const rename = (l: string) => `model ${l.toUpperCase()}`;
		const renamed = rankings
			.map((r) => ({ ...r, ranking: r.ranking.map((t) => t.map(rename)) }))
			.reverse();
		const a = plackettLuce(rankings).strengths;
		const b = plackettLuce(renamed).strengths;
		for (const l of Object.keys(TRUE)) expect(b[rename(l)]).toBeCloseTo(a[l], 10);
	});

	it('refuses a ranking that names a candidate twice', () => {
		expect(() => plackettLuce([{ question: 'q', rater: 'r', ranking: [['A'], ['A']] }])).toThrow(
			/A appears twice/
		);
	});
});

describe('tierRankings and expertLeaderboard', () => {
	it('turns rank rows into tiers, equal ranks together, labelled by model', () => {
		const rows = [
			{ question: 'q1', rater: 'r1', candidate: 'x', rank: 2 },
			{ question: 'q1', rater: 'r1', candidate: 'y', rank: 1 },
			{ question: 'q1', rater: 'r1', candidate: 'z', rank: 2 }
		];
		const model: Record<string, string> = { x: 'gpt', y: 'llama', z: 'mistral' };
		expect(tierRankings(rows, (r) => model[r.candidate])).toEqual([
			{ question: 'q1', rater: 'r1', ranking: [['llama'], ['gpt', 'mistral']] }
		]);
	});

	it('lists models best first with intervals that contain the strength, the same for the same seed', () => {
		const rankings = simulated('board', 150);
		const board = expertLeaderboard(rankings, { resamples: 200, seed: 'b' });
		expect(board.map((r) => r.label)).toEqual(Object.keys(TRUE));
		for (const row of board) {
			expect(row.interval.low).not.toBeNull();
			expect(row.interval.low!).toBeLessThan(row.strength);
			expect(row.interval.high!).toBeGreaterThan(row.strength);
			expect(row.interval).toMatchObject({ resamples: 200, valid: 200, level: 0.95 });
		}
		expect(expertLeaderboard(rankings, { resamples: 200, seed: 'b' })).toEqual(board);
	});

	it('step by step, counts every resample and ends on the same leaderboard', () => {
		const rankings = simulated('steps', 60);
		const steps = expertLeaderboardSteps(rankings, { resamples: 30, seed: 's' });
		const counted: number[] = [];
		let step = steps.next();
		while (!step.done) {
			counted.push(step.value);
			step = steps.next();
		}
		expect(counted).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
		expect(step.value).toEqual(expertLeaderboard(rankings, { resamples: 30, seed: 's' }));
	});

	it('gives the intervals of refitting plackettLuce on each resample of questions (same seed, same draws)', () => {
		const rankings = simulated('refit', 40);
		const board = expertLeaderboard(rankings, { resamples: 40, seed: 'r' });
		const byQuestion = new Map<string, TierRanking[]>();
		for (const r of rankings)
			byQuestion.set(r.question, [...(byQuestion.get(r.question) ?? []), r]);
		const questions = [...byQuestion.values()];
		for (const row of board) {
			const slow = bootstrap(
				questions,
				(sample) =>
					plackettLuce(sample.flatMap((q, i) => q.map((r) => ({ ...r, question: `${i}` }))))
						.strengths[row.label] ?? null,
				{ resamples: 40, seed: 'r' }
			);
			if (row.interval.low === null || slow.low === null) throw new Error('no interval');
			expect(Math.abs(row.interval.low - slow.low)).toBeLessThan(1e-7);
			expect(Math.abs(row.interval.high - slow.high)).toBeLessThan(1e-7);
		}
	});

	it('resamples whole questions: with one question every resample is the data itself', () => {
		const rankings = [
			{ question: 'only', rater: 'r1', ranking: [['A'], ['B'], ['C']] },
			{ question: 'only', rater: 'r2', ranking: [['C'], ['A'], ['B']] }
		];
		for (const row of expertLeaderboard(rankings, { resamples: 50, seed: 'one' })) {
			expect(row.interval.low).toBeCloseTo(row.strength, 8);
			expect(row.interval.high).toBeCloseTo(row.strength, 8);
		}
	});
});

/** Rankings with ties (tiers of two) and partial rankings (a candidate missing), as physicians give. */
function withTies(seed: string, questions: number): TierRanking[] {
	const random = seededRandom(seed);
	return simulated(seed, questions).map((r) => {
		let ranking = r.ranking;
		if (random() < 0.3)
			ranking = [...ranking.slice(0, 1), [...ranking[1], ...ranking[2]], ...ranking.slice(3)];
		if (random() < 0.2) ranking = ranking.slice(0, -1);
		return { ...r, ranking };
	});
}

describe("the leaderboard's resamples", () => {
	it('refits each resample by the chord method to the maximum MM reaches at a far tighter tolerance', () => {
		for (const rankings of [simulated('chord', 150), withTies('chord ties', 80)]) {
			const plan = planExpertLeaderboard(rankings, { resamples: 60, seed: 'c' });
			const chord = plShard(shardOf(plan, 0, 60));
			const mm = plShard({
				...shardOf(plan, 0, 60),
				inverse: new Float64Array(0),
				tolerance: 1e-13
			});
			// Every resample converged, by the chord method itself (a wrong curvature would not contract).
			expect([...chord.converged]).toEqual(Array(60).fill(1));
			expect([...mm.converged]).toEqual(Array(60).fill(2));
			// Within the tolerance the refit stops at (1e-6 in log strength), every strength.
			chord.strengths.forEach((v, i) =>
				expect(Math.abs(v / mm.strengths[i] - 1)).toBeLessThan(1e-6)
			);
		}
	});

	it('refits by MM when the chord steps do not shrink, with exactly MM’s result', () => {
		const plan = planExpertLeaderboard(withTies('fallback', 50), { resamples: 20, seed: 'f' });
		const n = plan.labels.length;
		// A matrix far too large: the first step overshoots and the next is larger still.
		const wild = new Float64Array(n * n);
		for (let i = 0; i < n; i++) wild[i * n + i] = 1e3;
		const fallen = plShard({ ...shardOf(plan, 0, 20), inverse: wild });
		const mm = plShard({ ...shardOf(plan, 0, 20), inverse: new Float64Array(0) });
		expect([...fallen.converged]).toEqual(Array(20).fill(2));
		expect(fallen.strengths).toEqual(mm.strengths);
	});

	it('any split into shards, each starting at its own place in the seeded draws, gives the same leaderboard', () => {
		const plan = planExpertLeaderboard(withTies('shards', 70), { resamples: 45, seed: 'sh' });
		const whole = [...leaderboardSteps(plan)].length;
		expect(whole).toBe(45);
		const oneThread = expertLeaderboard(withTies('shards', 70), { resamples: 45, seed: 'sh' });
		for (const cuts of [
			[0, 45],
			[0, 1, 45],
			[0, 7, 30, 44, 45]
		]) {
			const results = cuts.slice(1).map((to, i) => plShard(shardOf(plan, cuts[i], to)));
			expect(leaderboardOf(plan, results)).toEqual(oneThread);
		}
	});

	it('skips a resample whose refit does not converge, in shards as on one thread', () => {
		const rankings = withTies('skip', 40);
		const opts = { resamples: 30, seed: 'k', iterations: 5 };
		const plan = planExpertLeaderboard(rankings, opts);
		// No chord method and a few MM steps: some resamples do not converge.
		const mmOnly = { ...plan, common: { ...plan.common, inverse: new Float64Array(0) } };
		const results = [plShard(shardOf(mmOnly, 0, 13)), plShard(shardOf(mmOnly, 13, 30))];
		const converged = results.flatMap((r) => [...r.converged]).filter((c) => c > 0).length;
		expect(converged).toBeGreaterThan(0);
		expect(converged).toBeLessThan(30);
		const board = leaderboardOf(mmOnly, results);
		expect(board[0].interval).toMatchObject({ resamples: 30, valid: converged });
		const drained = leaderboardSteps(mmOnly);
		let step = drained.next();
		while (!step.done) step = drained.next();
		expect(step.value).toEqual(board);
	});
});
