import { parseArgs } from 'node:util';
import { commandLineError, wantsHelp, type Io, type OptionsConfig } from '../io';

/** An option of a suite: its parseArgs type and its line of `cliniq bench --help`. */
interface SuiteOption {
	type: 'string';
	/** Must be a positive number. */
	number?: boolean;
	help: string;
}

/** The suites, in the order `cliniq bench` runs them, with what each measures and its options. */
const SUITES: Record<string, { about: string; options?: Record<string, SuiteOption> }> = {
	import: { about: 'an import of 50,000 QA records, then the item table at that size' },
	scoring: { about: "the scorer's throughput (hash:384 embedder)" },
	review: { about: '"submit review + next item", 50 reviewers, beside a raw-driver baseline' },
	ranking: { about: '"submit ranking + next question", 50 physicians, beside a baseline' },
	stats: { about: 'the agreement reports at full scale, beside their extraction queries' },
	rubric: { about: '"submit score sheet + next question", beside a baseline' },
	pairwise: { about: '"submit preference + next pair", the pairwise report, Bradley–Terry' },
	evidence: { about: "an assessor's evidence screen and step, beside a baseline" },
	pages: { about: 'the data work of the organiser pages at 50,000 items' },
	http: {
		about: '`node build` over HTTP: open and closed loops, the review data, organiser pages',
		options: {
			rate: { type: 'string', number: true, help: 'open-loop actions per second (100)' },
			seconds: { type: 'string', number: true, help: 'length of each phase (15)' },
			clients: { type: 'string', number: true, help: 'closed-loop clients (50)' },
			phases: { type: 'string', help: 'the phases to run: open,closed,data,pages (all)' },
			'cpu-prof': { type: 'string', help: "folder for the server's CPU profile" },
			compare: { type: 'string', help: "another checkout whose build runs beside this one's" }
		}
	},
	cli: {
		about: '`cliniq --help` and `cliniq stats` start-up, beside node doing only the same job'
	}
};

const NAMES = Object.keys(SUITES);

export const BENCH_USAGE = `Usage: cliniq bench [SUITE…] [options]   (npm run bench -- [SUITE…] [options])

Runs the benchmarks named (all by default, in this order) and prints their figures beside a
baseline of the same job measured in the same run. See docs/performance.md.

Suites:
${NAMES.map((n) => `  ${n.padEnd(9)} ${SUITES[n].about}`).join('\n')}

Options (only with a suite that reads them):
${NAMES.flatMap((n) =>
	Object.entries(SUITES[n].options ?? {}).map(
		([o, spec]) => `  --${`${o} ${spec.number ? 'N' : 'VALUE'}`.padEnd(16)} ${n}: ${spec.help}`
	)
).join('\n')}

The database suites use BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).`;

/**
 * Runs the benchmarks (all, or those named) and prints their figures. Options (`--name value`)
 * follow the names, and only those of a suite named are accepted (`http` reads `--rate`,
 * `--seconds`, `--clients`, `--phases`, `--cpu-prof <dir>` and `--compare <checkout>`).
 */
export async function runBenchmarks(args: string[], io: Io): Promise<number> {
	if (args[0] === 'help' || wantsHelp(args)) {
		io.stdout(BENCH_USAGE);
		return 0;
	}
	const firstOption = args.findIndex((a) => a.startsWith('-'));
	const names = firstOption < 0 ? args : args.slice(0, firstOption);
	const options = firstOption < 0 ? [] : args.slice(firstOption);
	const chosen = names.length ? names : NAMES;
	const unknown = chosen.filter((a) => !Object.hasOwn(SUITES, a));
	if (unknown.length) {
		io.stderr(
			`Error: Unknown benchmark ${unknown.join(', ')}; choose from ${NAMES.join(', ')} (cliniq bench --help).`
		);
		return 2;
	}
	const accepted: Record<string, SuiteOption> = Object.assign(
		{},
		...chosen.map((n) => SUITES[n].options ?? {})
	);
	const config: OptionsConfig = Object.fromEntries(
		Object.entries(accepted).map(([o, spec]) => [o, { type: spec.type }])
	);
	/** The options as `--name value` pairs, however they were written (`--rate=5`). */
	let given: string[];
	try {
		const { values } = parseArgs({ args: options, options: config, allowPositionals: false });
		given = Object.entries(values).flatMap(([o, v]) => [`--${o}`, String(v)]);
		for (const [o, v] of Object.entries(values)) {
			const n = Number(v);
			if (accepted[o].number && !(Number.isFinite(n) && n > 0))
				throw new Error(`--${o} must be a positive number, not "${v}"`);
		}
	} catch (e) {
		const command = `bench${names.length ? ` ${names.join(' ')}` : ''}`;
		const refused = commandLineError(e, command, config);
		io.stderr(`Error: ${(refused ?? (e as Error)).message}`);
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
			await runHttpBench(io, parseHttpBenchOptions(given));
		}
		if (suite === 'cli') await (await import('./cli')).runCliBench(io);
	}
	return 0;
}
