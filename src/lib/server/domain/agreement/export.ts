import type { Db } from '../../db/client';
import {
	rubricScoreRows,
	STYLE_RESAMPLES,
	studyJudgeInput,
	subAspectsOf,
	type ComparedLeaderboard,
	type EvidenceReport,
	type PairwiseReport,
	type RubricReport
} from '../studies';
import { toCsv } from '../../csv';
import { zipStore } from '../../zip';
import {
	candidateScores,
	rankingJudgements,
	reviewJudgements,
	METRIC_KEYS,
	type RankingJudgement
} from './extract';
import { pairwiseRows, REFERENCE_LABEL, TAG_ORDER, type StudyAgreement } from './study';
import {
	RELEVANCE_ORDER,
	RELEVANCE_STATS,
	VERDICT_STATS,
	type PairAgreement,
	type VerificationAgreement
} from './verification';
import { comparedLeaderboardTables, pairwiseTables, rawPairwiseFiles } from './pairwise-export';
import { evidenceTables, rawEvidenceFiles } from './evidence-export';
import {
	excludedCounts,
	excludedReviewCounts,
	excludedSentence,
	type ExcludedCounts
} from '../exclusions';
import { estimateCells, ESTIMATE_COLUMNS, statCells, type Table } from './tables';

export type { Table };
export { comparedLeaderboardTables, evidenceTables, pairwiseTables };

function pairRows(scope: string, group: string, a: PairAgreement) {
	return [
		...VERDICT_STATS.map((statistic) => ({
			scope,
			group,
			scale: 'verdict',
			statistic,
			items: a.items,
			...estimateCells(a.verdict[statistic])
		})),
		...RELEVANCE_STATS.map((statistic) => ({
			scope,
			group,
			scale: 'relevance',
			statistic,
			items: a.items,
			...estimateCells(a.relevance[statistic])
		}))
	];
}

/** The verification report's tables, by name. */
export function verificationTables(v: VerificationAgreement): Record<string, Table> {
	return {
		verification_agreement: {
			columns: ['scope', 'group', 'scale', 'statistic', 'items', ...ESTIMATE_COLUMNS],
			rows: [
				...pairRows('overall', 'all', v.overall),
				...v.byType.flatMap((t) => pairRows('type', t.type, t)),
				...v.byReviewer.flatMap((r) => pairRows('reviewer', r.reviewer, r))
			]
		},
		verification_matrix: {
			columns: ['primary', ...v.matrix.verdicts.map((s) => `secondary_${s}`)],
			rows: v.matrix.verdicts.map((primary, i) => ({
				primary,
				...Object.fromEntries(
					v.matrix.verdicts.map((s, j) => [`secondary_${s}`, v.matrix.counts[i][j]])
				)
			}))
		},
		verification_outcomes: {
			columns: ['agreed', 'adjudicated', 'pending', 'double_reviewed', 'reviews'],
			rows: [
				{
					...v.outcomes,
					double_reviewed: v.inputs.doubleReviewed,
					reviews: v.inputs.reviews
				}
			]
		}
	};
}

/** The study report's tables, by name. */
export function studyTables(s: StudyAgreement): Record<string, Table> {
	return {
		ranking_agreement: {
			columns: ['statistic', 'questions', ...ESTIMATE_COLUMNS],
			rows: [
				{
					statistic: 'kendall_w_mean',
					questions: s.inputs.questions,
					...estimateCells(s.ranking.wMean)
				},
				{
					statistic: 'mean_pairwise_tau_b',
					questions: s.inputs.questions,
					...estimateCells(s.ranking.tauMean)
				},
				{
					statistic: 'tags_alpha_ordinal',
					questions: s.inputs.questions,
					...estimateCells(s.ranking.tagsAlpha)
				}
			]
		},
		kendall_w_by_question: {
			columns: ['question', 'item', 'value', 'reason'],
			rows: s.ranking.wByQuestion.map((q) => ({
				question: q.question,
				item: q.item,
				...statCells(q.w)
			}))
		},
		kendall_w_histogram: { columns: ['low', 'high', 'count'], rows: s.ranking.wHistogram },
		reference_check: {
			columns: ['physician', 'questions', 'first_share', 'mean_rank'],
			rows: s.referenceCheck.map((r) => ({
				physician: r.physician,
				questions: r.questions,
				first_share: r.firstShare.value,
				mean_rank: r.meanRank.value
			}))
		},
		position_bias: {
			columns: ['position', 'letter', 'n', 'mean_rank'],
			rows: s.positionBias.map((p) => ({ ...p, mean_rank: p.meanRank.value, meanRank: undefined }))
		},
		metric_board: {
			columns: [
				'metric',
				'questions',
				'pairs',
				'concordant',
				'discordant',
				'metric_ties',
				'accuracy',
				'accuracy_low',
				'accuracy_high',
				'tau_mean',
				'tau_low',
				'tau_high',
				'pearson',
				'spearman',
				'reasons'
			],
			rows: s.metrics.map((m) => {
				const acc = estimateCells(m.accuracy);
				const tau = estimateCells(m.tauMean);
				const reasons = [
					acc.reason && `accuracy: ${acc.reason}`,
					tau.reason && `tau: ${tau.reason}`,
					m.pearson.reason && `pearson: ${m.pearson.reason}`,
					m.spearman.reason && `spearman: ${m.spearman.reason}`
				].filter(Boolean);
				return {
					metric: m.metric,
					questions: m.questions,
					...m.pairwise,
					accuracy: acc.value,
					accuracy_low: acc.low,
					accuracy_high: acc.high,
					tau_mean: tau.value,
					tau_low: tau.low,
					tau_high: tau.high,
					pearson: m.pearson.value,
					spearman: m.spearman.value,
					reasons: reasons.join('; ') || null
				};
			})
		},
		metric_models: {
			columns: ['metric', 'model', 'mean_metric', 'expert_strength'],
			rows: s.metrics.flatMap((m) =>
				m.models.map((x) => ({
					metric: m.metric,
					model: x.model,
					mean_metric: x.meanMetric,
					expert_strength: x.strength
				}))
			)
		},
		leaderboard_automatic: {
			columns: ['model', 'n', ...ESTIMATE_COLUMNS],
			rows: s.leaderboards.automatic.map((a) => ({
				model: a.model,
				n: a.n,
				...estimateCells({ stat: a.mean, interval: a.interval })
			}))
		},
		leaderboard_expert: {
			columns: ['model', ...ESTIMATE_COLUMNS],
			rows: s.leaderboards.expert.map((e) => ({
				model: e.model,
				...estimateCells({ stat: { value: e.strength }, interval: e.interval })
			}))
		},
		good_tags: {
			columns: ['model', 'n', 'share'],
			rows: s.leaderboards.good.map((g) => ({ model: g.model, n: g.n, share: g.share.value }))
		}
	};
}

const AGREEMENT_STATS = ['icc2_1', 'icc2_k', 'alpha_ordinal', 'alpha_interval', 'qwk'] as const;

/** A rubric study's tables, by name (see DEFINITIONS for each number). */
export function rubricTables(r: RubricReport): Record<string, Table> {
	const levels = Array.from(
		{ length: r.shape.scale.max - r.shape.scale.min + 1 },
		(_, i) => r.shape.scale.min + i
	);
	return {
		rubric_agreement: {
			columns: [
				'key',
				'kind',
				'statistic',
				'units',
				'raters',
				'slots',
				...ESTIMATE_COLUMNS,
				'notes'
			],
			rows: r.agreement.flatMap((a) =>
				AGREEMENT_STATS.map((statistic) => ({
					key: a.key,
					kind: a.kind,
					statistic,
					units: a.units,
					raters: a.raters,
					slots: a.slots,
					...estimateCells(a[statistic]),
					notes: a.notes
				}))
			)
		},
		rubric_model_means: {
			columns: ['model', 'key', 'kind', 'n', ...ESTIMATE_COLUMNS],
			rows: r.models.map((m) => ({
				model: m.model,
				key: m.key,
				kind: m.kind,
				n: m.n,
				...estimateCells({ stat: m.mean, interval: m.interval })
			}))
		},
		rubric_distributions: {
			columns: ['key', 'model', ...levels.map((l) => `score_${l}`), 'off_scale'],
			rows: r.distributions.map((d) => ({
				key: d.key,
				model: d.model ?? 'all',
				...Object.fromEntries(levels.map((l, i) => [`score_${l}`, d.counts[i]])),
				off_scale: d.offScale
			}))
		},
		rubric_position_bias: {
			columns: ['key', 'pairs', 'left_higher', 'right_higher', 'ties', ...ESTIMATE_COLUMNS],
			rows: r.positionBias.map((p) => ({
				key: p.key,
				pairs: p.pairs,
				left_higher: p.leftHigher,
				right_higher: p.rightHigher,
				ties: p.ties,
				...estimateCells({ stat: p.meanDifference, interval: p.interval })
			}))
		},
		rubric_judges: {
			columns: ['judge', 'key', 'kind', 'statistic', 'answers', 'pairs', ...ESTIMATE_COLUMNS],
			rows: r.judges.flatMap((j) =>
				(
					[
						['pairwise_accuracy', j.pairwiseAccuracy, j.pairwiseInterval],
						['pearson', j.pearson, j.pearsonInterval],
						['icc2_1', j.icc, j.iccInterval]
					] as const
				).map(([statistic, stat, interval]) => ({
					judge: j.judge,
					key: j.key,
					kind: j.kind,
					statistic,
					answers: j.answers,
					pairs: j.pairs,
					...estimateCells({ stat, interval })
				}))
			)
		},
		rubric_judge_ranking: {
			columns: ['rank', 'judge', 'answers', 'pairs', 'pairwise_accuracy', 'pearson', 'icc2_1'],
			rows: r.judgeRanking.map((j, i) => ({
				rank: i + 1,
				judge: j.judge,
				answers: j.answers,
				pairs: j.pairs,
				pairwise_accuracy: j.pairwiseAccuracy.value,
				pearson: j.pearson.value,
				icc2_1: j.icc.value
			}))
		},
		rubric_judge_preferences: {
			columns: [
				'judge',
				'key',
				'pairs',
				'physician_ties',
				'unscored',
				'judge_ties',
				...ESTIMATE_COLUMNS
			],
			rows: r.preferences.map((p) => ({
				judge: p.judge,
				key: p.key,
				pairs: p.pairs,
				physician_ties: p.physicianTies,
				unscored: p.unscored,
				judge_ties: p.judgeTies,
				...estimateCells({ stat: p.accuracy, interval: p.interval })
			}))
		},
		rubric_judge_points: {
			columns: ['judge', 'key', 'question', 'candidate', 'model', 'judge_score', 'physician_mean'],
			rows: r.judgePoints.map((p) => ({
				judge: p.judge,
				key: p.key,
				question: p.question,
				candidate: p.candidate,
				model: p.model,
				judge_score: p.judgeScore,
				physician_mean: p.physicianMean
			}))
		}
	};
}

/** A table as CSV or JSON text. */
export function renderTable(table: Table, format: 'csv' | 'json'): string {
	if (format === 'csv') return toCsv(table.columns, table.rows);
	const rows = table.rows.map((r) =>
		Object.fromEntries(table.columns.map((c) => [c, r[c] ?? null]))
	);
	return JSON.stringify(rows, null, 1);
}

/** One line per statistic: what it is, over which units, and the `cliniq stats` call that recomputes it. */
export const DEFINITIONS = `Every number of the agreement dashboard, one line each. Intervals: 95 % percentile bootstrap with the seed and resamples of settings.json, resampling items (verification) or questions (study).
verification percent_agreement: share of items whose two reviews agree (verdict, or relevance exactly) — cliniq stats ratings ratings_verdict.csv | ratings_relevance.csv --order 1,2,3,4,5
verification cohen_kappa: Cohen's kappa of the primary against the secondary verdict over items with both reviews — cliniq stats ratings ratings_verdict.csv
verification alpha_nominal: Krippendorff's alpha (nominal) of the verdicts — cliniq stats ratings ratings_verdict.csv
verification weighted_kappa_linear / weighted_kappa_quadratic: weighted kappa of GP relevance over the order 1–5 — cliniq stats ratings ratings_relevance.csv --order 1,2,3,4,5
verification alpha_ordinal: Krippendorff's alpha (ordinal) of GP relevance over the order 1–5 — cliniq stats ratings ratings_relevance.csv --order 1,2,3,4,5
verification icc2_1: ICC(2,1), two-way random, absolute agreement, single rater, of GP relevance — cliniq stats ratings ratings_relevance.csv --order 1,2,3,4,5
verification per type / per reviewer: the same statistics over that type's items, or over the items a reviewer reviewed (their review against the other one); rows of ratings_*.csv with the items of tables/verification_agreement.csv
verification matrix: items by primary verdict (rows) and secondary verdict (columns); outcomes: items agreed, adjudicated, and waiting for adjudication
study kendall_w_mean: mean over questions of Kendall's W (tie-corrected, over the physicians who ranked every candidate) — cliniq stats rankings rankings.csv
study mean_pairwise_tau_b: per question the mean tau-b over pairs of physicians, then the mean over questions — cliniq stats rankings rankings.csv
study tags_alpha_ordinal: Krippendorff's alpha (ordinal, bad < okay < good) of the tags, one unit per candidate — cliniq stats ratings tags.csv --order bad,okay,good
study reference check: per physician, the share of their rankings with the reference ranked first (ties at rank 1 count) and its mean rank
study position bias: mean rank of the answers shown at each position (A = first shown); about equal means order did not sway the rankings
study metric pairwise accuracy: over pairs of model answers to one question with different consensus ranks (mean rank over physicians), (concordant + 0.5 × metric ties) / pairs — cliniq stats pairwise pairwise_<metric>.csv
study metric tau_mean: per question Kendall's tau-b between the metric and the negated consensus rank, mean over questions where defined
study metric pearson / spearman: across models, the model's mean metric (x) against its expert strength (y) — cliniq stats correlate correlate_<metric>.csv
study expert leaderboard: Plackett–Luce strengths (MM algorithm, sum to 1, the reference as one more candidate) from every ranking, ties as tiers
study automatic leaderboard: per model the mean headline score (value) of the scoring run over the study's answers
study good tags: per model the share of its ranked answers tagged good
rubric (all figures below: cliniq stats rubric rubric_scores.csv --judges rubric_judges.csv --scale <min>-<max> --bootstrap <resamples> --seed <seed>; intervals resample questions; an aspect score is a physician's mean over the aspect's sub-aspects, only when all are scored)
rubric icc2_1 / icc2_k: ICC(2,1) and ICC(2,k), two-way random, absolute agreement, per sub-aspect and aspect, on rater SLOTS (1st, 2nd … judgement of each question), over the answers scored in every slot
rubric alpha_ordinal / alpha_interval: Krippendorff's alpha (ordinal over the scale min..max, or interval) per sub-aspect and aspect, on the physicians' ids, over every answer
rubric qwk: quadratic-weighted kappa per sub-aspect and aspect between the 2 rater slots (undefined with any other number of slots)
rubric model mean: per model and sub-aspect or aspect, the mean over the model's answers of the answer's mean physician score (each answer weighs the same)
rubric distributions: per sub-aspect, overall (model all) and per model, how many scores gave each level of the scale; off_scale counts scores that are not a level
rubric position bias: over pairs (one physician's scores of a left and a right answer of one question on one sub-aspect) the mean of left − right, and how many pairs left scored higher, right higher, or tied; overall and per sub-aspect
rubric judge pairwise_accuracy: over pairs of answers to one question whose physician means differ, the share the judge orders the same way (a judge tie counts ½); per judge and sub-aspect, aspect, overall
rubric judge pearson: Pearson's r between the judge's score and the answer's physician mean, over the answers both scored on the key
rubric judge icc2_1: ICC(2,1), absolute agreement, with the judge and the physician mean as two raters of each answer (high only when the judge scores on the physicians' scale)
rubric judge ranking: judges by overall pairwise accuracy, then overall Pearson's r, then name
rubric judge preferences: the share of a judge's preferences between two answers that follow the physicians' mean scores (a judge tie ½; pairs the physicians tie or did not score left out)
rubric judge points: per judge and answer, the judge's overall score against the answer's overall physician mean (the scatter plot)
evidence figures: the TREC BioGen figures of biogen_assessments.json per run (the official layout: per run the answer's first finished assessment, relevance and relations rolled up per sentence), as the official evaluation script computes them, 95 % percentile intervals resampling questions — cliniq stats evidence biogen_assessments.json --bootstrap <resamples> --seed <seed>
evidence agreement: Krippendorff's alpha (nominal) between assessors of the same answer on is_answer_accurate (unit: answer), interpretable (unit: sentence), the rolled-up sentence relevance (unit: sentence) and the rolled-up relation of each cited document (unit: sentence and PMID); span_token_f1_mean: the mean token F1 of two assessors' assertion spans over the sentences both marked
pairwise (leaderboards: cliniq stats bt battles.csv --bootstrap <resamples> --seed <seed>; battles.csv has one row per preference, model_a the left answer, FastChat's winner labels, and the two answers' lengths in characters)
pairwise leaderboard: Bradley–Terry ratings (base 10, scale 400, a tie half a win each side, finite ratings centred to mean 1000), 95 % percentile intervals resampling questions, rank range from 1 + the models whose lower bound exceeds the model's upper bound to the models whose upper bound reaches its lower bound; a model that won or lost every comparison has no finite rating (reason given); no interval or rank range under 5 judged questions; board aspect <code>: the same from the per-aspect preferences
pairwise leaderboard_length_controlled: the same fit with the standardised normalised length difference (len_a − len_b)/(len_a + len_b) as a covariate (LMArena's style control); its intervals take min(resamples, ${STYLE_RESAMPLES}) resamples; length_coefficient γ: log-odds per standard deviation of the length feature
pairwise matrix: per ordered pair of models, the model's wins, ties (both kinds) and losses against the opponent, and its win share (wins + ½ ties) / n
pairwise position bias: the share of non-tied judgements that chose the left answer, overall (all) and per physician, with a 95 % Wilson interval; flagged when the interval excludes 0.5
pairwise verbosity bias: the share of non-tied judgements between answers of unequal length won by the longer answer, overall and per band of longer ÷ shorter length, with 95 % Wilson intervals
pairwise agreement: per unit (a question and an unordered pair of models) the outcome coded by model (first / second in name order / tie; four-way: tie both good and both bad apart): percent agreement, Cohen's kappa (exactly 2 physicians), Fleiss' kappa (units judged by every physician), Krippendorff's alpha (nominal) — cliniq stats ratings on the units and outcomes of preferences.csv
pairwise judges: per judge, the share of physician judgements of the pairs it judged with its three-way outcome; over the pairs with a physicians' majority, the share it matches and Cohen's kappa against that majority
compared leaderboards: the Bradley–Terry leaderboards of this study (scope this study) and of every study sharing questions with it, fitted on the shared questions only (rankings give k(k−1)/2 battles per ranking, ties as ties; rubric studies per aspect the higher mean score wins); qualification rounds are never compared
exclusions: every figure, table and raw file leaves out the judgements of standing exclusions (an organiser's, or a rater's withdrawal; by rater, study or every study, and submission time) and every judgement of a gold question (hidden checks, never counted); settings.json excluded says how many judgements of how many raters were excluded and why (reviews: only exclusions of every study)
`;

const csvOf = (columns: string[], rows: Record<string, unknown>[]) => toCsv(columns, rows);

function rawStudyFiles(
	rows: RankingJudgement[],
	scores: Awaited<ReturnType<typeof candidateScores>>,
	study: StudyAgreement
) {
	const files: { name: string; content: string }[] = [
		{
			name: 'rankings.csv',
			content: csvOf(
				['question', 'rater', 'candidate', 'rank'],
				rows as unknown as Record<string, unknown>[]
			)
		},
		{
			name: 'tags.csv',
			content: csvOf(
				['unit', 'rater', 'value'],
				rows.map((r) => ({ unit: r.candidate, rater: r.rater, value: r.tag }))
			)
		},
		{
			name: 'candidates.csv',
			content: csvOf(
				['question', 'item', 'candidate', 'model', 'rater', 'rank', 'tag', 'position'],
				rows.map((r) => ({ ...r, model: r.model ?? REFERENCE_LABEL }))
			)
		}
	];
	for (const metric of METRIC_KEYS) {
		const pr = pairwiseRows(rows, scores, metric);
		if (pr.length === 0) continue;
		files.push({
			name: `pairwise_${metric}.csv`,
			content: csvOf(
				['question', 'candidate', 'expert_rank', 'metric'],
				pr.map((r) => ({ ...r, expert_rank: r.expertRank }))
			)
		});
		const board = study.metrics.find((m) => m.metric === metric);
		if (board)
			files.push({
				name: `correlate_${metric}.csv`,
				content: csvOf(
					['x', 'y'],
					board.models.map((m) => ({ x: m.meanMetric, y: m.strength }))
				)
			});
	}
	return files;
}

/** Settings that reproduce a bundle's numbers. */
export interface BundleSettings {
	datasetId: number | null;
	studyId: number | null;
	resamples: number;
	seed: string;
	run: StudyAgreement['run'];
	tagOrder: string[];
	relevanceOrder: number[];
	/** A rubric study's scale, as `cliniq stats rubric --scale` takes it; null otherwise. */
	rubricScale: string | null;
	/** What the standing exclusions leave out of every file (read when the bundle is made). */
	excluded: {
		study: (ExcludedCounts & { sentence: string }) | null;
		reviews: { judgements: number; raters: number; reasons: string[]; sentence: string } | null;
	};
}

/** The reports a bundle describes (either may be absent). */
export interface BundleReports {
	verification: VerificationAgreement | null;
	study: StudyAgreement | null;
	/** A rubric study's report (in place of `study`). */
	rubric?: { studyId: number; report: RubricReport } | null;
	/** A pairwise study's report (in place of `study`). */
	pairwise?: { studyId: number; report: PairwiseReport } | null;
	/** An evidence study's report (in place of `study`). */
	evidence?: { studyId: number; report: EvidenceReport } | null;
	/** The study's Bradley–Terry leaderboards beside those of the studies sharing its questions. */
	leaderboards?: { own: ComparedLeaderboard[]; others: ComparedLeaderboard[] } | null;
}

/**
 * A rubric study's scores and judges' scores in the `cliniq stats rubric` input formats. Raters are
 * named physician-1, physician-2 … by first appearance (no account id leaves the portal; alpha does
 * not depend on the names), and each row carries its slot, so the CLI's ICC uses the same slots.
 */
async function rawRubricFiles(db: Db, studyId: number, report: RubricReport) {
	const rows = await rubricScoreRows(db, studyId);
	const aspectOf = new Map(
		subAspectsOf(report.rubric.definition).map((s) => [s.code, s.aspect] as const)
	);
	const names = new Map<string, string>();
	for (const r of rows) if (!names.has(r.rater)) names.set(r.rater, `physician-${names.size + 1}`);
	const judges = await studyJudgeInput(db, studyId);
	return [
		{
			name: 'rubric_scores.csv',
			content: csvOf(
				[
					'question_id',
					'candidate_id',
					'model',
					'physician',
					'aspect',
					'sub_aspect',
					'score',
					'side',
					'slot'
				],
				rows.map((r) => ({
					question_id: r.question,
					candidate_id: r.candidate,
					model: r.model,
					physician: names.get(r.rater),
					aspect: aspectOf.get(r.subAspect) ?? '',
					sub_aspect: r.subAspect,
					score: r.score,
					side: r.side ?? '',
					slot: r.slot
				}))
			)
		},
		{
			name: 'rubric_judges.csv',
			content: csvOf(
				['judge', 'question_id', 'candidate_id', 'criterion', 'score'],
				judges.scores.map((j) => ({
					judge: j.judge,
					question_id: j.question,
					candidate_id: j.candidate,
					criterion: j.subAspect,
					score: j.score
				}))
			)
		}
	];
}

/**
 * The whole bundle as a zip: the raw judgements in the `cliniq stats` input formats, every table
 * (CSV and JSON), the statistics (JSON), the settings and a definitions file.
 */
export async function agreementBundle(db: Db, reports: BundleReports): Promise<Uint8Array> {
	return zipStore(await agreementBundleFiles(db, reports));
}

/** The files of the bundle, by name (see agreementBundle). */
export async function agreementBundleFiles(
	db: Db,
	reports: BundleReports
): Promise<{ name: string; content: string }[]> {
	const { verification, study } = reports;
	const rubric = reports.rubric ?? null;
	const pairwise = reports.pairwise ?? null;
	const evidence = reports.evidence ?? null;
	const leaderboards = reports.leaderboards ?? null;
	const files: { name: string; content: string }[] = [];
	if (verification) {
		const reviews = await reviewJudgements(db, verification.datasetId);
		for (const field of ['verdict', 'relevance'] as const)
			files.push({
				name: `ratings_${field}.csv`,
				content: csvOf(
					['unit', 'rater', 'value'],
					reviews.map((r) => ({ unit: r.item, rater: r.round, value: r[field] }))
				)
			});
		files.push({
			name: 'reviews.csv',
			content: csvOf(
				['item', 'type', 'round', 'reviewer', 'verdict', 'relevance'],
				reviews as unknown as Record<string, unknown>[]
			)
		});
	}
	if (study) {
		const rows = await rankingJudgements(db, study.studyId);
		const scores = study.run ? await candidateScores(db, study.studyId, study.run.id) : new Map();
		files.push(...rawStudyFiles(rows, scores, study));
	}
	if (rubric) files.push(...(await rawRubricFiles(db, rubric.studyId, rubric.report)));
	if (pairwise) files.push(...(await rawPairwiseFiles(db, pairwise.studyId)));
	if (evidence) files.push(...(await rawEvidenceFiles(db, evidence.studyId)));
	const tables = {
		...(verification ? verificationTables(verification) : {}),
		...(study ? studyTables(study) : {}),
		...(rubric ? rubricTables(rubric.report) : {}),
		...(pairwise ? pairwiseTables(pairwise.report) : {}),
		...(evidence ? evidenceTables(evidence.report) : {}),
		...(leaderboards?.own.length ? comparedLeaderboardTables(leaderboards) : {})
	};
	for (const [name, table] of Object.entries(tables)) {
		files.push({ name: `tables/${name}.csv`, content: renderTable(table, 'csv') });
		files.push({ name: `tables/${name}.json`, content: renderTable(table, 'json') });
	}
	const settings: BundleSettings = {
		datasetId: verification?.datasetId ?? null,
		studyId: study?.studyId ?? rubric?.studyId ?? pairwise?.studyId ?? evidence?.studyId ?? null,
		resamples:
			(verification ?? study)?.options.resamples ??
			(rubric ?? pairwise ?? evidence)?.report.bootstrap.resamples ??
			0,
		seed:
			(verification ?? study)?.options.seed ??
			(rubric ?? pairwise ?? evidence)?.report.bootstrap.seed ??
			'',
		run: study?.run ?? null,
		tagOrder: TAG_ORDER,
		relevanceOrder: RELEVANCE_ORDER,
		rubricScale: rubric
			? `${rubric.report.shape.scale.min}-${rubric.report.shape.scale.max}`
			: null,
		excluded: { study: null, reviews: null }
	};
	if (settings.studyId !== null) {
		const counts = await excludedCounts(db, settings.studyId);
		settings.excluded.study = { ...counts, sentence: excludedSentence(counts) };
	}
	if (settings.datasetId !== null) {
		const counts = await excludedReviewCounts(db, settings.datasetId);
		settings.excluded.reviews = { ...counts, sentence: excludedSentence(counts) };
	}
	files.push({
		name: 'statistics.json',
		content: JSON.stringify(
			{
				verification,
				study,
				rubric: rubric?.report ?? null,
				pairwise: pairwise?.report ?? null,
				evidence: evidence?.report ?? null,
				leaderboards
			},
			null,
			1
		)
	});
	files.push({ name: 'settings.json', content: JSON.stringify(settings, null, 1) });
	files.push({ name: 'definitions.txt', content: DEFINITIONS });
	return files;
}
