// `cliniq stats evidence`: the TREC BioGen figures of an evidence assessment file (the organisers'
// JSON layout) per run — accuracy, sentence precision, redundancy, harmfulness, citation coverage,
// support and contradiction rates, document recall and precision — as the official evaluation
// script computes them, with bootstrap intervals over questions on request.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

import {
	BiogenInputError,
	PERCENT_FIGURES,
	biogenFigures,
	biogenIntervals,
	parseBiogenAssessments,
	pyRound2
} from '$lib/stats/biogen';
import type { Io } from './io';
import { BOOTSTRAP_OPTIONS, StatsInputError, bootstrapOptions, printJson } from './stats-shared';

/** Reads and checks the assessment file; every problem becomes a StatsInputError naming the file. */
async function readAssessments(path: string) {
	const name = basename(path);
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (e) {
		throw new StatsInputError(
			`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`
		);
	}
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (e) {
		throw new StatsInputError(`${name} is not valid JSON: ${(e as Error).message}`);
	}
	try {
		return parseBiogenAssessments(json);
	} catch (e) {
		if (e instanceof BiogenInputError) throw new StatsInputError(`${name}: ${e.message}`);
		throw e;
	}
}

/**
 * `evidence FILE [--bootstrap N --seed S]`: one object {questions, runs: {run: figures}, notes};
 * with --bootstrap each run also has `intervals` ([low, high] per percentage, null with the
 * reason under `intervals_undefined`).
 */
export async function evidenceCommand(args: string[], io: Io): Promise<number> {
	const { values, positionals } = parseArgs({
		args,
		allowPositionals: true,
		options: { ...BOOTSTRAP_OPTIONS }
	});
	if (positionals.length !== 1)
		throw new StatsInputError('Name exactly one JSON file: cliniq stats evidence FILE');
	const boot = bootstrapOptions(values);
	const questions = await readAssessments(positionals[0]);
	const figures = biogenFigures(questions);
	const intervals = boot ? biogenIntervals(questions, boot) : null;
	const runs = Object.entries(figures.runs).map(([run, f]) => {
		const out: Record<string, unknown> = { ...f };
		const ci = intervals?.[run];
		if (ci) {
			const shown: Record<string, [number, number] | null> = {};
			const why: Record<string, string> = {};
			for (const key of PERCENT_FIGURES) {
				const i = ci[key];
				shown[key] = i.low === null ? null : [pyRound2(i.low), pyRound2(i.high)];
				if (i.low === null) why[key] = i.reason;
			}
			out.intervals = shown;
			if (Object.keys(why).length) out.intervals_undefined = why;
		}
		return [run, out] as const;
	});
	printJson(io, {
		questions: figures.questions,
		runs: Object.fromEntries(runs),
		notes: figures.notes,
		...(boot ? { bootstrap: boot } : {})
	});
	return 0;
}
