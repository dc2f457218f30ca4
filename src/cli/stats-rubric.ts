// `cliniq stats rubric`: the figures of a rubric study (agreement between physicians per sub-aspect
// and aspect, model means, score distributions, position bias, automatic judges against the
// physicians) from the rubric score export and, optionally, the judges' scores — the same
// functions of src/lib/stats the agreement page and the bundle use.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

import { judgeAgreement, rankJudges, type JudgeScoreRow } from '$lib/stats/judges';
import {
	modelMeans,
	positionBias,
	rubricAgreement,
	scoreDistributions,
	type BootstrapOptions,
	type Estimate,
	type RubricShape,
	type ScoreRow
} from '$lib/stats/rubric';
import type { Interval, Stat } from '$lib/stats/types';
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

/** The columns `cliniq stats rubric` needs in the scores file (the rubric export has them all). */
export const RUBRIC_SCORE_COLUMNS = [
	'question_id',
	'candidate_id',
	'model',
	'physician',
	'aspect',
	'sub_aspect',
	'score'
] as const;
/** The columns of the judges file. */
export const RUBRIC_JUDGE_COLUMNS = ['judge', 'question_id', 'candidate_id', 'criterion', 'score'];

/** Refuses a line that repeats the key of an earlier one, naming both lines. */
function refuseRepeats(name: string, lines: CsvLine[], key: string[], what: string) {
	const first = new Map<string, number>();
	for (const { line, fields } of lines) {
		const k = JSON.stringify(key.map((c) => fields[c]));
		const earlier = first.get(k);
		if (earlier !== undefined)
			throw new StatsInputError(
				`${name} line ${line}: ${what} ${key.map((c) => `${c} "${fields[c]}"`).join(', ')} already on line ${earlier}`
			);
		first.set(k, line);
	}
}

function numberAt(name: string, line: number, column: string, value: string): number {
	const n = csvNumber(value);
	if (n === null)
		throw new StatsInputError(`${name} line ${line}: ${column} "${value}" is not a number`);
	return n;
}

/** `--scale MIN-MAX`: two whole numbers, MIN < MAX. */
function readScale(text: string): { min: number; max: number } {
	const m = /^(-?\d+)-(-?\d+)$/.exec(text.trim());
	if (!m || Number(m[1]) >= Number(m[2]))
		throw new StatsInputError(
			'--scale must be MIN-MAX with two whole numbers, MIN < MAX (e.g. 0-5)'
		);
	return { min: Number(m[1]), max: Number(m[2]) };
}

/**
 * The score rows and the rubric's shape: aspects and their sub-aspects in order of first
 * appearance. Each physician's slot in a question is the `slot` column when present, else their
 * place by `submitted_at` when present (ties by name), else left to the statistics (raters ranked by
 * name): the page numbers judgements in submission order, which the export's timestamps give.
 */
function readScores(name: string, lines: CsvLine[]): { rows: ScoreRow[]; shape: RubricShape } {
	refuseRepeats(
		name,
		lines,
		['question_id', 'candidate_id', 'physician', 'sub_aspect'],
		'a second score with'
	);
	const aspects = new Map<string, string[]>();
	const aspectOf = new Map<string, string>();
	for (const { line, fields } of lines) {
		const known = aspectOf.get(fields.sub_aspect);
		if (known !== undefined && known !== fields.aspect)
			throw new StatsInputError(
				`${name} line ${line}: sub-aspect "${fields.sub_aspect}" is under aspect "${fields.aspect}" here but "${known}" above`
			);
		if (known === undefined) {
			aspectOf.set(fields.sub_aspect, fields.aspect);
			if (!aspects.has(fields.aspect)) aspects.set(fields.aspect, []);
			aspects.get(fields.aspect)!.push(fields.sub_aspect);
		}
	}
	const slots = new Map<string, number>();
	const hasSlot = lines.length > 0 && 'slot' in lines[0].fields;
	const hasTime = lines.length > 0 && 'submitted_at' in lines[0].fields;
	if (!hasSlot && hasTime) {
		const byQuestion = new Map<string, Map<string, string>>();
		for (const { fields } of lines) {
			let q = byQuestion.get(fields.question_id);
			if (!q) byQuestion.set(fields.question_id, (q = new Map()));
			const at = q.get(fields.physician);
			if (at === undefined || fields.submitted_at < at)
				q.set(fields.physician, fields.submitted_at);
		}
		for (const [question, physicians] of byQuestion) {
			const order = [...physicians].sort(([pa, ta], [pb, tb]) =>
				ta < tb ? -1 : ta > tb ? 1 : pa < pb ? -1 : pa > pb ? 1 : 0
			);
			order.forEach(([p], i) => slots.set(JSON.stringify([question, p]), i + 1));
		}
	}
	const rows = lines.map(({ line, fields }): ScoreRow => {
		const side = fields.side ?? '';
		if (side !== '' && side !== 'left' && side !== 'right')
			throw new StatsInputError(`${name} line ${line}: side "${side}" is not left, right or empty`);
		const slot = hasSlot
			? numberAt(name, line, 'slot', fields.slot)
			: slots.get(JSON.stringify([fields.question_id, fields.physician]));
		return {
			question: fields.question_id,
			candidate: fields.candidate_id,
			model: fields.model,
			rater: fields.physician,
			subAspect: fields.sub_aspect,
			score: numberAt(name, line, 'score', fields.score),
			side: side === '' ? null : side,
			...(slot === undefined ? {} : { slot })
		};
	});
	return {
		rows,
		shape: {
			aspects: [...aspects].map(([code, subAspects]) => ({ code, subAspects })),
			scale: { min: 0, max: 0 }
		}
	};
}

function readJudges(name: string, lines: CsvLine[], shape: RubricShape): JudgeScoreRow[] {
	refuseRepeats(
		name,
		lines,
		['judge', 'question_id', 'candidate_id', 'criterion'],
		'a second score with'
	);
	const known = new Set(['overall', ...shape.aspects.flatMap((a) => a.subAspects)]);
	return lines.map(({ line, fields }) => {
		if (!known.has(fields.criterion))
			throw new StatsInputError(
				`${name} line ${line}: criterion "${fields.criterion}" is neither a sub-aspect of the scores file nor overall`
			);
		return {
			judge: fields.judge,
			question: fields.question_id,
			candidate: fields.candidate_id,
			subAspect: fields.criterion,
			score: numberAt(name, line, 'score', fields.score)
		};
	});
}

/** One object per result: its counts, each statistic (null with its reason) and, with --bootstrap, its interval. */
function estimatesJson(
	counts: Record<string, unknown>,
	estimates: Record<string, Estimate>,
	withIntervals: boolean
) {
	const stats: Record<string, Stat> = {};
	const ci: Record<string, Interval> = {};
	for (const [k, e] of Object.entries(estimates)) {
		stats[k] = e.stat;
		ci[k] = e.interval;
	}
	return statsJson(counts, stats, withIntervals ? ci : undefined);
}

/**
 * `rubric SCORES [--judges FILE] [--scale MIN-MAX] [--bootstrap N --seed S]`: every figure of the
 * rubric report, as the agreement page shows it.
 */
export async function rubricCommand(args: string[], io: Io): Promise<number> {
	const { values, positionals } = parseArgs({
		args,
		allowPositionals: true,
		options: { judges: { type: 'string' }, scale: { type: 'string' }, ...BOOTSTRAP_OPTIONS }
	});
	const file = oneFile(positionals, 'rubric');
	const boot = bootstrapOptions(values);
	const name = basename(file);
	const lines = await readCsvFile(file, RUBRIC_SCORE_COLUMNS);
	if (lines.length === 0) throw new StatsInputError(`${name} has no scores`);
	const { rows, shape } = readScores(name, lines);
	const scores = rows.map((r) => r.score);
	const observed = { min: Math.min(...scores), max: Math.max(...scores) };
	shape.scale = values.scale ? readScale(values.scale) : observed;
	if (!Number.isInteger(shape.scale.min) || !Number.isInteger(shape.scale.max))
		throw new StatsInputError(
			`${name}: the scores run from ${observed.min} to ${observed.max}; name the whole-number scale with --scale MIN-MAX`
		);
	const judgeRows = values.judges
		? readJudges(
				basename(values.judges),
				await readCsvFile(values.judges, RUBRIC_JUDGE_COLUMNS),
				shape
			)
		: [];
	// The statistics always compute their intervals; without --bootstrap one resample is drawn and
	// its intervals are left out of the output (the values do not depend on it).
	const opts: BootstrapOptions = boot ?? { resamples: 1, seed: 'none' };
	const ci = boot !== null;
	const judged = judgeRows.length ? judgeAgreement(rows, judgeRows, shape, opts) : [];
	const levels = Array.from(
		{ length: shape.scale.max - shape.scale.min + 1 },
		(_, i) => shape.scale.min + i
	);
	printJson(io, {
		scores: rows.length,
		sheets: new Set(rows.map((r) => JSON.stringify([r.question, r.rater]))).size,
		questions: new Set(rows.map((r) => r.question)).size,
		physicians: new Set(rows.map((r) => r.rater)).size,
		shape,
		agreement: rubricAgreement(rows, shape, opts).map((a) =>
			estimatesJson(
				{
					key: a.key,
					kind: a.kind,
					units: a.units,
					raters: a.raters,
					slots: a.slots,
					notes: a.notes
				},
				{
					icc2_1: a.icc2_1,
					icc2_k: a.icc2_k,
					alpha_ordinal: a.alpha_ordinal,
					alpha_interval: a.alpha_interval,
					qwk: a.qwk
				},
				ci
			)
		),
		models: modelMeans(rows, shape, opts).map((m) =>
			estimatesJson(
				{ model: m.model, key: m.key, kind: m.kind, n: m.n },
				{ mean: { stat: m.mean, interval: m.interval } },
				ci
			)
		),
		distributions: scoreDistributions(rows, shape).map((d) => ({
			key: d.key,
			model: d.model ?? 'all',
			counts: Object.fromEntries(levels.map((l, i) => [String(l), d.counts[i]])),
			off_scale: d.offScale
		})),
		position_bias: positionBias(rows, opts).map((p) =>
			estimatesJson(
				{
					key: p.key,
					pairs: p.pairs,
					left_higher: p.leftHigher,
					right_higher: p.rightHigher,
					ties: p.ties
				},
				{ mean_difference: { stat: p.meanDifference, interval: p.interval } },
				ci
			)
		),
		judges: judged.map((j) =>
			estimatesJson(
				{ judge: j.judge, key: j.key, kind: j.kind, answers: j.answers, pairs: j.pairs },
				{
					pairwise_accuracy: { stat: j.pairwiseAccuracy, interval: j.pairwiseInterval },
					pearson: { stat: j.pearson, interval: j.pearsonInterval },
					icc2_1: { stat: j.icc, interval: j.iccInterval }
				},
				ci
			)
		),
		judge_ranking: rankJudges(judged).map((j) => j.judge),
		bootstrap: boot
	});
	return 0;
}
