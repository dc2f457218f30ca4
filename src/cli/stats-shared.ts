// What every `cliniq stats` subcommand shares: reading a CSV file line by line with errors that
// name the line, the --bootstrap options, and the shape of the JSON printed.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ParseArgsConfig } from 'node:util';

import { parseCsv } from '$lib/server/csv';
import type { Interval, Stat } from '$lib/stats/types';
import type { Io } from './io';

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
