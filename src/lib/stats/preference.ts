// Pairwise preference studies: a physician sees the answers of two models side by side and says
// which is better, or that both are good or both bad. The judgements become Bradley–Terry battles
// (bradley-terry.ts, style-control.ts); here are the checks that belong beside the ratings: the
// win matrix, position and verbosity bias, and agreement between physicians on the outcome in a
// canonical model order (sides are counterbalanced, so left/right outcomes must not be compared).
// Rankings and rubric scores are turned into battles too, so every design feeds one leaderboard.
import { wilson } from './blinding-attack';
import type { Battle, BattleWinner } from './bradley-terry';
import { cohenKappa, fleissKappa, krippendorffAlpha, percentAgreement } from './ratings';
import { defined, undefinedStat, type Rating, type Stat } from './types';

export { styleControlledBt, type LengthBattle, type StyleControlledBt } from './style-control';

import { PREFERENCE_OUTCOMES, type PreferenceOutcome } from '../constants';
export { PREFERENCE_OUTCOMES, type PreferenceOutcome };

/** One physician's judgement of two answers; left/right name the models as shown. */
export interface PreferenceRow {
	question: string;
	rater: string;
	left: string;
	right: string;
	outcome: PreferenceOutcome;
	/** Characters of the text shown on each side. */
	leftLength?: number;
	rightLength?: number;
}

const WINNER: Record<PreferenceOutcome, BattleWinner> = {
	left: 'model_a',
	right: 'model_b',
	tie_good: 'tie',
	tie_bad: 'tie (bothbad)'
};

function checkRow(r: PreferenceRow): void {
	if (!PREFERENCE_OUTCOMES.includes(r.outcome))
		throw new RangeError(`unknown preference outcome "${r.outcome}" (question ${r.question})`);
	if (r.left === r.right)
		throw new RangeError(`${r.left} shown against itself (question ${r.question})`);
}

/** The judgements as battles: model A is the left answer, B the right; both-good is `tie`, both-bad `tie (bothbad)`. */
export function preferenceBattles(rows: PreferenceRow[]): Battle[] {
	return rows.map((r) => {
		checkRow(r);
		return { question: r.question, modelA: r.left, modelB: r.right, winner: WINNER[r.outcome] };
	});
}

/** One ordered pair of the win matrix: a's record against b. */
export interface WinCell {
	a: string;
	b: string;
	wins: number;
	ties: number;
	losses: number;
	n: number;
	/** (wins + ½ ties) / n; undefined with no battle. */
	share: Stat;
}

/**
 * For every ordered pair of models (a, b), a ≠ b, models sorted: a's wins over b, ties (either
 * kind), losses, battles and win share with ties as half. Cell (b, a) mirrors (a, b).
 */
export function winMatrix(battles: Battle[]): { models: string[]; cells: WinCell[] } {
	const models = [...new Set(battles.flatMap((b) => [b.modelA, b.modelB]))].sort();
	const k = models.length;
	const index = new Map(models.map((m, i) => [m, i]));
	const wins = new Float64Array(k * k);
	const ties = new Float64Array(k * k);
	for (const b of battles) {
		const x = index.get(b.modelA)!;
		const y = index.get(b.modelB)!;
		if (x === y)
			throw new RangeError(`a battle of ${b.modelA} against itself (question ${b.question})`);
		if (b.winner === 'model_a') wins[x * k + y]++;
		else if (b.winner === 'model_b') wins[y * k + x]++;
		else if (b.winner === 'tie' || b.winner === 'tie (bothbad)') {
			ties[x * k + y]++;
			ties[y * k + x]++;
		} else throw new RangeError(`unknown winner label "${b.winner}" (question ${b.question})`);
	}
	const cells: WinCell[] = [];
	for (let x = 0; x < k; x++)
		for (let y = 0; y < k; y++) {
			if (x === y) continue;
			const w = wins[x * k + y];
			const t = ties[x * k + y];
			const l = wins[y * k + x];
			const n = w + t + l;
			cells.push({
				a: models[x],
				b: models[y],
				wins: w,
				ties: t,
				losses: l,
				n,
				share: n
					? defined((w + t / 2) / n)
					: undefinedStat(`${models[x]} and ${models[y]} never met`)
			});
		}
	return { models, cells };
}

/**
 * The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9), for
 * the z of a two-sided interval at `level`.
 */
export function normalQuantile(p: number): number {
	if (!(p > 0 && p < 1)) throw new RangeError('p must be between 0 and 1');
	const a = [
		-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
		2.506628277459239
	];
	const b = [
		-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572
	];
	const c = [
		-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
		4.374664141464968, 2.938163982698783
	];
	const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
	const tail = (q: number) =>
		(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
	if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
	const q = p - 0.5;
	const r = q * q;
	return (
		((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
		(((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
	);
}

/** A share of judgements with its Wilson interval (null when there is no judgement). */
export interface Proportion {
	hits: number;
	n: number;
	share: Stat;
	interval: { low: number; high: number; level: number } | null;
}

function proportion(hits: number, n: number, level: number, none: string): Proportion {
	if (n === 0) return { hits, n, share: undefinedStat(none), interval: null };
	return {
		hits,
		n,
		share: defined(hits / n),
		interval: { ...wilson(hits, n, normalQuantile((1 + level) / 2)), level }
	};
}

function checkLevel(level: number): void {
	if (!(level > 0 && level < 1)) throw new RangeError('level must be between 0 and 1');
}

/** Position bias of one rater (or of everyone): left wins among the judgements that chose a side. */
export interface PositionBias extends Proportion {
	/** Null for everyone together. */
	rater: string | null;
	/** The judgements that were ties (either kind), not counted in n. */
	ties: number;
	/** The interval excludes ½: the left side won more (or less) often than chance. */
	flagged: boolean;
}

/**
 * How often the left answer won among judgements that chose a side (ties left out), overall and
 * per rater (sorted), with a Wilson interval at `level`; flagged when the interval excludes ½.
 * Undefined (with its reason) when no judgement chose a side.
 */
export function positionBias(
	rows: PreferenceRow[],
	level = 0.95
): { overall: PositionBias; raters: PositionBias[] } {
	checkLevel(level);
	const of = (rater: string | null, rs: PreferenceRow[]): PositionBias => {
		let left = 0;
		let n = 0;
		for (const r of rs) {
			checkRow(r);
			if (r.outcome === 'left' || r.outcome === 'right') {
				n++;
				if (r.outcome === 'left') left++;
			}
		}
		const p = proportion(left, n, level, 'no judgement chose a side (all were ties)');
		return {
			rater,
			...p,
			ties: rs.length - n,
			flagged: p.interval !== null && (p.interval.low > 0.5 || p.interval.high < 0.5)
		};
	};
	const raters = [...new Set(rows.map((r) => r.rater))].sort();
	return {
		overall: of(null, rows),
		raters: raters.map((x) =>
			of(
				x,
				rows.filter((r) => r.rater === x)
			)
		)
	};
}

/** The length-ratio bands (longer / shorter) of `verbosityBias`: [low, high), high null for ∞. */
export const LENGTH_RATIO_BANDS: readonly { low: number; high: number | null }[] = [
	{ low: 1, high: 1.25 },
	{ low: 1.25, high: 1.5 },
	{ low: 1.5, high: 2 },
	{ low: 2, high: null }
];

export interface VerbosityBand extends Proportion {
	low: number;
	high: number | null;
}

/**
 * How often the longer answer won, among judgements that chose a side and whose two answers have
 * known, unequal lengths: overall and per length-ratio band (longer/shorter; a shorter answer of
 * length 0 falls in the last band). Ties, judgements without both lengths and equal lengths are
 * counted apart. Wilson intervals at `level`.
 */
export function verbosityBias(
	rows: PreferenceRow[],
	level = 0.95
): {
	overall: Proportion;
	bands: VerbosityBand[];
	ties: number;
	withoutLengths: number;
	equalLength: number;
} {
	checkLevel(level);
	const hits = LENGTH_RATIO_BANDS.map(() => 0);
	const ns = LENGTH_RATIO_BANDS.map(() => 0);
	let ties = 0;
	let withoutLengths = 0;
	let equalLength = 0;
	for (const r of rows) {
		checkRow(r);
		if (r.outcome !== 'left' && r.outcome !== 'right') {
			ties++;
			continue;
		}
		const { leftLength: l, rightLength: rl } = r;
		if (l === undefined || rl === undefined || !Number.isFinite(l) || !Number.isFinite(rl)) {
			withoutLengths++;
			continue;
		}
		if (l === rl) {
			equalLength++;
			continue;
		}
		const longer = l > rl ? 'left' : 'right';
		const ratio = Math.max(l, rl) / Math.min(l, rl); // ∞ when the shorter is empty
		const band = LENGTH_RATIO_BANDS.findIndex(
			(b) => ratio >= b.low && (b.high === null || ratio < b.high)
		);
		ns[band]++;
		if (r.outcome === longer) hits[band]++;
	}
	const none = 'no judgement chose a side between answers of unequal known length';
	const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);
	return {
		overall: proportion(sum(hits), sum(ns), level, none),
		bands: LENGTH_RATIO_BANDS.map((b, i) => ({ ...b, ...proportion(hits[i], ns[i], level, none) })),
		ties,
		withoutLengths,
		equalLength
	};
}

/** Agreement between physicians on one coding of the outcome. */
export interface AgreementFigures {
	percentAgreement: Stat;
	cohenKappa: Stat;
	fleissKappa: Stat;
	alphaNominal: Stat;
}

/**
 * The outcome of a judgement in the canonical order of its pair of models (alphabetically first
 * model = `first`): `first`, `second`, or the tie (`tie` in the three-way coding; `tie_good` or
 * `tie_bad` in the four-way one). Independent of the side each model was shown on.
 */
export function canonicalOutcome(r: PreferenceRow, fourWay = false): string {
	checkRow(r);
	if (r.outcome === 'tie_good' || r.outcome === 'tie_bad') return fourWay ? r.outcome : 'tie';
	const winner = r.outcome === 'left' ? r.left : r.right;
	const first = r.left < r.right ? r.left : r.right;
	return winner === first ? 'first' : 'second';
}

/**
 * Agreement between physicians on the outcome of each unit — a question and an unordered pair of
 * models — coded in the canonical model order (`canonicalOutcome`), never as left/right (the sides
 * are counterbalanced between physicians, so two who preferred the same model on opposite sides
 * agree). Three-way (first / second / tie) and four-way (the two tie kinds apart): percent
 * agreement, Cohen's kappa (exactly 2 raters), Fleiss' kappa (units rated by every rater) and
 * Krippendorff's alpha (nominal), as ratings.ts defines them.
 */
export function preferenceAgreement(rows: PreferenceRow[]): {
	units: number;
	pairableUnits: number;
	raters: number;
	threeWay: AgreementFigures;
	fourWay: AgreementFigures;
} {
	const unit = (r: PreferenceRow) => JSON.stringify([r.question, ...[r.left, r.right].sort()]);
	const ratings = (fourWay: boolean): Rating[] =>
		rows.map((r) => ({ unit: unit(r), rater: r.rater, value: canonicalOutcome(r, fourWay) }));
	const figures = (r: Rating[]): AgreementFigures => ({
		percentAgreement: percentAgreement(r),
		cohenKappa: cohenKappa(r),
		fleissKappa: fleissKappa(r),
		alphaNominal: krippendorffAlpha(r, 'nominal')
	});
	const raters = new Map<string, Set<string>>();
	for (const r of rows) {
		const u = unit(r);
		if (!raters.has(u)) raters.set(u, new Set());
		raters.get(u)!.add(r.rater);
	}
	return {
		units: raters.size,
		pairableUnits: [...raters.values()].filter((s) => s.size >= 2).length,
		raters: new Set(rows.map((r) => r.rater)).size,
		threeWay: figures(ratings(false)),
		fourWay: figures(ratings(true))
	};
}

/** Orders the models of a battle alphabetically and gives the winner by `better` (>0: first wins). */
function battle(question: string, x: string, y: string, better: number): Battle {
	const [modelA, modelB, sign] = x < y ? [x, y, 1] : [y, x, -1];
	const s = sign * better;
	return { question, modelA, modelB, winner: s > 0 ? 'model_a' : s < 0 ? 'model_b' : 'tie' };
}

/**
 * Each rater's ranking of a question's answers as its k(k−1)/2 battles: the lower rank wins, equal
 * ranks tie (`tie`). Model A is the alphabetically first of the pair; the question is the battle's
 * question (the bootstrap unit). A model ranked twice by one rater in a question is an error.
 */
export function rankingBattles(
	rows: { question: string; rater: string; model: string; rank: number }[]
): Battle[] {
	const sheets = new Map<string, { question: string; ranks: Map<string, number> }>();
	for (const r of rows) {
		if (!Number.isFinite(r.rank))
			throw new RangeError(`rank ${r.rank} is not a number (question ${r.question})`);
		const key = JSON.stringify([r.question, r.rater]);
		let sheet = sheets.get(key);
		if (!sheet) sheets.set(key, (sheet = { question: r.question, ranks: new Map() }));
		if (sheet.ranks.has(r.model))
			throw new RangeError(`${r.rater} ranked ${r.model} twice in question ${r.question}`);
		sheet.ranks.set(r.model, r.rank);
	}
	const out: Battle[] = [];
	for (const { question, ranks } of sheets.values()) {
		const models = [...ranks.keys()].sort();
		for (let i = 0; i < models.length; i++)
			for (let j = i + 1; j < models.length; j++)
				out.push(
					battle(question, models[i], models[j], ranks.get(models[j])! - ranks.get(models[i])!)
				);
	}
	return out;
}

/**
 * Rubric scores on one aspect as battles: per question, each model's mean score on the aspect
 * (over all its raters and sub-aspects); for each pair of models the higher mean wins, equal means
 * tie. One battle per model pair per question; model A is the alphabetically first.
 */
export function rubricBattles(
	rows: { question: string; rater: string; model: string; aspect: string; score: number }[],
	aspect: string
): Battle[] {
	const byQuestion = new Map<string, Map<string, { sum: number; n: number }>>();
	for (const r of rows) {
		if (r.aspect !== aspect) continue;
		if (!Number.isFinite(r.score))
			throw new RangeError(`score ${r.score} is not a number (question ${r.question})`);
		let q = byQuestion.get(r.question);
		if (!q) byQuestion.set(r.question, (q = new Map()));
		const m = q.get(r.model) ?? { sum: 0, n: 0 };
		m.sum += r.score;
		m.n++;
		q.set(r.model, m);
	}
	const out: Battle[] = [];
	for (const [question, means] of byQuestion) {
		const models = [...means.keys()].sort();
		const mean = (m: string) => means.get(m)!.sum / means.get(m)!.n;
		for (let i = 0; i < models.length; i++)
			for (let j = i + 1; j < models.length; j++)
				out.push(battle(question, models[i], models[j], mean(models[i]) - mean(models[j])));
	}
	return out;
}
