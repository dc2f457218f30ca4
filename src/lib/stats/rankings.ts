// Agreement among raters who rank the candidates of a question: Kendall's W and pairwise tau-b.
import { averageRanks, tauBOf } from './correlation';
import { defined, undefinedStat, type RankRow, type Stat } from './types';

/** One rater's ranking of one question: candidate → average rank among the candidates they ranked. */
type RaterRanks = Map<string, number>;

/** Rows grouped by question, then rater; insertion order of questions is kept. */
export function groupRankRows(rows: RankRow[]): Map<string, Map<string, RankRow[]>> {
	const byQuestion = new Map<string, Map<string, RankRow[]>>();
	for (const r of rows) {
		let raters = byQuestion.get(r.question);
		if (!raters) byQuestion.set(r.question, (raters = new Map()));
		const list = raters.get(r.rater);
		if (list) list.push(r);
		else raters.set(r.rater, [r]);
	}
	return byQuestion;
}

/**
 * A rater's ranks re-expressed as average ranks 1…k over the candidates they ranked, so that the
 * conventions 1,1,3 and 1,1,2 for a tie both read 1.5,1.5,3. Null when the rater gave one candidate
 * two rows (an ambiguous ranking, left out).
 */
function raterRanks(rows: RankRow[]): RaterRanks | null {
	const ranks = averageRanks(rows.map((r) => r.rank));
	const out: RaterRanks = new Map();
	for (let i = 0; i < rows.length; i++) {
		if (out.has(rows[i].candidate)) return null;
		out.set(rows[i].candidate, ranks[i]);
	}
	return out;
}

/** Per question: its candidates (every candidate any rater ranked) and each rater's ranks. */
function questionRanks(raters: Map<string, RankRow[]>) {
	const candidates = new Set<string>();
	const byRater = new Map<string, RaterRanks>();
	for (const [rater, rows] of raters) {
		for (const r of rows) candidates.add(r.candidate);
		const ranks = raterRanks(rows);
		if (ranks) byRater.set(rater, ranks);
	}
	return { candidates: [...candidates], byRater };
}

function wOf(candidates: string[], byRater: Map<string, RaterRanks>): Stat {
	const n = candidates.length;
	if (n < 2) return undefinedStat('fewer than 2 candidates in this question');
	const complete = [...byRater.values()].filter((ranks) => ranks.size === n);
	const m = complete.length;
	if (m < 2) return undefinedStat('fewer than 2 raters ranked every candidate of this question');
	const sums = new Float64Array(n);
	let ties = 0;
	for (const ranks of complete) {
		const tieCount = new Map<number, number>();
		for (let c = 0; c < n; c++) {
			const rank = ranks.get(candidates[c])!;
			sums[c] += rank;
			tieCount.set(rank, (tieCount.get(rank) ?? 0) + 1);
		}
		for (const t of tieCount.values()) ties += t * t * t - t;
	}
	const mean = (m * (n + 1)) / 2;
	let s = 0;
	for (let c = 0; c < n; c++) s += (sums[c] - mean) ** 2;
	const denominator = m * m * (n * n * n - n) - m * ties;
	if (denominator === 0) return undefinedStat('every rater tied all candidates of this question');
	return defined((12 * s) / denominator);
}

/**
 * Kendall's W (coefficient of concordance) of ONE question's rows, with the tie correction:
 * W = 12 S / (m²(n³ − n) − m Σⱼ Tⱼ), S = Σᵢ (Rᵢ − m(n+1)/2)², Rᵢ the sum of candidate i's ranks,
 * Tⱼ = Σ (t³ − t) over rater j's groups of t tied candidates (Siegel & Castellan 1988, §9.4).
 * Candidates are every candidate any rater ranked in the question; only raters who ranked every one
 * of them count (an incomplete ranking is left out, not imputed). Each rater's ranks are turned into
 * average ranks first. Undefined with fewer than 2 candidates or 2 complete raters, or when every
 * rater tied everything.
 */
export function kendallW(rows: RankRow[]): Stat {
	const questions = groupRankRows(rows);
	if (questions.size > 1) throw new RangeError('kendallW takes the rows of one question');
	if (questions.size === 0) return undefinedStat('no rows for this question');
	const { candidates, byRater } = questionRanks(questions.values().next().value!);
	return wOf(candidates, byRater);
}

/** Mean over the rater pairs of a question of tau-b over the candidates both ranked. */
function meanPairTau(byRater: Map<string, RaterRanks>): Stat {
	const raters = [...byRater.values()];
	let sum = 0;
	let count = 0;
	for (let a = 0; a < raters.length; a++) {
		for (let b = a + 1; b < raters.length; b++) {
			const x: number[] = [];
			const y: number[] = [];
			for (const [candidate, rank] of raters[a]) {
				const other = raters[b].get(candidate);
				if (other !== undefined) {
					x.push(rank);
					y.push(other);
				}
			}
			const tau = tauBOf(x, y);
			if (tau.value !== null) {
				sum += tau.value;
				count++;
			}
		}
	}
	if (raters.length < 2) return undefinedStat('fewer than 2 raters ranked this question');
	if (count === 0) return undefinedStat('no pair of raters has a defined tau-b in this question');
	return defined(sum / count);
}

/** Per question W and mean pair tau-b, the parts a summary (or a bootstrap of it) averages. */
export interface QuestionAgreement {
	question: string;
	w: Stat;
	tau: Stat;
}

/** Each question's Kendall's W and mean pairwise tau-b (see kendallW and rankingsSummary). */
export function questionAgreements(
	rows: RankRow[],
	ranked: RankedQuestions = rankedQuestions(rows)
): QuestionAgreement[] {
	const out: QuestionAgreement[] = [];
	for (const [question, { candidates, byRater }] of ranked)
		out.push({ question, w: wOf(candidates, byRater), tau: meanPairTau(byRater) });
	return out;
}

/** Each question's candidates and raters' ranks, in order of first appearance (see questionRanks). */
export type RankedQuestions = Map<string, ReturnType<typeof questionRanks>>;

/**
 * The rank rows grouped by question and rater, each question's ranks per rater once: what
 * questionAgreements and consensusRanks both read, to be given to both when both are wanted.
 */
export function rankedQuestions(rows: RankRow[]): RankedQuestions {
	const out: RankedQuestions = new Map();
	for (const [question, raters] of groupRankRows(rows)) out.set(question, questionRanks(raters));
	return out;
}

/** The mean of the defined values, or why there is none. */
export function meanDefined(stats: Stat[], what: string): Stat {
	let sum = 0;
	let count = 0;
	for (const s of stats) {
		if (s.value !== null) {
			sum += s.value;
			count++;
		}
	}
	return count ? defined(sum / count) : undefinedStat(`no question has a defined ${what}`);
}

/**
 * Agreement of the raters over all questions: Kendall's W of each question (see kendallW), their
 * mean over the questions where W is defined (equal weight per question), and the mean pairwise
 * tau-b — per question the mean over rater pairs of tau-b on the candidates both ranked (a pair
 * with fewer than 2 common candidates or all tied is left out), then the mean over questions.
 */
export function rankingsSummary(rows: RankRow[]): {
	questions: number;
	kendall_w_by_question: Record<string, Stat>;
	kendall_w_mean: Stat;
	mean_pairwise_tau_b: Stat;
} {
	const agreements = questionAgreements(rows);
	const byQuestion: Record<string, Stat> = {};
	for (const a of agreements) byQuestion[a.question] = a.w;
	return {
		questions: agreements.length,
		kendall_w_by_question: byQuestion,
		kendall_w_mean: meanDefined(
			agreements.map((a) => a.w),
			'Kendall W'
		),
		mean_pairwise_tau_b: meanDefined(
			agreements.map((a) => a.tau),
			'pairwise tau-b'
		)
	};
}

/**
 * The physicians' consensus of each question: per candidate the mean, over the raters who ranked
 * it, of their average rank (lower is better). A rater who gave a candidate two rows is left out.
 */
export function consensusRanks(
	rows: RankRow[],
	ranked: RankedQuestions = rankedQuestions(rows)
): Map<string, Map<string, number>> {
	const out = new Map<string, Map<string, number>>();
	for (const [question, { byRater }] of ranked) {
		const sums = new Map<string, [number, number]>();
		for (const ranks of byRater.values()) {
			for (const [candidate, rank] of ranks) {
				const s = sums.get(candidate);
				if (s) {
					s[0] += rank;
					s[1]++;
				} else sums.set(candidate, [rank, 1]);
			}
		}
		out.set(question, new Map([...sums].map(([c, [sum, count]]) => [c, sum / count])));
	}
	return out;
}
