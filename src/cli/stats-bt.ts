// `cliniq stats bt`: Bradley–Terry ratings of pairwise battles (FastChat's definition), with
// bootstrap intervals over questions and rank ranges, and — when the answers' lengths are given —
// the length-controlled ratings (LMArena's style control). The same functions of src/lib/stats
// the pairwise study's page uses.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

import {
	BATTLE_WINNERS,
	bradleyTerry,
	btLeaderboard,
	type Battle,
	type BattleWinner
} from '$lib/stats/bradley-terry';
import { styleControlledBt, type LengthBattle } from '$lib/stats/style-control';
import type { Interval, Stat } from '$lib/stats/types';
import type { Io } from './io';
import {
	BOOTSTRAP_OPTIONS,
	StatsInputError,
	bootstrapOptions,
	csvNumber,
	oneFile,
	printJson,
	readCsvFile
} from './stats-shared';

/** The columns `cliniq stats bt` needs; `length_a,length_b` (characters) are optional. */
export const BT_COLUMNS = ['question', 'model_a', 'model_b', 'winner'] as const;

/** Values by model (null when undefined), with the reasons of the undefined ones. */
function byModel(stats: Record<string, Stat>): {
	values: Record<string, number | null>;
	reasons: Record<string, string>;
} {
	const values: Record<string, number | null> = {};
	const reasons: Record<string, string> = {};
	for (const [m, s] of Object.entries(stats)) {
		values[m] = s.value;
		if (s.value === null) reasons[m] = s.reason;
	}
	return { values, reasons };
}

/** Intervals by model as [low, high] (null when there is none), with the reasons. */
function intervalsByModel(intervals: Record<string, Interval>): {
	values: Record<string, [number, number] | null>;
	reasons: Record<string, string>;
} {
	const values: Record<string, [number, number] | null> = {};
	const reasons: Record<string, string> = {};
	for (const [m, i] of Object.entries(intervals)) {
		values[m] = i.low === null ? null : [i.low, i.high];
		if (i.low === null) reasons[m] = i.reason;
	}
	return { values, reasons };
}

/**
 * `bt FILE [--bootstrap N --seed S]`: columns question,model_a,model_b,winner (FastChat's labels
 * model_a, model_b, tie, tie (bothbad)), optional length_a,length_b.
 */
export async function btCommand(args: string[], io: Io): Promise<number> {
	const { values, positionals } = parseArgs({
		args,
		allowPositionals: true,
		options: { ...BOOTSTRAP_OPTIONS }
	});
	const file = oneFile(positionals, 'bt');
	const boot = bootstrapOptions(values);
	const name = basename(file);
	const lines = await readCsvFile(file, BT_COLUMNS);
	if (lines.length === 0) throw new StatsInputError(`${name} has no battles`);
	const columns = Object.keys(lines[0].fields);
	const withLengths = columns.includes('length_a') || columns.includes('length_b');
	if (withLengths && !(columns.includes('length_a') && columns.includes('length_b')))
		throw new StatsInputError(`${name} line 1: give both length_a and length_b, or neither`);
	const battles: LengthBattle[] = lines.map(({ line, fields }) => {
		const fail = (message: string) => new StatsInputError(`${name} line ${line}: ${message}`);
		if (!(BATTLE_WINNERS as readonly string[]).includes(fields.winner))
			throw fail(`winner "${fields.winner}" is not one of ${BATTLE_WINNERS.join(', ')}`);
		if (fields.model_a === fields.model_b)
			throw fail(`model_a and model_b are both "${fields.model_a}": a model against itself`);
		const length = (column: string) => {
			const n = csvNumber(fields[column]);
			if (n === null || n < 0) throw fail(`${column} "${fields[column]}" is not a length ≥ 0`);
			return n;
		};
		return {
			question: fields.question,
			modelA: fields.model_a,
			modelB: fields.model_b,
			winner: fields.winner as BattleWinner,
			lengthA: withLengths ? length('length_a') : 0,
			lengthB: withLengths ? length('length_b') : 0
		};
	});
	const plain: Battle[] = battles.map(({ question, modelA, modelB, winner }) => ({
		question,
		modelA,
		modelB,
		winner
	}));
	const fit = bradleyTerry(plain);
	const ratings = byModel(fit.ratings);
	const out: Record<string, unknown> = {
		battles: fit.battles,
		questions: new Set(plain.map((b) => b.question)).size,
		models: fit.models,
		ratings: ratings.values
	};
	if (Object.keys(ratings.reasons).length) out.undefined = { ratings: ratings.reasons };
	if (boot) {
		const board = btLeaderboard(plain, boot);
		const ci = intervalsByModel(Object.fromEntries(board.rows.map((r) => [r.model, r.interval])));
		out.ci = { ratings: ci.values };
		if (Object.keys(ci.reasons).length) out.ci_undefined = { ratings: ci.reasons };
		out.rank_ranges = Object.fromEntries(
			board.rows.map((r) => [r.model, r.rankBest === null ? null : [r.rankBest, r.rankWorst]])
		);
	}
	if (withLengths) {
		const sc = styleControlledBt(battles, boot ?? undefined);
		const scRatings = byModel(sc.ratings);
		const controlled: Record<string, unknown> = {
			ratings: scRatings.values,
			length_coefficient: sc.lengthCoefficient.value,
			length_feature: sc.lengthFeature
		};
		const reasons: Record<string, unknown> = {};
		if (Object.keys(scRatings.reasons).length) reasons.ratings = scRatings.reasons;
		if (sc.lengthCoefficient.value === null)
			reasons.length_coefficient = sc.lengthCoefficient.reason;
		if (Object.keys(reasons).length) controlled.undefined = reasons;
		if (sc.intervals) {
			const ci = intervalsByModel(sc.intervals.ratings);
			const g = sc.intervals.lengthCoefficient;
			controlled.ci = {
				ratings: ci.values,
				length_coefficient: g.low === null ? null : [g.low, g.high]
			};
			const why: Record<string, unknown> = {};
			if (Object.keys(ci.reasons).length) why.ratings = ci.reasons;
			if (g.low === null) why.length_coefficient = g.reason;
			if (Object.keys(why).length) controlled.ci_undefined = why;
		}
		out.style_controlled = controlled;
	}
	out.bootstrap = boot;
	printJson(io, out);
	return 0;
}
