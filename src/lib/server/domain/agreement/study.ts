import type { Db } from '../../db/client';
import { TAGS, type Tag } from '../../../constants';
import { checkBootstrapOptions, tooFewUnits } from '../../../stats/bootstrap';
import { kendallTauB, pearson, spearman } from '../../../stats/correlation';
import {
	expertLeaderboard,
	expertLeaderboardSteps,
	leaderboardSteps,
	planExpertLeaderboard,
	plackettLuce,
	tierRankings,
	type ExpertLeaderboard,
	type TierRanking
} from '../../../stats/leaderboard';
import {
	consensusRanks,
	meanDefined,
	questionAgreements,
	rankedQuestions,
	type RankedQuestions
} from '../../../stats/rankings';
import { krippendorffAlpha } from '../../../stats/ratings';
import {
	planRatios,
	RATIO_SHARD_SOURCE,
	ratioIntervals,
	ratioIntervalsOf,
	ratioShardOf,
	type RatioShard,
	type RatioShardResult
} from '../../../stats/rubric';
import { sharedRatingEstimates } from '../../../stats/ratings-bootstrap';
import {
	defined,
	undefinedStat,
	type Interval,
	type RankRow,
	type Rating,
	type Stat
} from '../../../stats/types';
import {
	candidateScores,
	METRIC_KEYS,
	rankingJudgements,
	studyRuns,
	type MetricKey,
	type RankingJudgement,
	type StudyRun
} from './extract';
import type { AgreementOptions, Estimate } from './verification';
import { excludedCounts, type ExcludedCounts } from '../exclusions';
import { inSlices, reportPart, stepsReporter } from '../../progress';
import { inThreads, shares } from '../../threads';
import { bootstrapThreads, leaderboardInThreads } from './leaderboard-threads';
import { resamplesPart } from './background';

/** Study options: the bootstrap, and which scoring run the metrics come from (null: the newest). */
export interface StudyOptions extends AgreementOptions {
	runId?: number | null;
}

/** The label of the reference answer wherever models are listed. */
export const REFERENCE_LABEL = 'Reference';
/** Tags in order for Krippendorff's alpha (ordinal): bad < okay < good. */
export const TAG_ORDER: Tag[] = ['bad', 'okay', 'good'];
/** Bins of the Kendall's W histogram: [0, 0.1), …, [0.9, 1]. */
export const W_BINS = 10;

/** One metric against the physicians. */
export interface MetricAgreement {
	metric: MetricKey;
	/** Questions with at least two scored model candidates. */
	questions: number;
	/** Mean over questions of Kendall's tau-b between the metric and the consensus rank. */
	tauMean: Estimate;
	pairwise: { pairs: number; concordant: number; discordant: number; metric_ties: number };
	accuracy: Estimate;
	/** Per model: its mean metric and expert strength; correlated across models. */
	models: { model: string; meanMetric: number; strength: number }[];
	pearson: Stat;
	spearman: Stat;
}

/** Ranking agreement of one study (see the folder's README for each number's definition). */
export interface StudyAgreement {
	studyId: number;
	options: AgreementOptions & { runId: number | null };
	/** The scoring run the metrics come from, or null when none scored the study's answers. */
	run: StudyRun | null;
	inputs: { rankings: number; questions: number; physicians: number; entries: number };
	/** Rankings the standing exclusions leave out of every figure (gold questions never count). */
	excluded: ExcludedCounts;
	ranking: {
		wByQuestion: { question: number; item: number; w: Stat }[];
		wHistogram: { low: number; high: number; count: number }[];
		wUndefined: { reason: string; count: number }[];
		wMean: Estimate;
		tauMean: Estimate;
		tagsAlpha: Estimate;
	};
	referenceCheck: {
		physician: string;
		questions: number;
		firstShare: Stat;
		meanRank: Stat;
	}[];
	positionBias: { position: number; letter: string; n: number; meanRank: Stat }[];
	metrics: MetricAgreement[];
	leaderboards: {
		automatic: { model: string; n: number; mean: Stat; interval: Interval }[];
		expert: { model: string; strength: number; interval: Interval }[];
		good: { model: string; n: number; share: Stat }[];
	};
}

const noInterval = (reason: string): Interval => ({ low: null, high: null, reason });
/** The units of the physicians' agreement: a question needs two rankings to say anything. */
const RANKED_BY_TWO = 'questions ranked by 2+ physicians';

/**
 * The report's bootstraps of ratios of sums over units (a mean over questions, an accuracy), run
 * together at the end: series over the same number of units share one seeded draw per resample
 * (ratioIntervals), each still summed in draw order — the very intervals `bootstrapRatio` gives
 * each series with the seed, without drawing the units again for every series.
 */
class RatioBatch {
	private readonly jobs: {
		numerators: Float64Array;
		denominators: Float64Array;
		into: { interval: Interval };
	}[] = [];
	/** Bootstraps of this thread's own, run while the ratio bootstraps run on threads. */
	private readonly alongside: (() => void)[] = [];
	constructor(private readonly options: AgreementOptions) {}

	/** Runs `job` when `run` or `runInThreads` runs (it sets an interval of the report). */
	also(job: () => void) {
		this.alongside.push(job);
	}

	/** Sets `into.interval` to the series' interval when `run` runs. */
	add(
		numerators: ArrayLike<number>,
		denominators: ArrayLike<number>,
		into: { interval: Interval }
	) {
		this.jobs.push({
			numerators: Float64Array.from(numerators),
			denominators: Float64Array.from(denominators),
			into
		});
	}

	run() {
		for (const job of this.alongside) job();
		if (this.jobs.length === 0) return;
		const level = checkBootstrapOptions(this.options);
		const byUnits = groupBy(this.jobs, (j) => j.numerators.length);
		for (const jobs of byUnits.values()) {
			const intervals = ratioIntervals(jobs, {
				resamples: this.options.resamples,
				seed: this.options.seed,
				level
			});
			jobs.forEach((j, k) => (j.into.interval = intervals[k]));
		}
	}

	/** run, each series' resamples split over `threads` worker threads: the same intervals. */
	async runInThreads(threads: number) {
		if (this.jobs.length === 0) {
			for (const job of this.alongside) job();
			return;
		}
		const level = checkBootstrapOptions(this.options);
		const groups = [...groupBy(this.jobs, (j) => j.numerators.length).values()];
		const plans = groups.map((jobs) =>
			planRatios(jobs, { resamples: this.options.resamples, seed: this.options.seed, level })
		);
		const shards: RatioShard[] = [];
		const owner: number[] = [];
		plans.forEach((plan, g) => {
			if (!plan) return;
			for (const [from, to] of shares(plan.resamples, threads)) {
				shards.push(ratioShardOf(plan, from, to));
				owner.push(g);
			}
		});
		const drawn = inThreads<RatioShard, RatioShardResult>(RATIO_SHARD_SOURCE(), shards);
		drawn.catch(() => {}); // awaited below
		for (const job of this.alongside) job();
		this.alongside.length = 0; // done: run() after a failure below does not run them again
		const results = await drawn;
		plans.forEach((plan, g) => {
			const intervals = plan
				? ratioIntervalsOf(
						plan,
						results.filter((_, i) => owner[i] === g)
					)
				: groups[g].map(() => noInterval('no units to resample'));
			groups[g].forEach((j, k) => (j.into.interval = intervals[k]));
		});
	}
}

/** Stands for an interval a RatioBatch fills in before the report is returned. */
const PENDING: Interval = noInterval('pending');

function mean(values: number[]): number | null {
	return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

/** The mean of per-question values over questions where defined, with an interval over questions. */
function meanOverQuestions(
	stat: Stat,
	perQuestion: (number | null)[],
	options: AgreementOptions,
	units: string,
	ratios: RatioBatch
): Estimate {
	if (stat.value === null) return { stat, interval: noInterval(stat.reason) };
	if (options.resamples <= 0)
		return { stat, interval: noInterval('no bootstrap requested (0 resamples)') };
	const few = tooFewUnits(perQuestion.filter((v) => v !== null).length, units);
	if (few) return { stat, interval: few };
	// The mean over the drawn questions where defined: a ratio of sums, nothing rebuilt per draw.
	const estimate = { stat, interval: PENDING };
	ratios.add(
		perQuestion.map((v) => v ?? 0),
		perQuestion.map((v) => (v === null ? 0 : 1)),
		estimate
	);
	return estimate;
}

function rankRows(rows: RankingJudgement[]): RankRow[] {
	return rows.map((r) => ({
		question: String(r.question),
		rater: r.rater,
		candidate: String(r.candidate),
		rank: r.rank
	}));
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
	const groups = new Map<K, T[]>();
	for (const row of rows) {
		const group = groups.get(key(row));
		if (group) group.push(row);
		else groups.set(key(row), [row]);
	}
	return groups;
}

const letter = (position: number) =>
	position <= 26 ? String.fromCharCode(64 + position) : `#${position}`;

function rankingAgreement(
	ranks: RankRow[],
	ranked: RankedQuestions,
	byQuestion: Map<number, RankingJudgement[]>,
	options: AgreementOptions,
	ratios: RatioBatch
): StudyAgreement['ranking'] {
	// The per-question parts once; their means are what rankingsSummary reports.
	const perQuestion = questionAgreements(ranks, ranked);
	const wMeanStat = meanDefined(
		perQuestion.map((q) => q.w),
		'Kendall W'
	);
	const tauMeanStat = meanDefined(
		perQuestion.map((q) => q.tau),
		'pairwise tau-b'
	);
	const wByQuestion = perQuestion.map((q) => ({
		question: Number(q.question),
		item: byQuestion.get(Number(q.question))![0].item,
		w: q.w
	}));
	const tauByQuestion = perQuestion.map((q) => q.tau.value);
	const wHistogram = Array.from({ length: W_BINS }, (_, i) => ({
		low: i / W_BINS,
		high: (i + 1) / W_BINS,
		count: 0
	}));
	const reasons = new Map<string, number>();
	for (const { w } of wByQuestion) {
		if (w.value === null) reasons.set(w.reason, (reasons.get(w.reason) ?? 0) + 1);
		else wHistogram[Math.min(W_BINS - 1, Math.floor(w.value * W_BINS))].count++;
	}
	// Tags: one unit per candidate, rated by each physician who ranked its question. The interval
	// resamples candidates, alpha's own units (as `cliniq stats ratings --bootstrap` does).
	const tagRatings: Rating[] = [...byQuestion.values()].flatMap((qRows) =>
		qRows.map((r) => ({ unit: String(r.candidate), rater: r.rater, value: r.tag }))
	);
	const alpha = krippendorffAlpha(tagRatings, 'ordinal', TAG_ORDER);
	const tagRaters = new Map<string, Set<string>>();
	for (const r of tagRatings)
		tagRaters.set(r.unit, (tagRaters.get(r.unit) ?? new Set()).add(r.rater));
	const pairable = [...tagRaters.values()].filter((raters) => raters.size >= 2).length;
	const tagsAlpha: Estimate = {
		stat: alpha,
		interval:
			alpha.value === null
				? noInterval(alpha.reason)
				: options.resamples <= 0
					? noInterval('no bootstrap requested (0 resamples)')
					: (tooFewUnits(pairable, 'answers tagged by 2+ physicians') ?? PENDING)
	};
	if (tagsAlpha.interval === PENDING)
		ratios.also(() => {
			// Each resample evaluated for the ordinal alpha alone: the interval of
			// ratingIntervals(…).alpha_ordinal, without the statistics not shown.
			tagsAlpha.interval = sharedRatingEstimates(
				[{ ratings: tagRatings, order: TAG_ORDER, keys: ['alpha_ordinal'] }],
				{
					resamples: options.resamples,
					seed: options.seed,
					confidence: checkBootstrapOptions(options)
				}
			)[0].intervals!.alpha_ordinal;
		});
	return {
		wByQuestion,
		wHistogram,
		wUndefined: [...reasons].map(([reason, count]) => ({ reason, count })),
		wMean: meanOverQuestions(
			wMeanStat,
			wByQuestion.map((q) => q.w.value),
			options,
			RANKED_BY_TWO,
			ratios
		),
		tauMean: meanOverQuestions(tauMeanStat, tauByQuestion, options, RANKED_BY_TWO, ratios),
		tagsAlpha
	};
}

function referenceCheck(rows: RankingJudgement[]): StudyAgreement['referenceCheck'] {
	const refs = rows.filter((r) => r.model === null);
	return [...groupBy(refs, (r) => r.rater)]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([physician, own]) => ({
			physician,
			questions: own.length,
			firstShare: defined(own.filter((r) => r.rank === 1).length / own.length),
			meanRank: defined(mean(own.map((r) => r.rank))!)
		}));
}

function positionBias(rows: RankingJudgement[]): StudyAgreement['positionBias'] {
	const positions = groupBy(rows, (r) => r.position);
	return [...positions.keys()]
		.sort((a, b) => a - b)
		.map((position) => {
			const ranks = positions.get(position)!.map((r) => r.rank);
			return {
				position,
				letter: letter(position),
				n: ranks.length,
				meanRank: defined(mean(ranks)!)
			};
		});
}

const modelLabel = (r: RankingJudgement) => r.model ?? REFERENCE_LABEL;

/** The rankings as Plackett–Luce input, candidates labelled by model (the reference included). */
export function plackettLuceInput(rows: RankingJudgement[], ranks: RankRow[] = rankRows(rows)) {
	const labels = new Map(rows.map((r) => [String(r.candidate), modelLabel(r)]));
	return tierRankings(ranks, (r) => labels.get(r.candidate)!);
}

/** Per question: each scored model candidate's consensus rank and metric, for one metric. */
export function pairwiseRows(
	rows: RankingJudgement[],
	scores: Map<number, Partial<Record<MetricKey, number>>>,
	metric: MetricKey,
	consensus: Map<string, Map<string, number>> = consensusRanks(rankRows(rows))
) {
	const seen = new Set<number>();
	const out: { question: string; candidate: string; expertRank: number; metric: number }[] = [];
	for (const r of rows) {
		if (r.responseId === null || seen.has(r.candidate)) continue;
		seen.add(r.candidate);
		const value = scores.get(r.responseId)?.[metric];
		const expertRank = consensus.get(String(r.question))?.get(String(r.candidate));
		if (value === undefined || expertRank === undefined) continue;
		out.push({
			question: String(r.question),
			candidate: String(r.candidate),
			expertRank,
			metric: value
		});
	}
	return out;
}

/** A scored model candidate (first row of each): its scores and the physicians' consensus rank. */
interface ScoredCandidate {
	scores: Partial<Record<MetricKey, number>> | undefined;
	expertRank: number;
}

/**
 * What every metric shares, computed once: per question its model candidates with a consensus
 * rank (in row order, as pairwiseRows lists them), and per model its candidates' responses.
 */
function scoredCandidates(
	rows: RankingJudgement[],
	scores: Map<number, Partial<Record<MetricKey, number>>>,
	consensus: Map<string, Map<string, number>>
) {
	const seen = new Set<number>();
	const byQuestion = new Map<number, ScoredCandidate[]>();
	const byModel = new Map<string, (Partial<Record<MetricKey, number>> | undefined)[]>();
	for (const r of rows) {
		if (r.responseId === null || seen.has(r.candidate)) continue;
		seen.add(r.candidate);
		const own = scores.get(r.responseId);
		if (r.model !== null) {
			const list = byModel.get(r.model);
			if (list) list.push(own);
			else byModel.set(r.model, [own]);
		}
		const expertRank = consensus.get(String(r.question))?.get(String(r.candidate));
		if (expertRank === undefined) continue;
		const list = byQuestion.get(r.question);
		const c = { scores: own, expertRank };
		if (list) list.push(c);
		else byQuestion.set(r.question, [c]);
	}
	return { questions: [...byQuestion.values()], byModel };
}

function metricAgreement(
	metric: MetricKey,
	scored: ReturnType<typeof scoredCandidates>,
	strengths: Record<string, number>,
	options: AgreementOptions,
	ratios: RatioBatch
): MetricAgreement {
	// Per question with ≥ 2 scored candidates: tau-b and the pair counts of pairwiseAccuracy (pairs
	// whose consensus ranks differ: concordant when the metric prefers the better-ranked one).
	const taus: (number | null)[] = [];
	const good: number[] = [];
	const trials: number[] = [];
	let concordant = 0;
	let discordant = 0;
	let ties = 0;
	const values: number[] = [];
	const ranks: number[] = [];
	for (const q of scored.questions) {
		values.length = 0;
		ranks.length = 0;
		for (const c of q) {
			const v = c.scores?.[metric];
			if (v === undefined) continue;
			values.push(v);
			ranks.push(c.expertRank);
		}
		if (values.length < 2) continue;
		// Metric high is good, rank low is good: tau against the negated rank reads "agrees" as positive.
		taus.push(
			kendallTauB(
				values,
				ranks.map((r) => -r)
			).value
		);
		let qc = 0;
		let qd = 0;
		let qt = 0;
		for (let i = 0; i < values.length; i++) {
			if (!Number.isFinite(values[i]) || !Number.isFinite(ranks[i])) continue;
			for (let j = i + 1; j < values.length; j++) {
				if (!Number.isFinite(values[j]) || !Number.isFinite(ranks[j])) continue;
				const expert = ranks[j] - ranks[i];
				if (expert === 0) continue;
				const m = values[i] - values[j];
				if (m === 0) qt++;
				else if (m > 0 === expert > 0) qc++;
				else qd++;
			}
		}
		concordant += qc;
		discordant += qd;
		ties += qt;
		good.push(qc + 0.5 * qt);
		trials.push(qc + qd + qt);
	}
	const definedTaus = taus.filter((t): t is number => t !== null);
	const tauStat =
		definedTaus.length === 0
			? undefinedStat('no question has two scored answers with a defined tau-b')
			: defined(mean(definedTaus)!);
	const pairs = concordant + discordant + ties;
	const accuracyStat = pairs
		? defined((concordant + 0.5 * ties) / pairs)
		: undefinedStat('no pair of candidates of a question has different expert ranks');
	const accuracy: Estimate =
		accuracyStat.value === null
			? { stat: accuracyStat, interval: noInterval(accuracyStat.reason) }
			: options.resamples <= 0
				? { stat: accuracyStat, interval: noInterval('no bootstrap requested (0 resamples)') }
				: {
						stat: accuracyStat,
						interval:
							tooFewUnits(
								trials.filter((t) => t > 0).length,
								'questions with differently ranked scored answers'
							) ?? PENDING
					};
	// Accuracy over a resample of questions: their pair counts summed, same formula.
	if (accuracy.interval === PENDING) ratios.add(good, trials, accuracy);
	const models = [...scored.byModel]
		.map(([model, candidates]) => {
			const own: number[] = [];
			for (const candidate of candidates) {
				const v = candidate?.[metric];
				if (v !== undefined) own.push(v);
			}
			return { model, meanMetric: mean(own), strength: strengths[model] };
		})
		.filter(
			(m): m is { model: string; meanMetric: number; strength: number } =>
				m.meanMetric !== null && m.strength !== undefined
		)
		.sort((a, b) => a.model.localeCompare(b.model));
	return {
		metric,
		questions: taus.length,
		tauMean: meanOverQuestions(tauStat, taus, options, 'questions with 2+ scored answers', ratios),
		pairwise: { pairs, concordant, discordant, metric_ties: ties },
		accuracy,
		models,
		pearson: pearson(
			models.map((m) => m.meanMetric),
			models.map((m) => m.strength)
		),
		spearman: spearman(
			models.map((m) => m.meanMetric),
			models.map((m) => m.strength)
		)
	};
}

function automaticLeaderboard(
	rows: RankingJudgement[],
	scores: Map<number, Partial<Record<MetricKey, number>>>,
	options: AgreementOptions,
	ratios: RatioBatch
): StudyAgreement['leaderboards']['automatic'] {
	const seen = new Set<number>();
	const byModel = new Map<string, Map<number, number>>();
	for (const r of rows) {
		if (r.model === null || r.responseId === null || seen.has(r.candidate)) continue;
		seen.add(r.candidate);
		const value = scores.get(r.responseId)?.value;
		if (value === undefined) continue;
		const own = byModel.get(r.model) ?? new Map<number, number>();
		own.set(r.question, value);
		byModel.set(r.model, own);
	}
	return [...byModel]
		.map(([model, perQuestion]) => {
			const values = [...perQuestion.values()];
			const m = mean(values);
			const stat = m === null ? undefinedStat('no scored answers') : defined(m);
			const row = {
				model,
				n: values.length,
				mean: stat,
				interval:
					stat.value === null || options.resamples <= 0
						? noInterval(stat.reason ?? 'no bootstrap requested (0 resamples)')
						: (tooFewUnits(values.length, 'scored questions') ?? PENDING)
			};
			if (row.interval === PENDING)
				ratios.add(
					values,
					values.map(() => 1),
					row
				);
			return row;
		})
		.sort((a, b) => (b.mean.value ?? -Infinity) - (a.mean.value ?? -Infinity));
}

function goodShares(rows: RankingJudgement[]): StudyAgreement['leaderboards']['good'] {
	return [...groupBy(rows, modelLabel)]
		.map(([model, own]) => ({
			model,
			n: own.length,
			share: defined(own.filter((r) => r.tag === TAGS[0]).length / own.length)
		}))
		.sort((a, b) => (b.share.value ?? 0) - (a.share.value ?? 0));
}

/** What a study's report is computed from: its judgements, the scoring run and its scores. */
export interface StudyInput {
	studyId: number;
	rows: RankingJudgement[];
	/** The scoring run the metrics come from, or null when none scored the study's answers. */
	run: StudyRun | null;
	scores: Map<number, Partial<Record<MetricKey, number>>>;
	excluded: ExcludedCounts;
}

/** The extraction queries of a study's report (see studyReport). */
export async function studyInput(
	db: Db,
	studyId: number,
	options: StudyOptions
): Promise<StudyInput> {
	const { rows, run, excluded } = await rankingsAndRun(db, studyId, options);
	const scores = run ? await candidateScores(db, studyId, run.id) : new Map();
	return { studyId, rows, run, scores, excluded };
}

/** A study's rankings, its exclusion counts and the scoring run asked for (else the newest). */
async function rankingsAndRun(db: Db, studyId: number, options: StudyOptions) {
	const [rows, runs, excluded] = await Promise.all([
		rankingJudgements(db, studyId),
		studyRuns(db, studyId),
		excludedCounts(db, studyId)
	]);
	return { rows, run: chosenRun(runs, options), excluded };
}

/** The scoring run the options ask for (null: the newest), or null if it scored none of the study. */
function chosenRun(runs: StudyRun[], options: StudyOptions): StudyRun | null {
	return (options.runId == null ? runs[0] : runs.find((r) => r.id === options.runId)) ?? null;
}

/** The physicians' rankings as rank rows and Plackett–Luce input, and the experts' leaderboard. */
function expertPart(rows: RankingJudgement[], options: AgreementOptions) {
	const { ranks, plInput } = expertInput(rows);
	const expert = options.resamples > 0 ? expertLeaderboard(plInput, options) : unresampled(plInput);
	return { ranks, plInput, expert };
}

/** expertPart pausing between resamples in a background computation (./background). */
async function expertPartInSlices(rows: RankingJudgement[], options: AgreementOptions) {
	const { ranks, plInput } = expertInput(rows);
	const expert =
		options.resamples > 0
			? await inSlices(expertLeaderboardSteps(plInput, options), options.resamples, 'resamples')
			: unresampled(plInput);
	return { ranks, plInput, expert };
}

/** The rank rows and the physicians' consensus once, for every part and every metric. */
function expertInput(rows: RankingJudgement[]) {
	const ranks = rankRows(rows);
	return { ranks, plInput: plackettLuceInput(rows, ranks) };
}

/** The experts' leaderboard without intervals (0 resamples). */
function unresampled(plInput: TierRanking[]): ExpertLeaderboard {
	return Object.entries(plackettLuce(plInput).strengths)
		.map(([label, strength]) => ({
			label,
			strength,
			interval: noInterval('no bootstrap requested (0 resamples)')
		}))
		.sort((a, b) => b.strength - a.strength);
}

/** The report of studyAgreement from its extracted input: no database, the same numbers. */
export function studyReport(
	input: StudyInput,
	options: StudyOptions,
	expert = expertPart(input.rows, options)
): StudyAgreement {
	const { report, ratios } = studyReportParts(input, options, expert);
	ratios.run();
	return report;
}

/** studyReport but for its ratio bootstraps: their intervals are set when `ratios` runs. */
function studyReportParts(
	input: StudyInput,
	options: StudyOptions,
	{ ranks, plInput, expert }: ReturnType<typeof expertPart>
): { report: StudyAgreement; ratios: RatioBatch } {
	const { studyId, rows, run, scores, excluded } = input;
	const byQuestion = groupBy(rows, (r) => r.question);
	const strengths = Object.fromEntries(expert.map((e) => [e.label, e.strength]));
	// Each question's ranks by physician once, for the agreement and the consensus both.
	const ranked = rankedQuestions(ranks);
	const scored = run ? scoredCandidates(rows, scores, consensusRanks(ranks, ranked)) : null;
	const ratios = new RatioBatch(options);
	const report: StudyAgreement = {
		studyId,
		options: { ...options, runId: run?.id ?? null },
		run,
		inputs: {
			// One Plackett–Luce ranking per (question, physician).
			rankings: plInput.length,
			questions: byQuestion.size,
			physicians: new Set(rows.map((r) => r.rater)).size,
			entries: rows.length
		},
		excluded,
		ranking: rankingAgreement(ranks, ranked, byQuestion, options, ratios),
		referenceCheck: referenceCheck(rows),
		positionBias: positionBias(rows),
		metrics: scored
			? METRIC_KEYS.map((metric) => metricAgreement(metric, scored, strengths, options, ratios))
					.filter((m) => m.pairwise.pairs > 0)
					.sort((a, b) => (b.accuracy.stat.value ?? -1) - (a.accuracy.stat.value ?? -1))
			: [],
		leaderboards: {
			automatic: run ? automaticLeaderboard(rows, scores, options, ratios) : [],
			expert: expertEntries(expert, byQuestion.size),
			good: goodShares(rows)
		}
	};
	return { report, ratios };
}

/** The report's leaderboard rows from the experts' leaderboard of `questions` ranked questions. */
function expertEntries(expert: ExpertLeaderboard, questions: number) {
	// Plackett–Luce intervals resample questions: over too few they mean nothing.
	const fewRanked = tooFewUnits(questions, 'ranked questions');
	return expert.map((e) => ({
		model: e.label,
		strength: e.strength,
		interval: e.interval.low === null ? e.interval : (fewRanked ?? e.interval)
	}));
}

/** Physicians' agreement, reference check, position bias and metrics against experts for one study. */
export async function studyAgreement(
	db: Db,
	studyId: number,
	options: StudyOptions
): Promise<StudyAgreement> {
	await reportPart(1, 3, 'reading the rankings');
	// The run is known first (a small query); its scores are then read beside the rankings, and
	// awaited only once the Plackett–Luce bootstrap has started.
	const chosen = studyRuns(db, studyId).then((runs) => chosenRun(runs, options));
	const scores: Promise<StudyInput['scores']> = chosen.then((run) =>
		run ? candidateScores(db, studyId, run.id) : new Map()
	);
	scores.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
	const [rows, run, excluded] = await Promise.all([
		rankingJudgements(db, studyId),
		chosen,
		excludedCounts(db, studyId)
	]);
	const threaded = await beside(rows, run, excluded, scores, studyId, options);
	if (threaded) return threaded;
	await reportPart(
		2,
		3,
		resamplesPart("the experts' leaderboard (Plackett–Luce)", options.resamples)
	);
	const expert = await expertPartInSlices(rows, options);
	const scored = await scores;
	await reportPart(
		3,
		3,
		resamplesPart('agreement between physicians and metrics', options.resamples)
	);
	return studyReport({ studyId, rows, run, scores: scored, excluded }, options, expert);
}

/**
 * A large report with several cores: the experts' leaderboard bootstrap runs on worker threads
 * (leaderboard-threads) while this thread computes the rest of the report, then its intervals fill
 * the report's leaderboard; the same report as one thread computes. Null when the bootstrap is
 * not worth threads (small, or one core) or they fail (the caller then computes it here).
 */
async function beside(
	rows: RankingJudgement[],
	run: StudyInput['run'],
	excluded: StudyInput['excluded'],
	scores: Promise<StudyInput['scores']>,
	studyId: number,
	options: StudyOptions
): Promise<StudyAgreement | null> {
	if (options.resamples <= 0) return null;
	const { ranks, plInput } = expertInput(rows);
	const plan = planExpertLeaderboard(plInput, options);
	const threads = bootstrapThreads(plan);
	if (threads < 2) return null;
	await reportPart(
		2,
		3,
		resamplesPart(
			`the experts' leaderboard (Plackett–Luce, on ${threads} threads) and, beside it, the agreement between physicians and metrics`,
			options.resamples
		)
	);
	const expert = leaderboardInThreads(plan, threads, stepsReporter(plan.resamples, 'resamples'));
	expert.catch(() => {}); // awaited below
	const points: ExpertLeaderboard = plan.labels
		.map((label, i) => ({
			label,
			strength: plan.point[i],
			interval: noInterval('not drawn yet')
		}))
		.sort((a, b) => b.strength - a.strength || a.label.localeCompare(b.label));
	const input = { studyId, rows, run, scores: await scores, excluded };
	const { report, ratios } = studyReportParts(input, options, { ranks, plInput, expert: points });
	let leaderboard: ExpertLeaderboard;
	try {
		leaderboard = await expert; // mostly drawn by now
	} catch (error) {
		hereInstead("experts' leaderboard bootstrap", error);
		leaderboard = await inSlices(leaderboardSteps(plan), plan.resamples, 'resamples');
	}
	report.leaderboards.expert = expertEntries(leaderboard, report.inputs.questions);
	await reportPart(
		3,
		3,
		resamplesPart(
			`the intervals of the means and accuracies (on ${threads} threads) and of the tags' alpha`,
			options.resamples
		)
	);
	try {
		await ratios.runInThreads(threads);
	} catch (error) {
		hereInstead('ratio bootstraps', error);
		ratios.run();
	}
	return report;
}

/** Says that a part computed on worker threads failed there and is computed on this thread. */
function hereInstead(part: string, error: unknown) {
	console.warn(
		`The study report's ${part} could not run on worker threads (${(error as Error).message}): computed on this thread instead.`
	);
}
