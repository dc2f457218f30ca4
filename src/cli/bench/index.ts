import type { Io } from '../io';

const SUITES = ['import', 'scoring', 'review', 'ranking', 'stats', 'pages'] as const;

/** Runs the benchmarks (all, or those named) and prints their figures. */
export async function runBenchmarks(args: string[], io: Io): Promise<number> {
	const chosen = args.length ? args : [...SUITES];
	const unknown = chosen.filter((a) => !SUITES.includes(a as never));
	if (unknown.length) {
		io.stderr(`Unknown benchmark ${unknown.join(', ')}; choose from ${SUITES.join(', ')}.`);
		return 2;
	}
	for (const suite of chosen) {
		io.stdout('');
		if (suite === 'import') await (await import('./import')).runImportBench(io);
		if (suite === 'scoring') {
			io.stdout('Scoring (scoring/, hash:384)');
			await (await import('$scoring/bench')).runScoringBench(io);
		}
		if (suite === 'review') await (await import('./review')).runReviewBench(io);
		if (suite === 'ranking') await (await import('./ranking')).runRankingBench(io);
		if (suite === 'stats') await (await import('./stats')).runStatsBench(io);
		if (suite === 'pages') await (await import('./pages')).runPagesBench(io);
	}
	return 0;
}
