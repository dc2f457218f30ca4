// `cliniq stats`: agreement and ranking statistics on CSV files, printed as one JSON object.
// The statistics live in src/lib/stats; reading the files and shaping the output is shared by
// every subcommand (stats-shared.ts); the ranking subcommands are in stats-rankings.ts, the
// rubric one in stats-rubric.ts, Bradley–Terry in stats-bt.ts and the evidence (TREC BioGen)
// figures, read from a JSON assessment file, in stats-evidence.ts.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

import { ratingsSummary } from '$lib/stats/ratings';
import { ratingIntervals } from '$lib/stats/ratings-bootstrap';
import type { Interval, Level, Rating } from '$lib/stats/types';
import { commandLineError, wantsHelp, type Io } from './io';
import {
	BOOTSTRAP_OPTIONS,
	StatsInputError,
	bootstrapOptions,
	csvNumber,
	oneFile,
	printJson,
	readCsvFile,
	statsJson,
	type StatsCommand
} from './stats-shared';

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
  cliniq stats rubric FILE [--judges FILE] [--scale MIN-MAX] [--bootstrap N --seed S]
      columns question_id,candidate_id,model,physician,aspect,sub_aspect,score (optional side, slot,
      submitted_at; the rubric export has them): agreement per sub-aspect and aspect (ICC(2,1),
      ICC(2,k), alpha ordinal and interval, QWK), model means, score distributions, position bias;
      --judges columns judge,question_id,candidate_id,criterion,score: each judge's pairwise
      accuracy, Pearson r and ICC against the physicians' mean. --scale defaults to the scores' min-max
  cliniq stats bt FILE [--bootstrap N --seed S]
      columns question,model_a,model_b,winner (model_a, model_b, tie, tie (bothbad)); optional
      length_a,length_b: Bradley–Terry ratings (FastChat: base 10, scale 400, mean 1000), with
      --bootstrap intervals over questions and rank ranges; with lengths also the length-controlled
      ratings and the length coefficient ("style_controlled")
  cliniq stats evidence FILE [--bootstrap N --seed S]
      the TREC BioGen assessment layout (JSON: question_id, machine_generated_answers per run with
      is_answer_accurate and answer_sentences judged for relevance and citation support): per run
      accuracy, precision, redundancy, harmfulness, citation coverage, support and contradiction
      rates, document recall and precision in percent, as the official script medaesqa_eval.py
      computes them; "notes" names each case it leaves undefined; --bootstrap adds "intervals"

An undefined statistic is null and named with its reason under "undefined". --bootstrap N --seed S
adds "ci": 95 % percentile intervals from N resamples of units (items or questions).
A malformed file is refused with its line number (exit status 2); an assessment file with where it
goes wrong (question, run, sentence).`;

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
	// Every statistic sees the same resamples (one seed), so the intervals describe one experiment;
	// one undefined on the data gets no interval (it would mean nothing).
	const ci: Record<string, Interval> | undefined = boot
		? ratingIntervals(ratings, { order: categories, level, ...boot })
		: undefined;
	const { stats, ...counts } = summary;
	printJson(io, statsJson(counts, stats, ci));
	return 0;
}

/** The subcommands of `cliniq stats`, each loaded when it runs. */
const SUBCOMMANDS: Record<string, StatsCommand> = {
	ratings: ratingsCommand,
	rankings: async (args, io) => (await import('./stats-rankings')).rankingsCommand(args, io),
	correlate: async (args, io) => (await import('./stats-rankings')).correlateCommand(args, io),
	pairwise: async (args, io) => (await import('./stats-rankings')).pairwiseCommand(args, io),
	rubric: async (args, io) => (await import('./stats-rubric')).rubricCommand(args, io),
	bt: async (args, io) => (await import('./stats-bt')).btCommand(args, io),
	evidence: async (args, io) => (await import('./stats-evidence')).evidenceCommand(args, io)
};

/** One subcommand's usage: its lines of STATS_USAGE, and what every subcommand shares. */
export function statsSubcommandUsage(sub: string): string {
	const lines = STATS_USAGE.split('\n');
	const start = lines.findIndex((l) => l.startsWith(`  cliniq stats ${sub} `));
	let end = start + 1;
	while (end < lines.length && lines[end].startsWith('      ')) end++;
	const shared = STATS_USAGE.slice(STATS_USAGE.indexOf('\n\nAn undefined statistic'));
	return `Usage:\n${lines.slice(start, end).join('\n')}${shared}`;
}

/** Runs `cliniq stats …`; returns the exit status (2 for a malformed file or command line). */
export async function statsCommand(args: string[], io: Io): Promise<number> {
	const [sub, ...rest] = args;
	if (sub === 'help' || sub === '--help' || sub === '-h') {
		io.stdout(STATS_USAGE);
		return 0;
	}
	if (sub === undefined) {
		io.stderr(`Name a stats subcommand.\n\n${STATS_USAGE}`);
		return 2;
	}
	const command = Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
	if (!command) {
		io.stderr(
			`Unknown stats subcommand "${sub}": use ${Object.keys(SUBCOMMANDS).join('|')} (cliniq stats --help).`
		);
		return 2;
	}
	if (wantsHelp(rest)) {
		io.stdout(statsSubcommandUsage(sub));
		return 0;
	}
	try {
		return await command(rest, io);
	} catch (e) {
		const refused = commandLineError(e, `stats ${sub}`);
		if (e instanceof StatsInputError || refused) {
			io.stderr(`Error: ${(refused ?? (e as Error)).message}`);
			return 2;
		}
		throw e;
	}
}
