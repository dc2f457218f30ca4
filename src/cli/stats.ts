// `cliniq stats`: agreement and ranking statistics on CSV files, printed as one JSON object.
// The statistics live in src/lib/stats; this file reads the files, checks them line by line and
// shapes the output every subcommand shares.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { parseCsv } from '$lib/server/csv';
import { bootstrap } from '$lib/stats/bootstrap';
import { RATING_KEYS, ratingOrder, ratingStatistics, ratingsSummary } from '$lib/stats/ratings';
import type { Interval, Level, Rating, Stat } from '$lib/stats/types';
import type { Io } from './io';

export const STATS_USAGE = `cliniq stats — agreement and ranking statistics on CSV files (one JSON object on stdout)

Usage:
  cliniq stats ratings FILE [--level nominal|ordinal|interval] [--order v1,v2,…] [--bootstrap N --seed S]
      columns unit,rater,value: percent agreement, Cohen's / weighted / Fleiss' kappa,
      Krippendorff's alpha (nominal, ordinal, interval), ICC(2,1) and ICC(2,k)
  cliniq stats rankings FILE [--bootstrap N --seed S]
      columns question,rater,candidate,rank: Kendall's W per question and its mean, mean pairwise tau-b
  cliniq stats correlate FILE
      columns x,y: Pearson, Spearman, Kendall's tau-b
  cliniq stats pairwise FILE
      columns question,candidate,expert_rank,metric: pairwise accuracy of a metric against expert ranks

An undefined statistic is null and named with its reason under "undefined". --bootstrap N --seed S
adds "ci": 95 % percentile intervals from N resamples of units (items or questions).
A malformed file is refused with its line number (exit status 2).`;

/** A file or command line the statistics cannot use: reported on stderr, exit status 2. */
export class StatsInputError extends Error {}

export type StatsCommand = (args: string[], io: Io) => Promise<number>;

/** One data line of a CSV file: its line number in the file (header = 1) and its fields by column. */
export interface CsvLine {
	line: number;
	fields: Record<string, string>;
}

/**
 * Reads a CSV file with a header row holding at least the `required` columns. Every line must have
 * as many fields as the header and a non-empty value in each required column; blank lines are
 * skipped. Errors name the file and the line (a quoted field may span lines: lines are counted in
 * the file, not in records).
 */
export async function readCsvFile(path: string, required: readonly string[]): Promise<CsvLine[]> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (e) {
		throw new StatsInputError(
			`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`
		);
	}
	const name = basename(path);
	const fail = (line: number, message: string) =>
		new StatsInputError(`${name} line ${line}: ${message}`);
	const records = parseCsv(text);
	let line = 1;
	const lines: { line: number; cells: string[] }[] = [];
	for (const cells of records) {
		lines.push({ line, cells });
		line += 1 + cells.reduce((n, c) => n + (c.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
	}
	const data = lines.filter((l) => !(l.cells.length === 1 && l.cells[0].trim() === ''));
	const header = data.shift();
	if (!header)
		throw new StatsInputError(`${name} is empty: it needs a header row (${required.join(',')})`);
	const columns = header.cells.map((c) => c.trim());
	const seen = new Set<string>();
	for (const c of columns) {
		if (seen.has(c)) throw fail(header.line, `the header names column "${c}" twice`);
		seen.add(c);
	}
	const missing = required.filter((c) => !seen.has(c));
	if (missing.length)
		throw fail(
			header.line,
			`the header must contain the columns ${required.join(', ')}; missing: ${missing.join(', ')}`
		);
	return data.map(({ line, cells }) => {
		if (cells.length !== columns.length)
			throw fail(
				line,
				`${cells.length} field${cells.length === 1 ? '' : 's'}, but the header has ${columns.length}`
			);
		const fields: Record<string, string> = {};
		columns.forEach((c, i) => (fields[c] = cells[i].trim()));
		for (const c of required) if (fields[c] === '') throw fail(line, `${c} is empty`);
		return { line, fields };
	});
}

/** A number written in a CSV field (plain decimal or exponent notation), or null. */
export function csvNumber(s: string): number | null {
	if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
	const n = Number(s);
	return Number.isFinite(n) ? n : null;
}

/** The `--bootstrap N --seed S` pair, checked: both or neither, N a whole number 1–100,000. */
export function bootstrapOptions(values: {
	bootstrap?: string;
	seed?: string;
}): { resamples: number; seed: string } | null {
	if (values.bootstrap === undefined && values.seed === undefined) return null;
	if (values.bootstrap === undefined)
		throw new StatsInputError('--seed only applies with --bootstrap N');
	if (values.seed === undefined)
		throw new StatsInputError('--bootstrap needs --seed S, so the interval can be reproduced');
	const n = Number(values.bootstrap);
	if (!/^\d+$/.test(values.bootstrap) || n < 1 || n > 100_000)
		throw new StatsInputError('--bootstrap must be a whole number of resamples from 1 to 100000');
	return { resamples: n, seed: values.seed };
}

/** The options every subcommand takes for its intervals. */
export const BOOTSTRAP_OPTIONS = {
	bootstrap: { type: 'string' },
	seed: { type: 'string' }
} as const satisfies ParseArgsConfig['options'];

/**
 * The output object: counts first, then each statistic (null when undefined), then
 * `undefined: {key: reason}` when any is, and `ci: {key: [low, high] | null}` with
 * `ci_undefined: {key: reason}` for intervals that could not be formed.
 */
export function statsJson(
	counts: Record<string, unknown>,
	stats: Record<string, Stat>,
	ci?: Record<string, Interval>
): Record<string, unknown> {
	const out: Record<string, unknown> = { ...counts };
	const reasons: Record<string, string> = {};
	for (const [key, s] of Object.entries(stats)) {
		out[key] = s.value;
		if (s.value === null) reasons[key] = s.reason;
	}
	if (Object.keys(reasons).length) out.undefined = reasons;
	if (ci) {
		const intervals: Record<string, [number, number] | null> = {};
		const why: Record<string, string> = {};
		for (const [key, i] of Object.entries(ci)) {
			intervals[key] = i.low === null ? null : [i.low, i.high];
			if (i.low === null) why[key] = i.reason;
		}
		out.ci = intervals;
		if (Object.keys(why).length) out.ci_undefined = why;
	}
	return out;
}

/**
 * Prints the output object, two-space indented, with each [low, high] pair on one line. Only a
 * match spanning real newlines is joined: a newline inside a JSON string is always escaped.
 */
export function printJson(io: Io, value: unknown) {
	const num = '(-?\\d[\\d.eE+-]*)';
	io.stdout(
		JSON.stringify(value, null, 2).replace(
			new RegExp(`\\[\\n\\s*${num},\\n\\s*${num}\\n\\s*\\]`, 'g'),
			'[$1, $2]'
		)
	);
}

/** The one positional FILE of a subcommand. */
export function oneFile(positionals: string[], command: string): string {
	if (positionals.length !== 1)
		throw new StatsInputError(`Name exactly one CSV file: cliniq stats ${command} FILE`);
	return positionals[0];
}

const LEVELS: readonly Level[] = ['nominal', 'ordinal', 'interval'];

async function ratingsCommand(args: string[], io: Io): Promise<number> {
	const { values, positionals } = parseArgs({
		args,
		allowPositionals: true,
		options: { level: { type: 'string' }, order: { type: 'string' }, ...BOOTSTRAP_OPTIONS }
	});
	const file = oneFile(positionals, 'ratings');
	const level = values.level as Level | undefined;
	if (level !== undefined && !LEVELS.includes(level))
		throw new StatsInputError(`--level must be one of ${LEVELS.join(', ')}`);
	const order = values.order?.split(',').map((v) => v.trim());
	if (order) {
		if (order.some((v) => v === '')) throw new StatsInputError('--order has an empty category');
		const twice = order.find((v, i) => order.indexOf(v) !== i);
		if (twice !== undefined) throw new StatsInputError(`--order names "${twice}" twice`);
	}
	const boot = bootstrapOptions(values);

	const lines = await readCsvFile(file, ['unit', 'rater', 'value']);
	const name = basename(file);
	const firstRating = new Map<string, number>();
	for (const { line, fields } of lines) {
		const key = JSON.stringify([fields.unit, fields.rater]);
		const earlier = firstRating.get(key);
		if (earlier !== undefined)
			throw new StatsInputError(
				`${name} line ${line}: rater "${fields.rater}" already rated unit "${fields.unit}" on line ${earlier}`
			);
		firstRating.set(key, line);
		if (level === 'interval' && csvNumber(fields.value) === null)
			throw new StatsInputError(
				`${name} line ${line}: value "${fields.value}" is not a number (--level interval needs numbers)`
			);
		if (order && !order.includes(fields.value))
			throw new StatsInputError(`${name} line ${line}: value "${fields.value}" is not in --order`);
	}
	// Numbers mixed with words ("3", "n/a") are almost always a slip (a missing rating is an absent
	// row), and they would silently turn a numeric file into categories: refuse them unless the
	// ratings are declared categorical.
	const words = lines.filter((l) => csvNumber(l.fields.value) === null);
	const numeric = words.length === 0;
	if (!numeric && words.length < lines.length && level !== 'nominal' && level !== 'ordinal') {
		const odd =
			words.length * 2 <= lines.length
				? { line: words[0].line, what: 'is not a number, though most values are' }
				: {
						line: lines.find((l) => csvNumber(l.fields.value) !== null)!.line,
						what: 'is a number, though most values are not'
					};
		const { line, fields } = lines.find((l) => l.line === odd.line)!;
		throw new StatsInputError(
			`${name} line ${line}: value "${fields.value}" ${odd.what} (leave out the row of a missing rating, or declare --level nominal or ordinal to read every value as a category)`
		);
	}
	const asValue = (s: string) => (numeric ? (csvNumber(s) ?? s) : s);
	const ratings: Rating[] = lines.map(({ fields }) => ({
		unit: fields.unit,
		rater: fields.rater,
		value: asValue(fields.value)
	}));
	// The order is read like the values, so "1.0" in both still names one category.
	const categories = order?.map(asValue);

	const summary = ratingsSummary(ratings, { order: categories, level });
	let ci: Record<string, Interval> | undefined;
	if (boot) {
		const statistics = ratingStatistics(categories ?? ratingOrder(ratings), level);
		const byUnit = new Map<string, Rating[]>();
		for (const r of ratings) {
			const unit = byUnit.get(r.unit);
			if (unit) unit.push(r);
			else byUnit.set(r.unit, [r]);
		}
		const units = [...byUnit.values()];
		ci = {};
		// Every statistic sees the same resamples (one seed), so the intervals describe one experiment.
		for (const key of RATING_KEYS) {
			const own = summary.stats[key];
			// An interval around an undefined value means nothing (and costs the most time).
			if (own.value === null) {
				ci[key] = { low: null, high: null, reason: 'the statistic is undefined on the data' };
				continue;
			}
			// A unit drawn twice is two units: it gets a fresh id per draw.
			ci[key] = bootstrap(
				units,
				(sample) =>
					statistics[key](sample.flatMap((u, i) => u.map((r) => ({ ...r, unit: String(i) }))))
						.value,
				boot
			);
		}
	}
	const { stats, ...counts } = summary;
	printJson(io, statsJson(counts, stats, ci));
	return 0;
}

/** The subcommands of `cliniq stats`. */
const SUBCOMMANDS: Record<string, StatsCommand> = {
	ratings: ratingsCommand
};

/** Runs `cliniq stats …`; returns the exit status (2 for a malformed file or command line). */
export async function statsCommand(args: string[], io: Io): Promise<number> {
	const [sub, ...rest] = args;
	if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
		io.stdout(STATS_USAGE);
		return sub === undefined ? 1 : 0;
	}
	const command = SUBCOMMANDS[sub];
	if (!command) {
		io.stderr(`Unknown stats subcommand "${sub}".\n\n${STATS_USAGE}`);
		return 1;
	}
	try {
		return await command(rest, io);
	} catch (e) {
		const code = (e as NodeJS.ErrnoException).code;
		if (e instanceof StatsInputError || code?.startsWith('ERR_PARSE_ARGS')) {
			io.stderr(`Error: ${(e as Error).message}`);
			return 2;
		}
		throw e;
	}
}
