import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../stats/bootstrap';
import {
	expertLeaderboard,
	planExpertLeaderboard,
	type TierRanking
} from '../../../stats/leaderboard';
import { bootstrapThreads, leaderboardInThreads } from './leaderboard-threads';
import { skippedTitle } from '$scoring/testing/skip';
import { threadCount } from '../../threads';
import { describeEachDb } from '../../db/testing';
import { buildAgreementData } from '../../fixtures/agreement';
import { plackettLuceInput, studyAgreement, studyInput, studyReport } from './study';

/** Physicians' rankings of 7 models and the reference, with ties and a few partial rankings. */
function rankings(questions: number): TierRanking[] {
	const random = seededRandom('threads');
	const labels = ['Reference', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];
	const out: TierRanking[] = [];
	for (let q = 0; q < questions; q++)
		for (const rater of ['P-1', 'P-2', 'P-3']) {
			const order = labels
				.map((l, i) => ({ l, key: random() + i * 0.08 }))
				.sort((a, b) => a.key - b.key)
				.map((x) => [x.l]);
			if (random() < 0.3) order.splice(2, 2, [...order[2], ...order[3]]);
			if (random() < 0.1) order.pop();
			out.push({ question: `q${q}`, rater, ranking: order });
		}
	return out;
}

describe('the experts’ leaderboard on worker threads', () => {
	it('gives the one-thread leaderboard to the last bit, however many threads', async () => {
		const data = rankings(120);
		const opts = { resamples: 97, seed: 'threads' };
		const oneThread = expertLeaderboard(data, opts);
		const plan = planExpertLeaderboard(data, opts);
		for (const threads of [1, 2, 3, 5]) {
			const seen: number[] = [];
			const board = await leaderboardInThreads(plan, threads, (done) => seen.push(done));
			expect(board).toEqual(oneThread);
			for (const done of seen) expect(done).toBeLessThanOrEqual(97);
		}
	});

	it('stays on the calling thread for a small bootstrap, and spreads a large one', () => {
		const small = planExpertLeaderboard(rankings(20), { resamples: 100, seed: 's' });
		expect(bootstrapThreads(small)).toBe(1);
		const large = planExpertLeaderboard(rankings(1_000), { resamples: 1_000, seed: 's' });
		expect(bootstrapThreads(large)).toBe(threadCount());
	});
});

describeEachDb('a study report with its leaderboard bootstrap on threads', (h) => {
	const oneCore = threadCount() < 2 ? 'a machine of one core has no threads to spread over' : null;
	it.skipIf(oneCore !== null)(
		skippedTitle('is the report one thread computes, to the last bit', oneCore),
		{ timeout: 120_000 },
		async () => {
			// 1,100 questions × 3 physicians and 1,000 resamples: enough work for threads.
			const { studyId } = await buildAgreementData(h.db, {
				items: 1_100,
				doubleShare: 0.45,
				questions: 1_100,
				models: 7,
				physicians: 3,
				reviewers: 4
			});
			const options = { resamples: 1_000, seed: 'threads', runId: null };
			const warn = vi.spyOn(console, 'warn');
			try {
				const threaded = await studyAgreement(h.db, studyId, options);
				// No fallback to this thread.
				expect(warn).not.toHaveBeenCalled();
				const input = await studyInput(h.db, studyId, options);
				const plan = planExpertLeaderboard(plackettLuceInput(input.rows), options);
				expect(bootstrapThreads(plan)).toBeGreaterThan(1);
				expect(threaded.leaderboards.expert[0].interval.low).not.toBeNull();
				expect(threaded).toEqual(studyReport(input, options));
			} finally {
				warn.mockRestore();
			}
		}
	);
});
