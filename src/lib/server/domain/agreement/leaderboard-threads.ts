// The experts' leaderboard bootstrap spread over worker threads: its resamples split into
// consecutive shards, one per thread, each drawn from its own place in the seeded sequence, and put
// together in resample order — the very leaderboard expertLeaderboard computes on one thread.
import {
	leaderboardOf,
	PL_SHARD_SOURCE,
	shardOf,
	type ExpertLeaderboard,
	type ExpertLeaderboardPlan,
	type PlShard,
	type PlShardResult
} from '../../../stats/leaderboard';
import { inThreads, shares, threadCount } from '../../threads';

/**
 * Below this many rankings × resamples the bootstrap stays on the calling thread: starting threads
 * (tens of ms) would cost more than they save.
 */
const THREADED_FROM = 3_000_000;

/** How many threads the plan's bootstrap is worth (1: stay on this thread). */
export function bootstrapThreads(plan: ExpertLeaderboardPlan): number {
	const work = plan.resamples * plan.common.rankingQuestion.length;
	return work < THREADED_FROM ? 1 : Math.min(threadCount(), plan.resamples);
}

/**
 * The plan's leaderboard with its resamples drawn on `threads` worker threads; `progress(done)`
 * with the resamples done so far. Rejects if a thread fails.
 */
export async function leaderboardInThreads(
	plan: ExpertLeaderboardPlan,
	threads: number,
	progress?: (done: number) => void
): Promise<ExpertLeaderboard> {
	const shards = shares(plan.resamples, threads).map(([from, to]) => shardOf(plan, from, to));
	const results = await inThreads<PlShard, PlShardResult>(PL_SHARD_SOURCE(), shards, progress);
	return leaderboardOf(plan, results);
}
