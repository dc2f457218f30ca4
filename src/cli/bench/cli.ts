// `cliniq bench cli`: how long the command line takes to answer, as a user runs it (a new node
// process each time), beside the floor of the same job: a node process that only prints a text as
// long as the usage, or that only reads the CSV file and prints it as JSON. The runs alternate
// between the jobs, so a change in the machine's load falls on all alike. The CLI is compiled
// first (scripts/build-cli.js); then the sources through tsx, as bin/cliniq.js runs them once a
// source is newer than the compiled CLI, for comparison.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Io } from '../io';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = join(ROOT, 'bin', 'cliniq.js');
const RUNS = 10;
/** Runs of the tsx fallback, the slow one. */
const FALLBACK_RUNS = 3;
/** The target for `cliniq --help` and `cliniq stats` on a small file, wall time. */
const TARGET_MS = 300;

/** bin/cliniq.js's fallback, `cliniq --help` from the sources through tsx. */
const FALLBACK = `const { register } = await import('tsx/esm/api');
register({ tsconfig: ${JSON.stringify(join(ROOT, 'tsconfig.json'))} });
const { main } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/cli/main.ts')).href)});
process.exitCode = await main(['--help']);`;

interface Job {
	label: string;
	args: string[];
}

/** Runs a job once; its wall time in milliseconds (a failed run stops the bench). */
function timeOnce(job: Job): number {
	const start = performance.now();
	const r = spawnSync(process.execPath, job.args, { cwd: ROOT, encoding: 'utf8' });
	const ms = performance.now() - start;
	if (r.status !== 0)
		throw new Error(`${job.label} exited with ${r.status}: ${(r.stderr || r.stdout).trim()}`);
	return ms;
}

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Median and p95 of each job, the jobs run in turn `runs` times. */
function measure(jobs: Job[], runs: number): { median: number; p95: number }[] {
	const times: number[][] = jobs.map(() => []);
	for (let i = 0; i < runs; i++) jobs.forEach((job, j) => times[j].push(timeOnce(job)));
	return times.map((t) => {
		const sorted = [...t].sort((a, b) => a - b);
		return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
	});
}

function compileCli() {
	const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.js')], {
		cwd: ROOT,
		encoding: 'utf8'
	});
	if (build.status !== 0) throw new Error(`scripts/build-cli.js failed: ${build.stderr}`);
}

/** Whether bin/cliniq.js runs the compiled CLI: no source it was compiled from is newer. */
function compiledIsFresh(): boolean {
	try {
		const { builtAt, inputs } = JSON.parse(
			readFileSync(join(ROOT, 'build-cli', 'inputs.json'), 'utf8')
		) as { builtAt: number; inputs: string[] };
		return inputs.every((f) => statSync(join(ROOT, f)).mtimeMs <= builtAt);
	} catch {
		return false;
	}
}

const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);

export async function runCliBench(io: Io): Promise<void> {
	io.stdout(`CLI start-up (node bin/cliniq.js), wall time of a new process, ${RUNS} runs each`);
	const dir = mkdtempSync(join(tmpdir(), 'cliniq-bench-cli-'));
	try {
		const csv = join(dir, 'ratings.csv');
		const rows = ['unit,rater,value'];
		for (let unit = 1; unit <= 20; unit++)
			for (const rater of ['a', 'b', 'c']) rows.push(`${unit},${rater},${(unit * 7) % 5}`);
		writeFileSync(csv, rows.join('\n') + '\n');
		compileCli();
		const usage = spawnSync(process.execPath, [BIN, '--help'], { cwd: ROOT, encoding: 'utf8' });
		const prints = join(dir, 'prints.mjs');
		writeFileSync(prints, `process.stdout.write(${JSON.stringify(usage.stdout)});\n`);
		const reads = join(dir, 'reads.mjs');
		writeFileSync(
			reads,
			`import { readFileSync } from 'node:fs';\n` +
				`const lines = readFileSync(process.argv[2], 'utf8').trim().split('\\n').map((l) => l.split(','));\n` +
				`process.stdout.write(JSON.stringify({ rows: lines.length - 1, lines }, null, 2) + '\\n');\n`
		);

		const bare: Job = { label: 'node -e 0', args: ['-e', '0'] };
		const pairs: { job: Job; floor: Job }[] = [
			{
				job: { label: 'cliniq --help', args: [BIN, '--help'] },
				floor: { label: 'node prints the usage', args: [prints] }
			},
			{
				job: {
					label: 'cliniq stats ratings (60 rows)',
					args: [BIN, 'stats', 'ratings', csv]
				},
				floor: { label: 'node reads the CSV, prints JSON', args: [reads, csv] }
			}
		];
		const jobs = [bare, ...pairs.flatMap((p) => [p.job, p.floor])];
		// A source edited meanwhile sends bin/cliniq.js to tsx: compiled again and measured again.
		let [bareTime, ...figures] = measure(jobs, RUNS);
		for (let attempt = 1; !compiledIsFresh(); attempt++) {
			if (attempt === 3) {
				io.stdout('  (sources kept changing: some runs may have gone through tsx)');
				break;
			}
			io.stdout('  a source changed during the runs: compiled and measured again');
			compileCli();
			[bareTime, ...figures] = measure(jobs, RUNS);
		}

		io.stdout(
			`  ${'job'.padEnd(32)}  ${'median'.padStart(8)}  ${'p95'.padStart(8)}  ${'floor'.padStart(8)}  ratio  target < ${TARGET_MS} ms`
		);
		io.stdout(`  ${bare.label.padEnd(32)}  ${ms(bareTime.median)}  ${ms(bareTime.p95)}`);
		pairs.forEach(({ job, floor }, i) => {
			const run = figures[2 * i];
			const base = figures[2 * i + 1];
			io.stdout(`  ${floor.label.padEnd(32)}  ${ms(base.median)}  ${ms(base.p95)}`);
			io.stdout(
				`  ${job.label.padEnd(32)}  ${ms(run.median)}  ${ms(run.p95)}  ${ms(base.median)}  ${(run.median / base.median).toFixed(1).padStart(4)}×  ${run.median < TARGET_MS ? 'met' : 'MISSED'}`
			);
		});

		const [fallback] = measure(
			[{ label: 'cliniq --help through tsx', args: ['--input-type=module', '-e', FALLBACK] }],
			FALLBACK_RUNS
		);
		const helpFloor = figures[1];
		io.stdout(
			`  ${'cliniq --help, tsx (sources)'.padEnd(32)}  ${ms(fallback.median)}  ${ms(fallback.p95)}  ${ms(helpFloor.median)}  ${(fallback.median / helpFloor.median).toFixed(1).padStart(4)}×  (bin/cliniq.js's fallback once a source is newer; ${FALLBACK_RUNS} runs)`
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
