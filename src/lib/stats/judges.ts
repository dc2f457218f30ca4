// Automatic judges (LLM graders, metrics) against physicians, with HDCEval's measures (Zheng et al.,
// AAAI 2025): pairwise accuracy as the primary one, plus Pearson's r and the ICC between judge and
// human. Every interval resamples whole questions with one seeded draw shared by all statistics.
import { checkBootstrapOptions, percentileInterval, seededRandom } from './bootstrap';
import { pearson } from './correlation';
import { pairwiseAccuracy, type PairwiseRow } from './pairwise';
import { icc } from './ratings';
import {
	answerMeans,
	questionOrder,
	ratioIntervals,
	type BootstrapOptions,
	type RubricShape,
	type ScoreRow
} from './rubric';
import { defined, undefinedStat, type Interval, type Rating, type Stat } from './types';

/** A judge's score of one answer on one sub-aspect. */
export interface JudgeScoreRow {
	judge: string;
	question: string;
	candidate: string;
	subAspect: string;
	score: number;
}

/** A judge's preference between two answers of a question (on a sub-aspect, or overall). */
export interface JudgePreferenceRow {
	judge: string;
	question: string;
	candidateA: string;
	candidateB: string;
	preferred: 'A' | 'B' | 'tie';
	subAspect?: string | null;
}

export type JudgeKeyKind = 'sub_aspect' | 'aspect' | 'overall';

/** How well one judge agrees with the physicians on one key. */
export interface JudgeAgreement {
	judge: string;
	key: string;
	kind: JudgeKeyKind;
	/** Answers with both a judge score and a physician mean on the key. */
	answers: number;
	/** Pairs of answers to one question whose physician means differ. */
	pairs: number;
	pairwiseAccuracy: Stat;
	pairwiseInterval: Interval;
	pearson: Stat;
	pearsonInterval: Interval;
	icc: Stat;
	iccInterval: Interval;
}

const noInterval = (reason: string): Interval => ({ low: null, high: null, reason });
const answerId = (question: string, candidate: string) => question + '\u0000' + candidate;

/**
 * Each judge's value of each answer per key, as the physicians' are built (rubric.ts answerMeans):
 * the sub-aspect score; an aspect's = the mean of the judge's sub-aspect scores in it, only when
 * all are present; 'overall' the same over every sub-aspect, unless the judge gave an answer an
 * 'overall' score of its own (a metric scoring answers as a whole), which is then used. A judge scoring an answer twice on a
 * sub-aspect is an error.
 */
function judgeValues(
	rows: JudgeScoreRow[],
	shape: RubricShape
): Map<string, Map<string, Map<string, number>>> {
	const scores = new Map<string, Map<string, Map<string, number>>>(); // judge → answer → sub → score
	for (const r of rows) {
		if (!Number.isFinite(r.score))
			throw new RangeError(
				`judge ${r.judge} gave a non-numeric score to ${r.candidate} on ${r.subAspect}`
			);
		let j = scores.get(r.judge);
		if (!j) scores.set(r.judge, (j = new Map()));
		const id = answerId(r.question, r.candidate);
		let a = j.get(id);
		if (!a) j.set(id, (a = new Map()));
		if (a.has(r.subAspect))
			throw new RangeError(
				`judge ${r.judge} scored candidate ${r.candidate} of question ${r.question} on ${r.subAspect} twice`
			);
		a.set(r.subAspect, r.score);
	}
	const groups: [string, string[]][] = [
		...shape.aspects.flatMap((a) => a.subAspects.map((s): [string, string[]] => [s, [s]])),
		...shape.aspects.map((a): [string, string[]] => [a.code, a.subAspects]),
		['overall', shape.aspects.flatMap((a) => a.subAspects)]
	];
	const out = new Map<string, Map<string, Map<string, number>>>(); // judge → key → answer → value
	for (const [judge, answers] of scores) {
		const byKey = new Map<string, Map<string, number>>(groups.map(([k]) => [k, new Map()]));
		for (const [id, subs] of answers) {
			for (const [key, members] of groups) {
				if (!members.every((s) => subs.has(s))) continue;
				let sum = 0;
				for (const s of members) sum += subs.get(s)!;
				byKey.get(key)!.set(id, sum / members.length);
			}
			// A judge that scores answers as a whole (a metric) gives 'overall' itself.
			if (subs.has('overall')) byKey.get('overall')!.set(id, subs.get('overall')!);
		}
		out.set(judge, byKey);
	}
	return out;
}

/** The kind of each key of the rubric, with 'overall'. */
function keyKinds(shape: RubricShape): [string, JudgeKeyKind][] {
	return [
		...shape.aspects.flatMap((a) =>
			a.subAspects.map((s): [string, JudgeKeyKind] => [s, 'sub_aspect'])
		),
		...shape.aspects.map((a): [string, JudgeKeyKind] => [a.code, 'aspect']),
		['overall', 'overall']
	];
}

/**
 * Agreement of each automatic judge with the physicians, per sub-aspect, per aspect and 'overall'
 * (the mean of all sub-aspects). The expert value of an answer is its mean physician score (an
 * aspect's: the mean over physicians of each one's aspect score).
 * - Pairwise accuracy (HDCEval's primary measure; `pairwiseAccuracy` of pairwise.ts): over every pair
 *   of answers to the same question whose physician means differ, 1 when the judge orders them the
 *   same way, 0.5 when the judge ties them, 0 otherwise; pairs the physicians tie are not counted.
 * - Pearson's r between the judge's score and the physician mean over the answers.
 * - ICC(2,1), two-way random effects, absolute agreement (Shrout & Fleiss 1979), treating the judge
 *   and the physician mean as two raters of each answer: it is high only when the judge's scores
 *   equal the physicians' on the same scale, not merely rise with them (as Pearson's r does).
 * Answers the judge or the physicians did not score on the key are left out. Intervals: percentile
 * bootstrap resampling questions (all a drawn question's answers come along), one seeded draw per
 * resample shared by the three statistics, every judge and every key, so the same seed gives the
 * same output; a resample where a statistic is undefined is skipped (counted out of `valid`).
 */
export function judgeAgreement(
	physicianRows: ScoreRow[],
	judgeRows: JudgeScoreRow[],
	shape: RubricShape,
	opts: BootstrapOptions
): JudgeAgreement[] {
	const level = checkBootstrapOptions({ resamples: opts.resamples, level: opts.confidence });
	const experts = answerMeans(physicianRows, shape, { overall: true });
	const questions = questionOrder(physicianRows);
	const Q = questions.size;
	// The draws, once: draw[s·Q + i] is the i-th question of resample s (as bootstrap() draws them).
	const random = seededRandom(opts.seed);
	const draw = new Int32Array(opts.resamples * Q);
	for (let i = 0; i < draw.length; i++) draw[i] = Math.floor(random() * Q);
	const judges = judgeValues(judgeRows, shape);
	const out: JudgeAgreement[] = [];
	for (const [judge, byKey] of judges) {
		for (const [key, kind] of keyKinds(shape)) {
			const mine = byKey.get(key)!;
			const x: number[] = []; // judge
			const y: number[] = []; // physicians
			const q: number[] = [];
			const rows: PairwiseRow[] = [];
			for (const a of experts.get(key)!.answers) {
				const v = mine.get(answerId(a.question, a.candidate));
				if (v === undefined) continue;
				x.push(v);
				y.push(a.value);
				q.push(questions.get(a.question)!);
				// A higher physician mean is a better (lower) rank.
				rows.push({
					question: a.question,
					candidate: a.candidate,
					expertRank: -a.value,
					metric: v
				});
			}
			const pa = pairwiseAccuracy(rows);
			const r = pearson(x, y);
			const ratings: Rating[] = x.flatMap((v, i) => [
				{ unit: String(i), rater: 'judge', value: v },
				{ unit: String(i), rater: 'physicians', value: y[i] }
			]);
			const agreement = icc(ratings, '2,1');
			const boot = questionBootstrap(x, y, q, rows, Q, draw, opts.resamples, level, {
				pairwise: pa.accuracy,
				pearson: r,
				icc: agreement
			});
			out.push({
				judge,
				key,
				kind,
				answers: x.length,
				pairs: pa.pairs,
				pairwiseAccuracy: pa.accuracy,
				pairwiseInterval: boot.pairwise,
				pearson: r,
				pearsonInterval: boot.pearson,
				icc: agreement,
				iccInterval: boot.icc
			});
		}
	}
	return out;
}

/**
 * The three intervals from per-question sufficient statistics: pair counts for the accuracy, and
 * Σx, Σy, Σx², Σy², Σxy, n (shifted by the full-data means, against cancellation) for Pearson's r
 * and the two-rater ICC ANOVA, so a resample is a sum over its drawn questions.
 */
function questionBootstrap(
	x: number[],
	y: number[],
	q: number[],
	rows: PairwiseRow[],
	Q: number,
	draw: Int32Array,
	resamples: number,
	level: number,
	stats: { pairwise: Stat; pearson: Stat; icc: Stat }
): { pairwise: Interval; pearson: Interval; icc: Interval } {
	const n = x.length;
	// One shift for both raters: the ICC's rater (column) effect is the difference of their means.
	const c = (x.reduce((s, v) => s + v, 0) + y.reduce((s, v) => s + v, 0)) / (2 * n || 1);
	// Per question: [n, Σdx, Σdy, Σdx², Σdy², Σdxdy, hits, pairs], dx = x − c, dy = y − c.
	const W = 8;
	const per = new Float64Array(Q * W);
	for (let i = 0; i < n; i++) {
		const dx = x[i] - c;
		const dy = y[i] - c;
		const o = q[i] * W;
		per[o]++;
		per[o + 1] += dx;
		per[o + 2] += dy;
		per[o + 3] += dx * dx;
		per[o + 4] += dy * dy;
		per[o + 5] += dx * dy;
	}
	const byQuestion = new Map<number, PairwiseRow[]>();
	rows.forEach((r, i) => {
		const list = byQuestion.get(q[i]);
		if (list) list.push(r);
		else byQuestion.set(q[i], [r]);
	});
	for (const [question, list] of byQuestion) {
		// Counted per question, so a resample's accuracy is a sum of its questions' counts.
		const p = pairwiseAccuracy(list);
		const o = question * W;
		per[o + 6] = p.concordant + 0.5 * p.metric_ties;
		per[o + 7] = p.pairs;
	}
	const pv = new Float64Array(resamples);
	const rv = new Float64Array(resamples);
	const iv = new Float64Array(resamples);
	let pn = 0;
	let rn = 0;
	let inn = 0;
	const t = new Float64Array(W);
	for (let s = 0; s < resamples; s++) {
		t.fill(0);
		for (let i = s * Q, end = i + Q; i < end; i++) {
			const o = draw[i] * W;
			for (let w = 0; w < W; w++) t[w] += per[o + w];
		}
		const [m, sx, sy, sxx, syy, sxy, hits, pairs] = t;
		if (pairs > 0) pv[pn++] = hits / pairs;
		if (m < 2) continue;
		const cxx = sxx - (sx * sx) / m;
		const cyy = syy - (sy * sy) / m;
		const cxy = sxy - (sx * sy) / m;
		// Zero variance up to rounding of the shifted sums: the statistic is undefined here.
		const tiny = 1e-12 * (sxx + syy + 1e-300);
		if (cxx > tiny && cyy > tiny) rv[rn++] = Math.max(-1, Math.min(1, cxy / Math.sqrt(cxx * cyy)));
		// Two raters (judge, physicians) of m answers: rows = answers, columns = the two raters.
		// SS_rows = Σ((x+y)/2 − g)²·2, SS_cols = m[(x̄−g)² + (ȳ−g)²], SS_total = Σ(x−g)² + Σ(y−g)².
		const g = (sx + sy) / (2 * m);
		const ssr = (sxx + syy + 2 * sxy) / 2 - 2 * m * g * g;
		const ssc = m * ((sx / m - g) ** 2 + (sy / m - g) ** 2);
		const sst = sxx + syy - 2 * m * g * g;
		if (!(sst > tiny)) continue;
		const msr = ssr / (m - 1);
		const msc = ssc;
		const mse = Math.max(0, sst - ssr - ssc) / (m - 1);
		const d = msr + mse + (2 * (msc - mse)) / m;
		if (d > 1e-12 * (msr + msc + mse)) iv[inn++] = (msr - mse) / d;
	}
	const interval = (stat: Stat, values: Float64Array, k: number) =>
		stat.value === null
			? noInterval(stat.reason)
			: percentileInterval(values.subarray(0, k), level, resamples);
	return {
		pairwise: interval(stats.pairwise, pv, pn),
		pearson: interval(stats.pearson, rv, rn),
		icc: interval(stats.icc, iv, inn)
	};
}

/** How often one judge's preferences follow the physicians' mean scores. */
export interface JudgePreferenceAgreement {
	judge: string;
	/** The sub-aspect, or 'overall' for preferences given on the answer as a whole. */
	key: string;
	/** Preferences between answers whose physician means differ. */
	pairs: number;
	/** Preferences not counted: the physicians scored the two answers equally. */
	physicianTies: number;
	/** Preferences not counted: an answer has no physician score on the key. */
	unscored: number;
	judgeTies: number;
	accuracy: Stat;
	interval: Interval;
}

/**
 * Accuracy of each judge's pairwise preferences against the physicians' order by mean score (on
 * the preference's sub-aspect, or on the mean of all sub-aspects when it has none): 1 when the judge
 * prefers the answer the physicians scored higher, 0.5 for a judge tie, 0 otherwise; pairs the
 * physicians score equally, or that they did not score, are not counted. Per judge and key, with a
 * percentile bootstrap interval resampling questions (`bootstrapRatio` over per-question sums,
 * the same seeded draws for every judge and key).
 */
export function judgePreferenceAgreement(
	physicianRows: ScoreRow[],
	prefRows: JudgePreferenceRow[],
	shape: RubricShape,
	opts: BootstrapOptions
): JudgePreferenceAgreement[] {
	const level = checkBootstrapOptions({ resamples: opts.resamples, level: opts.confidence });
	const experts = answerMeans(physicianRows, shape, { overall: true });
	const value = new Map<string, Map<string, number>>();
	for (const [key, { answers }] of experts)
		value.set(key, new Map(answers.map((a) => [answerId(a.question, a.candidate), a.value])));
	const questions = questionOrder(physicianRows);
	const acc = new Map<
		string,
		{
			judge: string;
			key: string;
			hits: Float64Array;
			pairs: Float64Array;
			n: number;
			ties: number;
			judgeTies: number;
			unscored: number;
			total: number;
		}
	>();
	for (const p of prefRows) {
		const key = p.subAspect ?? 'overall';
		const id = JSON.stringify([p.judge, key]);
		let a = acc.get(id);
		if (!a)
			acc.set(
				id,
				(a = {
					judge: p.judge,
					key,
					hits: new Float64Array(questions.size),
					pairs: new Float64Array(questions.size),
					n: 0,
					ties: 0,
					judgeTies: 0,
					unscored: 0,
					total: 0
				})
			);
		const values = value.get(key);
		const va = values?.get(answerId(p.question, p.candidateA));
		const vb = values?.get(answerId(p.question, p.candidateB));
		if (va === undefined || vb === undefined) {
			a.unscored++;
			continue;
		}
		if (va === vb) {
			a.ties++;
			continue;
		}
		const hit = p.preferred === 'tie' ? 0.5 : (p.preferred === 'A') === va > vb ? 1 : 0;
		if (p.preferred === 'tie') a.judgeTies++;
		const q = questions.get(p.question)!;
		a.hits[q] += hit;
		a.pairs[q]++;
		a.total += hit;
		a.n++;
	}
	const intervals = ratioIntervals(
		[...acc.values()].map((a) => ({ numerators: a.hits, denominators: a.pairs })),
		{ resamples: opts.resamples, seed: opts.seed, level }
	);
	return [...acc.values()].map((a, k) => {
		const reason = `no preference of ${a.judge} on ${a.key} is between answers the physicians scored differently`;
		return {
			judge: a.judge,
			key: a.key,
			pairs: a.n,
			physicianTies: a.ties,
			unscored: a.unscored,
			judgeTies: a.judgeTies,
			accuracy: a.n ? defined(a.total / a.n) : undefinedStat(reason),
			interval: a.n ? intervals[k] : noInterval(reason)
		};
	});
}

/**
 * Judges best first by their overall pairwise accuracy, ties broken by overall Pearson's r (an
 * undefined value ranks below every defined one), then by name so the order is deterministic.
 * Returns each judge's 'overall' result.
 */
export function rankJudges(results: JudgeAgreement[]): JudgeAgreement[] {
	const v = (s: Stat) => (s.value === null ? -Infinity : s.value);
	return results
		.filter((r) => r.key === 'overall')
		.sort(
			(a, b) =>
				v(b.pairwiseAccuracy) - v(a.pairwiseAccuracy) ||
				v(b.pearson) - v(a.pearson) ||
				(a.judge < b.judge ? -1 : a.judge > b.judge ? 1 : 0)
		);
}

/** One answer of a judge's scatter plot: the judge's value (x) against the physician mean (y). */
export interface JudgePoint {
	judge: string;
	key: string;
	question: string;
	candidate: string;
	model: string;
	judgeScore: number;
	physicianMean: number;
}

/**
 * The answers behind each judge's Pearson's r and ICC on one key ('overall' by default): every
 * answer with both a judge value and a physician mean, paired exactly as `judgeAgreement` pairs
 * them (so `pearson` over the points is the judge's r), per judge in the physicians' answer order.
 */
export function judgePoints(
	physicianRows: ScoreRow[],
	judgeRows: JudgeScoreRow[],
	shape: RubricShape,
	key = 'overall'
): JudgePoint[] {
	const experts = answerMeans(physicianRows, shape, { overall: true }).get(key);
	if (!experts) throw new RangeError(`${key} is neither a sub-aspect, an aspect nor overall`);
	const out: JudgePoint[] = [];
	for (const [judge, byKey] of judgeValues(judgeRows, shape)) {
		const mine = byKey.get(key)!;
		for (const a of experts.answers) {
			const v = mine.get(answerId(a.question, a.candidate));
			if (v === undefined) continue;
			out.push({
				judge,
				key,
				question: a.question,
				candidate: a.candidate,
				model: a.model,
				judgeScore: v,
				physicianMean: a.value
			});
		}
	}
	return out;
}
