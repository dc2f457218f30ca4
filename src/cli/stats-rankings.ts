// `cliniq stats rankings|correlate|pairwise`: agreement of rankings, correlation of two columns and
// the pairwise accuracy of a metric against expert ranks, each from a CSV file.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

import { bootstrap } from '$lib/stats/bootstrap';
import { kendallTauB, pearson, spearman } from '$lib/stats/correlation';
import { pairwiseAccuracy } from '$lib/stats/pairwise';
import { meanDefined, questionAgreements } from '$lib/stats/rankings';
import type { Interval, RankRow, Stat } from '$lib/stats/types';
import type { Io } from './io';
import {
	BOOTSTRAP_OPTIONS,
	StatsInputError,
	bootstrapOptions,
	csvNumber,
	oneFile,
	printJson,
	readCsvFile,
	statsJson,
	type CsvLine
} from './stats-shared';

/** The numeric columns of each line, refusing the first value that is not a number. */
function numbers(file: string, lines: CsvLine[], columns: string[]): Record<string, number>[] {
	return lines.map(({ line, fields }) => {
		const out: Record<string, number> = {};
		for (const c of columns) {
			const n = csvNumber(fields[c]);
			if (n === null)
				throw new StatsInputError(
					`${basename(file)} line ${line}: ${c} "${fields[c]}" is not a number`
				);
			out[c] = n;
		}
		return out;
	});
}

/** Refuses a line that repeats the key of an earlier one, naming both lines. */
function refuseRepeats(
	file: string,
	lines: CsvLine[],
	key: string[],
	what: (f: Record<string, string>) => string
) {
	const first = new Map<string, number>();
	for (const { line, fields } of lines) {
		const k = JSON.stringify(key.map((c) => fields[c]));
		const earlier = first.get(k);
		if (earlier !== undefined)
			throw new StatsInputError(
				`${basename(file)} line ${line}: ${what(fields)} already on line ${earlier}`
			);
		first.set(k, line);
	}
}

/** `rankings FILE [--bootstrap N --seed S]`: Kendall's W per question and its mean, mean pairwise tau-b. */
export async function rankingsCommand(args: string[], io: Io): Promise<number> {
	const { values, positionals } = parseArgs({
		args,
		allowPositionals: true,
		options: BOOTSTRAP_OPTIONS
	});
	const file = oneFile(positionals, 'rankings');
	const boot = bootstrapOptions(values);
	const lines = await readCsvFile(file, ['question', 'rater', 'candidate', 'rank']);
	refuseRepeats(
		file,
		lines,
		['question', 'rater', 'candidate'],
		(f) => `rater "${f.rater}" ranked candidate "${f.candidate}" of question "${f.question}"`
	);
	const ranks = numbers(file, lines, ['rank']);
	const rows: RankRow[] = lines.map(({ fields }, i) => ({
		question: fields.question,
		rater: fields.rater,
		candidate: fields.candidate,
		rank: ranks[i].rank
	}));

	const agreements = questionAgreements(rows);
	const byQuestion: Record<string, number | null> = {};
	const byQuestionReasons: Record<string, string> = {};
	for (const { question, w } of agreements) {
		byQuestion[question] = w.value;
		if (w.value === null) byQuestionReasons[question] = w.reason;
	}
	const stats: Record<string, Stat> = {
		kendall_w_mean: meanDefined(
			agreements.map((a) => a.w),
			'Kendall W'
		),
		mean_pairwise_tau_b: meanDefined(
			agreements.map((a) => a.tau),
			'pairwise tau-b'
		)
	};
	let ci: Record<string, Interval> | undefined;
	if (boot) {
		// Questions are the units; each question's W and tau-b are computed once, so a resample
		// only averages them. Both keys see the same resamples (one seed).
		const w = agreements.map((a) => a.w.value);
		const tau = agreements.map((a) => a.tau.value);
		const index = agreements.map((_, i) => i);
		const meanOf = (values: (number | null)[]) => (sample: number[]) => {
			let sum = 0;
			let count = 0;
			for (const i of sample) {
				const v = values[i];
				if (v !== null) {
					sum += v;
					count++;
				}
			}
			return count ? sum / count : null;
		};
		ci = {
			kendall_w_mean: bootstrap(index, meanOf(w), boot),
			mean_pairwise_tau_b: bootstrap(index, meanOf(tau), boot)
		};
	}
	const { undefined: reasons, ...rest } = statsJson(
		{ questions: agreements.length, kendall_w_by_question: byQuestion },
		stats,
		ci
	);
	// Reasons mirror the output: a question's null W is explained at undefined.kendall_w_by_question.
	const why = {
		...(Object.keys(byQuestionReasons).length ? { kendall_w_by_question: byQuestionReasons } : {}),
		...(reasons as Record<string, string> | undefined)
	};
	const { ci: intervals, ci_undefined, ...head } = rest;
	printJson(io, {
		...head,
		...(Object.keys(why).length ? { undefined: why } : {}),
		...(intervals ? { ci: intervals } : {}),
		...(ci_undefined ? { ci_undefined } : {})
	});
	return 0;
}

/** `correlate FILE`: Pearson, Spearman and Kendall's tau-b of the columns x and y. */
export async function correlateCommand(args: string[], io: Io): Promise<number> {
	const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
	const file = oneFile(positionals, 'correlate');
	const pairs = numbers(file, await readCsvFile(file, ['x', 'y']), ['x', 'y']);
	const x = pairs.map((p) => p.x);
	const y = pairs.map((p) => p.y);
	printJson(
		io,
		statsJson(
			{ n: pairs.length },
			{ pearson: pearson(x, y), spearman: spearman(x, y), kendall_tau_b: kendallTauB(x, y) }
		)
	);
	return 0;
}

/** `pairwise FILE`: how often the metric orders two candidates of a question as the experts did. */
export async function pairwiseCommand(args: string[], io: Io): Promise<number> {
	const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
	const file = oneFile(positionals, 'pairwise');
	const lines = await readCsvFile(file, ['question', 'candidate', 'expert_rank', 'metric']);
	refuseRepeats(
		file,
		lines,
		['question', 'candidate'],
		(f) => `candidate "${f.candidate}" of question "${f.question}" is`
	);
	const values = numbers(file, lines, ['expert_rank', 'metric']);
	const { accuracy, ...counts } = pairwiseAccuracy(
		lines.map(({ fields }, i) => ({
			question: fields.question,
			candidate: fields.candidate,
			expertRank: values[i].expert_rank,
			metric: values[i].metric
		}))
	);
	printJson(io, statsJson(counts, { accuracy }));
	return 0;
}
