import type { Io } from './main';

/** Runs every benchmark and prints its figures. */
export async function runBenchmarks(args: string[], io: Io): Promise<number> {
	const { runImportBench } = await import('./bench-import');
	await runImportBench(io);
	try {
		const { runScoringBench } = await import('../../../../scoring/src/bench');
		await runScoringBench(io);
	} catch (e) {
		io.stderr(`scoring bench unavailable: ${(e as Error).message}`);
	}
	return 0;
}
