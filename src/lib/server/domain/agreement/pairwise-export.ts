// A pairwise study's part of the agreement exports: its tables, the compared leaderboards of any
// study, and its judgements as `battles.csv` (the `cliniq stats bt` input) and `preferences.csv`.
import type { Db } from '../../db/client';
import { toCsv } from '../../csv';
import { preferenceRows, type ComparedLeaderboard, type PairwiseReport } from '../studies';
import { tooFewUnits } from '../../../stats/bootstrap';
import { preferenceBattles } from '../../../stats/preference';
import { estimateCells, ESTIMATE_COLUMNS, statCells, type Table } from './tables';

const csvOf = (columns: string[], rows: Record<string, unknown>[]) => toCsv(columns, rows);

/** A Bradley–Terry leaderboard's rows; no interval or rank range over too few questions. */
function boardRows(rows: ComparedLeaderboard['rows'], questions: number) {
	const few = tooFewUnits(questions, 'judged questions');
	return rows.map((r, i) => {
		const interval = r.rating.value === null ? r.interval : (few ?? r.interval);
		const ranged = interval.low !== null;
		return {
			position: i + 1,
			model: r.model,
			...estimateCells({ stat: r.rating, interval }),
			rank_best: ranged ? r.rankBest : null,
			rank_worst: ranged ? r.rankWorst : null
		};
	});
}

const BOARD_COLUMNS = ['model', ...ESTIMATE_COLUMNS, 'rank_best', 'rank_worst'];

const SHARE_COLUMNS = ['hits', 'n', 'share', 'low', 'high', 'level', 'reason'];

function shareCells(p: PairwiseReport['verbosityBias']['overall']) {
	return {
		hits: p.hits,
		n: p.n,
		share: p.share.value,
		low: p.interval?.low ?? null,
		high: p.interval?.high ?? null,
		level: p.interval?.level ?? null,
		reason: p.share.reason ?? null
	};
}

/** A pairwise study's tables, by name (see DEFINITIONS in export.ts for each number). */
export function pairwiseTables(r: PairwiseReport): Record<string, Table> {
	const questions = r.leaderboard.questions;
	const sc = r.styleControlled;
	const styleBoard = sc
		? Object.keys(sc.ratings)
				.map((model) => ({
					model,
					rating: sc.ratings[model],
					interval: sc.intervals?.ratings[model] ?? {
						low: null,
						high: null,
						reason: 'no bootstrap requested'
					},
					rankBest: null,
					rankWorst: null
				}))
				.sort(
					(a, b) =>
						(b.rating.value ?? -Infinity) - (a.rating.value ?? -Infinity) ||
						a.model.localeCompare(b.model)
				)
		: [];
	return {
		pairwise_leaderboard: {
			columns: ['board', 'questions', 'battles', 'position', ...BOARD_COLUMNS],
			rows: [
				{ board: 'overall', leaderboard: r.leaderboard },
				...r.aspects.map((a) => ({ board: `aspect ${a.code}`, leaderboard: a.leaderboard }))
			].flatMap(({ board, leaderboard }) =>
				boardRows(leaderboard.rows, leaderboard.questions).map((row) => ({
					board,
					questions: leaderboard.questions,
					battles: leaderboard.battles,
					...row
				}))
			)
		},
		pairwise_leaderboard_length_controlled: {
			columns: [
				'position',
				'model',
				...ESTIMATE_COLUMNS,
				'length_coefficient',
				'length_low',
				'length_high',
				'length_reason'
			],
			rows: boardRows(styleBoard, questions).map((row) => {
				const gamma = sc!.intervals?.lengthCoefficient;
				return {
					...row,
					length_coefficient: sc!.lengthCoefficient.value,
					length_low: gamma?.low ?? null,
					length_high: gamma?.high ?? null,
					length_reason: sc!.lengthCoefficient.reason ?? null
				};
			})
		},
		pairwise_matrix: {
			columns: ['model', 'opponent', 'wins', 'ties', 'losses', 'n', 'win_share', 'reason'],
			rows: r.matrix.cells.map((c) => ({
				model: c.a,
				opponent: c.b,
				wins: c.wins,
				ties: c.ties,
				losses: c.losses,
				n: c.n,
				win_share: c.share.value,
				reason: c.share.reason ?? null
			}))
		},
		pairwise_position_bias: {
			columns: ['physician', 'ties', ...SHARE_COLUMNS, 'flagged'],
			rows: [r.positionBias.overall, ...r.positionBias.raters].map((p) => ({
				physician: p.rater ?? 'all',
				ties: p.ties,
				...shareCells(p),
				flagged: p.flagged
			}))
		},
		pairwise_verbosity_bias: {
			columns: ['band', 'ratio_low', 'ratio_high', ...SHARE_COLUMNS],
			rows: [
				{ band: 'all', ratio_low: null, ratio_high: null, ...shareCells(r.verbosityBias.overall) },
				...r.verbosityBias.bands.map((b) => ({
					band: b.high === null ? `>=${b.low}` : `${b.low}-${b.high}`,
					ratio_low: b.low,
					ratio_high: b.high,
					...shareCells(b)
				}))
			]
		},
		pairwise_agreement: {
			columns: ['coding', 'statistic', 'units', 'pairable_units', 'raters', 'value', 'reason'],
			rows: (['threeWay', 'fourWay'] as const).flatMap((coding) =>
				(['percentAgreement', 'cohenKappa', 'fleissKappa', 'alphaNominal'] as const).map(
					(statistic) => ({
						coding: coding === 'threeWay' ? 'three_way' : 'four_way',
						statistic: STAT_NAMES[statistic],
						units: r.agreement.units,
						pairable_units: r.agreement.pairableUnits,
						raters: r.agreement.raters,
						...statCells(r.agreement[coding][statistic])
					})
				)
			)
		},
		pairwise_judges: {
			columns: [
				'judge',
				'pairs',
				'agreement',
				'majority_pairs',
				'majority_agreement',
				'kappa',
				'reasons'
			],
			rows: r.judges.map((j) => ({
				judge: j.judge,
				pairs: j.pairs,
				agreement: j.agreement.value,
				majority_pairs: j.majorityPairs,
				majority_agreement: j.majorityAgreement.value,
				kappa: j.kappa.value,
				reasons:
					[j.agreement.reason, j.majorityAgreement.reason, j.kappa.reason]
						.filter(Boolean)
						.join('; ') || null
			}))
		}
	};
}

const STAT_NAMES = {
	percentAgreement: 'percent_agreement',
	cohenKappa: 'cohen_kappa',
	fleissKappa: 'fleiss_kappa',
	alphaNominal: 'alpha_nominal'
} as const;

/** The Bradley–Terry leaderboards of a study and of the studies sharing its questions, as one table. */
export function comparedLeaderboardTables(boards: {
	own: ComparedLeaderboard[];
	others: ComparedLeaderboard[];
}): Record<string, Table> {
	return {
		compared_leaderboards: {
			columns: [
				'scope',
				'study_id',
				'study',
				'design',
				'leaderboard',
				'questions',
				'battles',
				'position',
				...BOARD_COLUMNS
			],
			rows: [
				...boards.own.map((b) => ({ scope: 'this study', b })),
				...boards.others.map((b) => ({ scope: 'shared questions', b }))
			].flatMap(({ scope, b }) =>
				boardRows(b.rows, b.questions).map((row) => ({
					scope,
					study_id: b.studyId,
					study: b.study,
					design: b.design,
					leaderboard: b.label,
					questions: b.questions,
					battles: b.battles,
					...row
				}))
			)
		}
	};
}

/**
 * A pairwise study's judgements: `battles.csv` in the `cliniq stats bt` format (model_a is the
 * left answer; the lengths let it fit the length-controlled leaderboard too) and
 * `preferences.csv`, one row per judgement with its physician (renamed physician-1, -2 … by first
 * appearance), sides and outcome.
 */
export async function rawPairwiseFiles(db: Db, studyId: number) {
	const rows = await preferenceRows(db, studyId);
	const battles = preferenceBattles(rows);
	const names = new Map<string, string>();
	for (const r of rows) if (!names.has(r.rater)) names.set(r.rater, `physician-${names.size + 1}`);
	return [
		{
			name: 'battles.csv',
			content: csvOf(
				['question', 'model_a', 'model_b', 'winner', 'length_a', 'length_b'],
				battles.map((b, i) => ({
					question: b.question,
					model_a: b.modelA,
					model_b: b.modelB,
					winner: b.winner,
					length_a: rows[i].leftLength,
					length_b: rows[i].rightLength
				}))
			)
		},
		{
			name: 'preferences.csv',
			content: csvOf(
				['question', 'physician', 'left', 'right', 'outcome', 'left_length', 'right_length'],
				rows.map((r) => ({
					question: r.question,
					physician: names.get(r.rater),
					left: r.left,
					right: r.right,
					outcome: r.outcome,
					left_length: r.leftLength,
					right_length: r.rightLength
				}))
			)
		}
	];
}
