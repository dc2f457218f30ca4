import type { Io } from '../io';

const SUITES = [
	'import',
	'scoring',
	'review',
	'ranking',
	'stats',
	'rubric',
	'pairwise',
	'evidence',
	'pages',
	'http'
] as const;

/**
 * Runs the benchmarks (all, or those named) and prints their figures. Options (`--name value`)
 * follow the names; `http` reads `--rate`, `--seconds`, `--clients` and `--cpu-prof <dir>`.
 */
export async function runBenchmarks(args: string[], io: Io): Promise<number> {
	const firstOption = args.findIndex((a) => a.startsWith('--'));
	const names = firstOption < 0 ? args : args.slice(0, firstOption);
	const options = firstOption < 0 ? [] : args.slice(firstOption);
	const chosen = names.length ? names : [...SUITES];
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
		if (suite === 'rubric') await (await import('./rubric')).runRubricBench(io);
		if (suite === 'pairwise') await (await import('./pairwise')).runPairwiseBench(io);
		if (suite === 'evidence') await (await import('./evidence')).runEvidenceBench(io);
		if (suite === 'stats') await (await import('./stats')).runStatsBench(io);
		if (suite === 'pages') await (await import('./pages')).runPagesBench(io);
		if (suite === 'http') {
			const { parseHttpBenchOptions, runHttpBench } = await import('./http');
			await runHttpBench(io, parseHttpBenchOptions(options));
		}
	}
	return 0;
}
