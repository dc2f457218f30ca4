import { writeFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MODES, SCORER_VERSION, type Mode, type TaskType } from './types';

type Io = { stdout: (s: string) => void; stderr: (s: string) => void };

/** Default embedder: the real MiniLM model, failing with setup instructions when weights are missing. */
const DEFAULT_EMBEDDER = 'minilm';

const USAGE = `usage: cliniq score <command> [options]

commands:
  run    --qa <dir> --responses <dir> [--mode official|corrected] [--embedder minilm|hash:<D>] [--out <dir>]
  cases  --qa <dir> --cases <file.json> --out <file.json> [--mode …] [--embedder …]

--mode defaults to official; --embedder defaults to ${DEFAULT_EMBEDDER} (weights from SCORING_MODEL_DIR,
see scoring/README.md); hash:<D> is a fast deterministic stand-in for tests. Scorer ${SCORER_VERSION}.`;

class UsageError extends Error {}

/** The scorer, its files and its embedders: loaded when a command runs, so `--help` answers at once. */
async function scorer() {
	const [index, io, embedders] = await Promise.all([
		import('./index'),
		import('./io'),
		import('./embedders/index')
	]);
	return { ...index, ...io, ...embedders };
}

/** Output fields of `cases` per type (the contract with the portal). */
const CASE_KEYS: Record<TaskType, string[]> = {
	true_false: ['predicted', 'correct', 'malformed', 'invalid'],
	multiple_choice: ['correct', 'match_type'],
	list: ['precision', 'recall', 'f1', 'malformed', 'match_type'],
	short_answer: ['semantic', 'bleu', 'rouge', 'meteor'],
	short_inverse: ['semantic', 'bleu', 'rouge', 'meteor'],
	multi_hop: ['semantic', 'bleu', 'rouge', 'meteor'],
	multi_hop_inverse: [
		'expected_step',
		'predicted_step',
		'step_distance',
		'penalty',
		'semantic',
		'bleu',
		'rouge',
		'meteor'
	]
};

const OPTIONS = {
	qa: { type: 'string' },
	responses: { type: 'string' },
	cases: { type: 'string' },
	out: { type: 'string' },
	mode: { type: 'string' },
	embedder: { type: 'string' },
	help: { type: 'boolean', short: 'h' }
} as const;

/** Entry point of `cliniq score …`: returns the process exit code (0 ok, 1 failure, 2 usage). */
export async function runScoreCli(argv: string[], io: Io): Promise<number> {
	try {
		const [command, ...rest] = argv;
		if (!command || command === '--help' || command === '-h' || command === 'help') {
			io.stdout(USAGE + '\n');
			return command ? 0 : 2;
		}
		let parsed;
		try {
			parsed = parseArgs({ args: rest, options: OPTIONS, strict: true, allowPositionals: false });
		} catch (e) {
			throw new UsageError((e as Error).message);
		}
		const v = parsed.values;
		if (v.help) {
			io.stdout(USAGE + '\n');
			return 0;
		}
		const mode = (v.mode ?? 'official') as Mode;
		if (!MODES.includes(mode))
			throw new UsageError(`--mode must be official or corrected, got '${v.mode}'`);
		const spec = v.embedder ?? DEFAULT_EMBEDDER;
		if (spec !== 'minilm' && !/^hash:\d+$/.test(spec)) {
			throw new UsageError(`--embedder must be minilm or hash:<dimensions>, got '${spec}'`);
		}
		if (command === 'run') return await runCommand(v, mode, spec, io);
		if (command === 'cases') return await casesCommand(v, mode, spec, io);
		throw new UsageError(`unknown command '${command}'`);
	} catch (e) {
		if (e instanceof UsageError) {
			io.stderr(`error: ${e.message}\n\n${USAGE}\n`);
			return 2;
		}
		const { InputError, ScoringInputError } = await scorer();
		if (e instanceof InputError || e instanceof ScoringInputError) {
			io.stderr(`error: ${e.message}\n`);
			return 1;
		}
		io.stderr(`error: ${(e as Error).message ?? e}\n`);
		return 1;
	}
}

function need(v: Record<string, unknown>, ...keys: string[]): void {
	const missing = keys.filter((k) => typeof v[k] !== 'string' || v[k] === '');
	if (missing.length) throw new UsageError(`missing ${missing.map((k) => `--${k}`).join(', ')}`);
}

function progress(io: Io) {
	const started = Date.now();
	return ({ done, total }: { done: number; total: number }) => {
		if (total < 1000) return;
		const s = ((Date.now() - started) / 1000).toFixed(1);
		io.stderr(`scored ${done}/${total} items (${s} s)\n`);
	};
}

async function runCommand(
	v: Record<string, unknown>,
	mode: Mode,
	spec: string,
	io: Io
): Promise<number> {
	need(v, 'qa', 'responses');
	const { createEmbedder, formatLeaderboard, loadQaDir, loadSubmissionDir, scoreSubmission } =
		await scorer();
	const qaRecords = await loadQaDir(v.qa as string);
	const submission = await loadSubmissionDir(v.responses as string);
	const embedder = await createEmbedder(spec);
	const res = await scoreSubmission({
		qaRecords,
		submission,
		mode,
		embedder,
		onProgress: progress(io)
	});
	for (const w of res.meta.warnings) io.stderr(`warning: ${w}\n`);
	io.stdout(`${formatLeaderboard(res.leaderboard)}\n`);
	io.stdout(
		`mode ${res.meta.mode}, embedder ${res.meta.embedder}, scorer ${res.meta.scorerVersion}, ` +
			`baseline ${res.meta.baseline.toFixed(4)}, IDF corpus ${res.meta.idfCorpusSize} texts, ${res.items.length} items\n`
	);
	if (typeof v.out === 'string') {
		const { writeSubmissionResult } = await scorer();
		const files = await writeSubmissionResult(resolve(v.out), res);
		io.stdout(`wrote ${files.length} files to ${resolve(v.out)}\n`);
	}
	return 0;
}

async function casesCommand(
	v: Record<string, unknown>,
	mode: Mode,
	spec: string,
	io: Io
): Promise<number> {
	need(v, 'qa', 'cases', 'out');
	const { createEmbedder, itemRow, loadCasesFile, loadQaDir, scoreCases } = await scorer();
	const qaRecords = await loadQaDir(v.qa as string);
	const cases = await loadCasesFile(v.cases as string);
	const embedder = await createEmbedder(spec);
	const res = await scoreCases(cases, { qaRecords, mode, embedder, onProgress: progress(io) });
	const rows = res.items.map((it) => {
		const row = itemRow(it);
		const keys = ['id', 'type', ...CASE_KEYS[it.score.type]];
		return Object.fromEntries(keys.map((k) => [k, row[k]]));
	});
	const out = resolve(v.out as string);
	await mkdir(dirname(out), { recursive: true });
	await writeFile(out, JSON.stringify(rows, null, 2) + '\n');
	io.stdout(
		`scored ${rows.length} cases (mode ${res.meta.mode}, embedder ${res.meta.embedder}, scorer ${res.meta.scorerVersion}, ` +
			`baseline ${res.meta.baseline.toFixed(4)}, IDF corpus ${res.meta.idfCorpusSize}) -> ${out}\n`
	);
	return 0;
}
