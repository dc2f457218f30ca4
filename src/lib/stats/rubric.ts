// Rubric studies (HDCEval style): physicians score each answer to a question on sub-aspects, on an
// integer scale; sub-aspects are grouped into aspects. Agreement, model means, score distributions
// and position bias, each with a bootstrap interval that resamples whole QUESTIONS.
import { checkBootstrapOptions, percentileInterval, seedState } from './bootstrap';
import { ratingStatistics, type RatingKey } from './ratings';
import { ratingEstimates } from './ratings-bootstrap';
import { defined, undefinedStat, type Interval, type Rating, type Stat } from './types';

/** One physician's score of one answer on one sub-aspect. */
export interface ScoreRow {
	question: string; // study question id
	candidate: string; // answer id (unit of rating = candidate)
	model: string; // model name, or 'reference'
	rater: string;
	subAspect: string; // sub-aspect code, e.g. 'ACC'
	score: number;
	/** For answers shown two side by side: which side this answer was on; null when shown alone. */
	side?: 'left' | 'right' | null;
	/** Order in which this rater's judgement of the question was submitted among the question's judgements (1 = first). Used for rater slots. */
	slot?: number;
}

/** The rubric: aspects with their sub-aspects, and the score scale. */
export interface RubricShape {
	aspects: { code: string; subAspects: string[] }[];
	scale: { min: number; max: number };
}

/** Options of every bootstrap here: resamples of whole questions, a seed, the level (0.95). */
export interface BootstrapOptions {
	resamples: number;
	seed: string;
	confidence?: number;
}

/** A statistic on the data and its bootstrap interval. */
export interface Estimate {
	stat: Stat;
	interval: Interval;
}

export type KeyKind = 'sub_aspect' | 'aspect';

/** Agreement between physicians on one sub-aspect or aspect. */
export interface RubricAgreement {
	key: string;
	kind: KeyKind;
	/** Answers with at least one score on the key. */
	units: number;
	/** Distinct physicians (true ids). */
	raters: number;
	/** Rater slots (1st, 2nd … judgement of a question). */
	slots: number;
	icc2_1: Estimate;
	icc2_k: Estimate;
	alpha_ordinal: Estimate;
	alpha_interval: Estimate;
	qwk: Estimate;
	notes: string;
}

/** The unit id of an answer: candidates are only assumed unique within their question. */
const SEP = '\u0000';
const unitOf = (question: string, candidate: string) => question + SEP + candidate;
const questionOfUnit = (unit: string) => unit.slice(0, unit.indexOf(SEP));

/** Refuses what would silently bias every statistic: a non-finite score or a score given twice. */
function checkRows(rows: ScoreRow[]): void {
	const seen = new Set<string>();
	for (const r of rows) {
		if (!Number.isFinite(r.score))
			throw new RangeError(
				`rater ${r.rater} gave candidate ${r.candidate} of question ${r.question} a non-numeric score on ${r.subAspect}`
			);
		const key = [r.question, r.candidate, r.rater, r.subAspect].join(SEP);
		if (seen.has(key))
			throw new RangeError(
				`rater ${r.rater} scored candidate ${r.candidate} of question ${r.question} on ${r.subAspect} twice`
			);
		seen.add(key);
	}
}

/** A key of the rubric: a sub-aspect, or an aspect with the sub-aspects it averages. */
interface RubricKey {
	key: string;
	kind: KeyKind;
	subAspects: string[];
}

function rubricKeys(shape: RubricShape): RubricKey[] {
	const subs = shape.aspects.flatMap((a) =>
		a.subAspects.map((s): RubricKey => ({ key: s, kind: 'sub_aspect', subAspects: [s] }))
	);
	const aspects = shape.aspects.map((a): RubricKey => ({
		key: a.code,
		kind: 'aspect',
		subAspects: a.subAspects
	}));
	return [...subs, ...aspects];
}

/** One rater's score of one answer on a key (an aspect score: the mean of its sub-aspects). */
interface KeyScore {
	unit: string;
	question: string;
	candidate: string;
	model: string;
	rater: string;
	value: number;
}

/**
 * Each rater's score of each answer on every key, in row order. An aspect score is the mean of the
 * rater's sub-aspect scores in the aspect, computed as sum / count so that equal means are equal
 * numbers; a rater who left one of the aspect's sub-aspects unscored has no aspect score.
 */
function keyScores(rows: ScoreRow[], keys: RubricKey[]): Map<string, KeyScore[]> {
	const byKey = new Map<string, KeyScore[]>(keys.map((k) => [k.key, []]));
	const subKeys = new Set(keys.filter((k) => k.kind === 'sub_aspect').map((k) => k.key));
	const aspects = keys.filter((k) => k.kind === 'aspect');
	const aspectsOf = new Map<string, number[]>();
	aspects.forEach((a, i) => {
		for (const s of a.subAspects) aspectsOf.set(s, [...(aspectsOf.get(s) ?? []), i]);
	});
	// (answer, rater) → per aspect running sum and count, in first-seen order. Nested maps keyed by
	// strings, not a joined key: a study has millions of rows.
	const byUnit = new Map<string, Map<string, { score: KeyScore; sum: number[]; n: number[] }>>();
	const order: { score: KeyScore; sum: number[]; n: number[] }[] = [];
	for (const r of rows) {
		const unit = unitOf(r.question, r.candidate);
		const inAspects = aspectsOf.get(r.subAspect);
		if (!subKeys.has(r.subAspect) && !inAspects) continue;
		const score: KeyScore = {
			unit,
			question: r.question,
			candidate: r.candidate,
			model: r.model,
			rater: r.rater,
			value: r.score
		};
		if (subKeys.has(r.subAspect)) byKey.get(r.subAspect)!.push(score);
		if (!inAspects) continue;
		let raters = byUnit.get(unit);
		if (!raters) byUnit.set(unit, (raters = new Map()));
		let p = raters.get(r.rater);
		if (!p) {
			raters.set(r.rater, (p = { score, sum: aspects.map(() => 0), n: aspects.map(() => 0) }));
			order.push(p);
		}
		for (const i of inAspects) {
			p.sum[i] += r.score;
			p.n[i]++;
		}
	}
	aspects.forEach((a, i) => {
		const list = byKey.get(a.key)!;
		for (const p of order)
			if (p.n[i] === a.subAspects.length) list.push({ ...p.score, value: p.sum[i] / p.n[i] });
	});
	return byKey;
}

/**
 * Each rater's slot in each question: the `slot` the rows give, or — when any rater of the question
 * has none — the rater's place among the question's raters sorted by id (1 = first).
 */
function raterSlots(rows: ScoreRow[]): Map<string, number> {
	const given = new Map<string, Map<string, number | undefined>>();
	for (const r of rows) {
		let q = given.get(r.question);
		if (!q) given.set(r.question, (q = new Map()));
		const s = r.slot ?? undefined;
		if (!q.has(r.rater) || q.get(r.rater) === undefined) q.set(r.rater, s);
	}
	const slots = new Map<string, number>();
	for (const [question, raters] of given) {
		const complete = [...raters.values()].every((s) => s !== undefined);
		const ids = [...raters.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		ids.forEach((rater, i) =>
			slots.set(question + SEP + rater, complete ? raters.get(rater)! : i + 1)
		);
	}
	return slots;
}

/** The integer scale min..max, or null when the scale is not integer. */
function scaleOrder(shape: RubricShape): number[] | null {
	const { min, max } = shape.scale;
	if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) return null;
	return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

/**
 * The category order of an aspect's scores: every mean of s integer scores is (integer)/s, so the
 * grid (s·min + j)/s covers them with equal steps (QWK's positions stay proportional to values);
 * otherwise the distinct values sorted. Both give the same ordinal alpha (unused categories have
 * no weight in it).
 */
function aspectOrder(shape: RubricShape, s: number, values: number[]): number[] {
	const { min, max } = shape.scale;
	if (Number.isInteger(min) && Number.isInteger(max) && max >= min) {
		const grid = Array.from({ length: s * (max - min) + 1 }, (_, j) => (s * min + j) / s);
		const onGrid = new Set(grid.map(String));
		if (values.every((v) => onGrid.has(String(v)))) return grid;
	}
	return [...new Set(values)].sort((a, b) => a - b);
}

const noInterval = (reason: string): Interval => ({ low: null, high: null, reason });

/** A Stat with its reason from the slow path (ratings.ts) when the fast one found it undefined. */
function estimate(
	key: RatingKey,
	value: number | null,
	interval: Interval | undefined,
	ratings: Rating[],
	order: (string | number)[] | null
): Estimate {
	if (value !== null) return { stat: defined(value), interval: interval! };
	const stat = ratingStatistics(order)[key](ratings);
	const reason = stat.reason ?? 'the statistic is undefined on the data';
	return { stat: undefinedStat(reason), interval: noInterval(reason) };
}

/**
 * Agreement between physicians on every sub-aspect and every aspect (an aspect score of a rater
 * for an answer is the mean of that rater's sub-aspect scores in the aspect, only when all are
 * present), each with a percentile bootstrap interval resampling whole QUESTIONS (all answers and
 * all their scores come along).
 *
 * In a study each question is scored by k raters drawn from a pool, so the raters differ from unit
 * to unit. ICC(2,1), ICC(2,k) and quadratic-weighted kappa need the same raters for every unit:
 * they are computed on rater SLOTS (the rater label is the judgement's place among the question's
 * judgements: `slot` when given, else the raters of the question ranked by id), with listwise
 * deletion (only answers scored in every slot). Krippendorff's alpha handles any raters per unit and
 * is computed on the true rater ids. QWK needs exactly 2 slots. Ordinal alpha and QWK use the full
 * scale min..max as category order (for aspect means the grid of possible means); interval alpha
 * and the ICCs the values.
 */
export function rubricAgreement(
	rows: ScoreRow[],
	shape: RubricShape,
	opts: BootstrapOptions
): RubricAgreement[] {
	const confidence = checkBootstrapOptions({ resamples: opts.resamples, level: opts.confidence });
	checkRows(rows);
	const keys = rubricKeys(shape);
	const scores = keyScores(rows, keys);
	const slotOf = raterSlots(rows);
	const boot = {
		resamples: opts.resamples,
		seed: opts.seed,
		confidence,
		clusterOf: questionOfUnit
	};
	return keys.map(({ key, kind, subAspects }) => {
		const list = scores.get(key)!;
		const byId: Rating[] = list.map((s) => ({ unit: s.unit, rater: s.rater, value: s.value }));
		const bySlot: Rating[] = list.map((s) => ({
			unit: s.unit,
			rater: `slot ${slotOf.get(s.question + SEP + s.rater)}`,
			value: s.value
		}));
		const order =
			kind === 'sub_aspect'
				? scaleOrder(shape)
				: aspectOrder(
						shape,
						subAspects.length,
						list.map((s) => s.value)
					);
		const slots = new Set(bySlot.map((r) => r.rater)).size;
		const units = new Set(list.map((s) => s.unit)).size;
		const raters = new Set(list.map((s) => s.rater)).size;
		if (!list.length) {
			const none = {
				stat: undefinedStat(`no answer was scored on ${key}`),
				interval: noInterval(`no answer was scored on ${key}`)
			};
			return {
				key,
				kind,
				units,
				raters,
				slots,
				icc2_1: none,
				icc2_k: none,
				alpha_ordinal: none,
				alpha_interval: none,
				qwk: none,
				notes: ''
			};
		}
		const sl = ratingEstimates(bySlot, { ...boot, order: order ?? undefined });
		// Alpha depends only on each answer's values, not on who gave them, so when every rater of a
		// question has a slot of their own the slot compilation gives alpha on the ids too (at a
		// fraction of the cost: with a large pool nearly every answer's id pattern is its own type).
		// Otherwise (two raters given one slot) alpha is computed on the ids; same seed, same draws.
		const ids = distinctSlots(bySlot)
			? sl
			: ratingEstimates(byId, { ...boot, order: order ?? undefined });
		const qwk =
			slots === 2
				? estimate(
						'weighted_kappa_quadratic',
						sl.values.weighted_kappa_quadratic,
						sl.intervals?.weighted_kappa_quadratic,
						bySlot,
						order
					)
				: {
						stat: undefinedStat(
							`quadratic-weighted kappa needs exactly 2 rater slots; found ${slots}`
						),
						interval: noInterval(
							`quadratic-weighted kappa needs exactly 2 rater slots; found ${slots}`
						)
					};
		const complete = countComplete(bySlot, slots);
		return {
			key,
			kind,
			units,
			raters,
			slots,
			icc2_1: estimate('icc2_1', sl.values.icc2_1, sl.intervals?.icc2_1, bySlot, order),
			icc2_k: estimate('icc2_k', sl.values.icc2_k, sl.intervals?.icc2_k, bySlot, order),
			alpha_ordinal: estimate(
				'alpha_ordinal',
				ids.values.alpha_ordinal,
				ids.intervals?.alpha_ordinal,
				byId,
				order
			),
			alpha_interval: estimate(
				'alpha_interval',
				ids.values.alpha_interval,
				ids.intervals?.alpha_interval,
				byId,
				order
			),
			qwk,
			notes:
				`ICC and QWK on ${slots} rater slot(s) (1st, 2nd … judgement of each question), not on rater ids, ` +
				`over the ${complete} of ${units} answers scored in every slot; ` +
				`Krippendorff's alpha on the ${raters} rater ids over all ${units} answers; ` +
				`intervals resample questions`
		};
	});
}

/** Whether no two raters share a slot on one answer. */
function distinctSlots(r: Rating[]): boolean {
	const seen = new Set<string>();
	for (const x of r) {
		const key = x.unit + SEP + x.rater;
		if (seen.has(key)) return false;
		seen.add(key);
	}
	return true;
}

/** Answers scored in every one of the slots (the ICC's listwise units). */
function countComplete(r: Rating[], slots: number): number {
	const per = new Map<string, number>();
	for (const x of r) per.set(x.unit, (per.get(x.unit) ?? 0) + 1);
	let n = 0;
	for (const m of per.values()) if (m === slots) n++;
	return n;
}

/** One answer's mean physician score on a key. */
export interface AnswerMean {
	question: string;
	candidate: string;
	model: string;
	/** Mean over the physicians who scored the answer on the key. */
	value: number;
	raters: number;
}

/**
 * Each answer's mean physician score on every sub-aspect and aspect (and, with `overall`, on the
 * mean of all sub-aspects, as an aspect 'overall' holding all of them), in order of first
 * appearance. An aspect mean is the mean over raters of each rater's aspect score.
 */
export function answerMeans(
	rows: ScoreRow[],
	shape: RubricShape,
	opts: { overall?: boolean } = {}
): Map<string, { kind: KeyKind | 'overall'; answers: AnswerMean[] }> {
	checkRows(rows);
	const keys = rubricKeys(shape);
	const all = shape.aspects.flatMap((a) => a.subAspects);
	if (opts.overall) keys.push({ key: 'overall', kind: 'aspect', subAspects: all });
	const scores = keyScores(rows, keys);
	const out = new Map<string, { kind: KeyKind | 'overall'; answers: AnswerMean[] }>();
	for (const { key, kind } of keys) {
		const byUnit = new Map<string, AnswerMean & { sum: number }>();
		for (const s of scores.get(key)!) {
			let a = byUnit.get(s.unit);
			if (!a)
				byUnit.set(
					s.unit,
					(a = {
						question: s.question,
						candidate: s.candidate,
						model: s.model,
						value: 0,
						raters: 0,
						sum: 0
					})
				);
			a.sum += s.value;
			a.raters++;
		}
		out.set(key, {
			kind: opts.overall && key === 'overall' ? 'overall' : kind,
			answers: [...byUnit.values()].map(({ sum, ...a }) => ({ ...a, value: sum / a.raters }))
		});
	}
	return out;
}

/** The questions of the rows in order of first appearance, as every question bootstrap draws them. */
export function questionOrder(rows: { question: string }[]): Map<string, number> {
	const index = new Map<string, number>();
	for (const r of rows) if (!index.has(r.question)) index.set(r.question, index.size);
	return index;
}

/**
 * `bootstrapRatio` for many series over the same questions at once: one seeded draw of questions
 * per resample, shared by every series, summed in draw order — the same intervals as calling
 * `bootstrapRatio` on each series with the seed, without drawing again for each.
 */
export function ratioIntervals(
	series: { numerators: Float64Array; denominators: Float64Array }[],
	opts: { resamples: number; seed: string; level: number }
): Interval[] {
	const plan = planRatios(series, opts);
	if (!plan) return series.map(() => noInterval('no units to resample'));
	return ratioIntervalsOf(plan, [ratioShard(ratioShardOf(plan, 0, plan.resamples))]);
}

/**
 * ratioIntervals before its resamples: the series laid out unit-major (a drawn unit adds one
 * contiguous row to every series' sums, each series still summed in draw order); null without
 * units. Its resamples can be drawn in shards (ratioShardOf, ratioShard), here or on other
 * threads, and put together by ratioIntervalsOf: the very intervals of ratioIntervals.
 */
export interface RatioPlan {
	resamples: number;
	level: number;
	common: Omit<RatioShard, 'from' | 'to'>;
}

export function planRatios(
	series: { numerators: Float64Array; denominators: Float64Array }[],
	opts: { resamples: number; seed: string; level: number }
): RatioPlan | null {
	const S = series.length;
	const n = S ? series[0].numerators.length : 0;
	if (n === 0) return null;
	const num = new Float64Array(n * S);
	const den = new Float64Array(n * S);
	series.forEach(({ numerators, denominators }, k) => {
		for (let i = 0; i < n; i++) {
			num[i * S + k] = numerators[i];
			den[i * S + k] = denominators[i];
		}
	});
	return {
		resamples: opts.resamples,
		level: opts.level,
		common: { num, den, series: S, units: n, state: seedState(opts.seed) }
	};
}

/** The shard of plan's resamples from…to−1. */
export function ratioShardOf(plan: RatioPlan, from: number, to: number): RatioShard {
	return { ...plan.common, from, to };
}

/** Each series' interval from shards covering resamples 0…resamples−1 in order. */
export function ratioIntervalsOf(plan: RatioPlan, results: RatioShardResult[]): Interval[] {
	const S = plan.common.series;
	const values = Array.from({ length: S }, () => new Float64Array(plan.resamples));
	const valid = new Int32Array(S);
	for (const { values: drawn } of results)
		for (let o = 0; o < drawn.length; o += S)
			for (let k = 0; k < S; k++) {
				const v = drawn[o + k];
				if (!Number.isNaN(v)) values[k][valid[k]++] = v;
			}
	return values.map((v, k) =>
		percentileInterval(v.subarray(0, valid[k]), plan.level, plan.resamples)
	);
}

/** A share of ratioIntervals' resamples: plain numbers and typed arrays, for a worker thread. */
export interface RatioShard {
	/** Numerators and denominators, unit-major: unit i's row is i·series … i·series + series − 1. */
	num: Float64Array;
	den: Float64Array;
	series: number;
	units: number;
	/** mulberry32's state before resample 0's first draw (seedState of the seed). */
	state: number;
	from: number;
	to: number;
}

/** Per resample of the shard, each series' ratio (series per resample); NaN where undefined. */
export interface RatioShardResult {
	values: Float64Array;
}

/**
 * Resamples from…to−1: each draws `units` units i = Math.floor(random() · units) of seededRandom(seed) (resample r starts
 * r·units draws in: mulberry32's state advances by a constant at each draw), sums every series'
 * numerators and denominators in draw order, and keeps their ratio where the denominator is not 0
 * and the ratio finite. Uses only its argument and JavaScript's built-ins: it also runs on worker
 * threads, sent there as source text (RATIO_SHARD_SOURCE).
 */
export function ratioShard(job: RatioShard): RatioShardResult {
	const { num, den, series: S, units: n } = job;
	// (x / 2³²) · n and x · (n / 2³²) are both the one rounding of x·n/2³²: the same index.
	const scale = n / 4294967296;
	const top = new Float64Array(S);
	const bottom = new Float64Array(S);
	const values = new Float64Array((job.to - job.from) * S);
	let s = (job.state + Math.imul(job.from * n, 0x6d2b79f5)) | 0;
	for (let r = job.from; r < job.to; r++) {
		top.fill(0);
		bottom.fill(0);
		for (let i = 0; i < n; i++) {
			s = (s + 0x6d2b79f5) | 0;
			let t = s;
			t = Math.imul(t ^ (t >>> 15), t | 1);
			t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
			const o = Math.floor(((t ^ (t >>> 14)) >>> 0) * scale) * S;
			for (let k = 0; k < S; k++) {
				top[k] += num[o + k];
				bottom[k] += den[o + k];
			}
		}
		const at = (r - job.from) * S;
		for (let k = 0; k < S; k++) {
			const v = bottom[k] === 0 ? NaN : top[k] / bottom[k];
			values[at + k] = Number.isFinite(v) ? v : NaN;
		}
	}
	return { values };
}

/** ratioShard as source text for a worker thread (see src/lib/server/threads.ts). */
export const RATIO_SHARD_SOURCE = () =>
	`(() => { var __name = (f) => f; return ${String(ratioShard)}; })()`;

/** A model's mean score on one key. */
export interface ModelMean {
	model: string;
	key: string;
	kind: KeyKind;
	/** Answers of the model with a score on the key. */
	n: number;
	mean: Stat;
	interval: Interval;
}

/**
 * Each model's mean score on every sub-aspect and aspect: the mean over its answers of the answer's
 * mean physician score (each answer weighs the same, however many physicians scored it). The
 * interval resamples whole questions (every model's answers to a drawn question come along) with the
 * same seeded draws for every model and key: a ratio of per-question sums (`bootstrapRatio`).
 */
export function modelMeans(
	rows: ScoreRow[],
	shape: RubricShape,
	opts: BootstrapOptions
): ModelMean[] {
	const level = checkBootstrapOptions({ resamples: opts.resamples, level: opts.confidence });
	const means = answerMeans(rows, shape);
	const questions = questionOrder(rows);
	const models = [...new Set(rows.map((r) => r.model))];
	const out: ModelMean[] = [];
	const series: { numerators: Float64Array; denominators: Float64Array }[] = [];
	for (const model of models) {
		for (const [key, { kind, answers }] of means) {
			const sums = new Float64Array(questions.size);
			const counts = new Float64Array(questions.size);
			let n = 0;
			let total = 0;
			for (const a of answers) {
				if (a.model !== model) continue;
				const q = questions.get(a.question)!;
				sums[q] += a.value;
				counts[q]++;
				total += a.value;
				n++;
			}
			const reason = `model ${model} has no answer scored on ${key}`;
			out.push({
				model,
				key,
				kind: kind as KeyKind,
				n,
				mean: n ? defined(total / n) : undefinedStat(reason),
				interval: noInterval(reason)
			});
			series.push({ numerators: sums, denominators: counts });
		}
	}
	const intervals = ratioIntervals(series, { resamples: opts.resamples, seed: opts.seed, level });
	out.forEach((m, i) => {
		if (m.n) m.interval = intervals[i];
	});
	return out;
}

/** How often each level of the scale was given on a sub-aspect, overall (model null) or per model. */
export interface ScoreDistribution {
	key: string;
	model: string | null;
	/** counts[i] = scores equal to scale.min + i. */
	counts: number[];
	/** Scores that are not a level of the scale (off the scale or between levels). */
	offScale: number;
}

/**
 * The distribution of scores on each sub-aspect over the levels min..max of the scale (every
 * physician score counts once), over all answers (model null) and per model.
 */
export function scoreDistributions(rows: ScoreRow[], shape: RubricShape): ScoreDistribution[] {
	const order = scaleOrder(shape);
	if (!order) throw new RangeError('the scale must run between two integers, min ≤ max');
	const { min } = shape.scale;
	const models = [...new Set(rows.map((r) => r.model))];
	const out: ScoreDistribution[] = [];
	const index = new Map<string, ScoreDistribution>();
	for (const s of shape.aspects.flatMap((a) => a.subAspects)) {
		for (const model of [null, ...models]) {
			const d = { key: s, model, counts: order.map(() => 0), offScale: 0 };
			out.push(d);
			index.set(s + SEP + (model ?? SEP), d);
		}
	}
	for (const r of rows) {
		for (const model of [null, r.model]) {
			const d = index.get(r.subAspect + SEP + (model ?? SEP));
			if (!d) continue;
			const i = r.score - min;
			if (Number.isInteger(i) && i >= 0 && i < d.counts.length) d.counts[i]++;
			else d.offScale++;
		}
	}
	return out;
}

/** Position bias: how much higher an answer shown on the left scores than one on the right. */
export interface PositionBias {
	/** 'overall' or the sub-aspect. */
	key: string;
	pairs: number;
	/** Mean of left − right over the pairs. */
	meanDifference: Stat;
	interval: Interval;
	leftHigher: number;
	rightHigher: number;
	ties: number;
}

/**
 * Position bias of answers shown side by side: a pair is one rater's scores of a left and a right
 * answer of the same question on the same sub-aspect (a rater who saw several pairs of a question
 * pairs every left with every right answer), and its difference is left − right. With sides
 * assigned at random the answers' quality cancels out, so a mean difference away from 0 is the
 * side's effect. Overall and per sub-aspect, with a bootstrap interval resampling questions (a ratio
 * of per-question sums, the same draws for every key). Undefined, saying why, without such pairs.
 */
export function positionBias(rows: ScoreRow[], opts: BootstrapOptions): PositionBias[] {
	const level = checkBootstrapOptions({ resamples: opts.resamples, level: opts.confidence });
	checkRows(rows);
	const questions = questionOrder(rows);
	const groups = new Map<
		string,
		{ question: number; subAspect: string; left: number[]; right: number[] }
	>();
	for (const r of rows) {
		if (r.side !== 'left' && r.side !== 'right') continue;
		const id = [r.question, r.rater, r.subAspect].join(SEP);
		let g = groups.get(id);
		if (!g)
			groups.set(
				id,
				(g = { question: questions.get(r.question)!, subAspect: r.subAspect, left: [], right: [] })
			);
		g[r.side].push(r.score);
	}
	const keys = [
		'overall',
		...new Set(rows.filter((r) => r.side === 'left' || r.side === 'right').map((r) => r.subAspect))
	];
	const acc = new Map(
		keys.map((k) => [
			k,
			{
				sums: new Float64Array(questions.size),
				counts: new Float64Array(questions.size),
				up: 0,
				down: 0,
				ties: 0,
				total: 0,
				pairs: 0
			}
		])
	);
	for (const g of groups.values()) {
		for (const l of g.left)
			for (const r of g.right) {
				for (const k of ['overall', g.subAspect]) {
					const a = acc.get(k)!;
					const d = l - r;
					a.sums[g.question] += d;
					a.counts[g.question]++;
					a.total += d;
					a.pairs++;
					if (d > 0) a.up++;
					else if (d < 0) a.down++;
					else a.ties++;
				}
			}
	}
	const intervals = ratioIntervals(
		keys.map((k) => ({ numerators: acc.get(k)!.sums, denominators: acc.get(k)!.counts })),
		{ resamples: opts.resamples, seed: opts.seed, level }
	);
	return keys.map((key, k) => {
		const a = acc.get(key)!;
		const reason =
			'no rater scored a left and a right answer of the same question on the same sub-aspect';
		return {
			key,
			pairs: a.pairs,
			meanDifference: a.pairs ? defined(a.total / a.pairs) : undefinedStat(reason),
			interval: a.pairs ? intervals[k] : noInterval(reason),
			leftHigher: a.up,
			rightHigher: a.down,
			ties: a.ties
		};
	});
}
