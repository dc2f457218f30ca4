// How often an automatic metric orders two answers the way the experts did (pairwise accuracy).
import { defined, undefinedStat, type Stat } from './types';

/** One candidate of a question: the experts' rank (1 is best) and the metric's score. */
export interface PairwiseRow {
	question: string;
	candidate: string;
	expertRank: number;
	metric: number;
}

/**
 * Pairwise accuracy of a metric against expert rankings, as HDCEval (Zheng et al. 2025) scores
 * evaluators against physicians' preferences: over every pair of candidates of the same question
 * whose expert ranks differ, the pair is concordant when the metric scores the better-ranked
 * candidate higher (higher metric = better), discordant when lower, a metric tie otherwise;
 * accuracy = (concordant + 0.5 × metric_ties) / pairs. Pairs tied by the experts carry no
 * preference and are not counted. Missing data: a row whose rank or metric is not a finite number
 * is left out. A candidate given twice in one question is an error (RangeError). Undefined when no
 * pair has different expert ranks.
 */
export function pairwiseAccuracy(rows: PairwiseRow[]): {
	pairs: number;
	concordant: number;
	discordant: number;
	metric_ties: number;
	accuracy: Stat;
} {
	const byQuestion = new Map<string, PairwiseRow[]>();
	const seen = new Set<string>();
	for (const r of rows) {
		if (!Number.isFinite(r.expertRank) || !Number.isFinite(r.metric)) continue;
		const key = JSON.stringify([r.question, r.candidate]);
		if (seen.has(key))
			throw new RangeError(`candidate ${r.candidate} appears twice in question ${r.question}`);
		seen.add(key);
		const list = byQuestion.get(r.question);
		if (list) list.push(r);
		else byQuestion.set(r.question, [r]);
	}
	let concordant = 0;
	let discordant = 0;
	let ties = 0;
	for (const list of byQuestion.values()) {
		for (let i = 0; i < list.length; i++) {
			for (let j = i + 1; j < list.length; j++) {
				const expert = list[j].expertRank - list[i].expertRank; // > 0: i is better
				if (expert === 0) continue;
				const metric = list[i].metric - list[j].metric; // > 0: metric prefers i
				if (metric === 0) ties++;
				else if (metric > 0 === expert > 0) concordant++;
				else discordant++;
			}
		}
	}
	const pairs = concordant + discordant + ties;
	return {
		pairs,
		concordant,
		discordant,
		metric_ties: ties,
		accuracy: pairs
			? defined((concordant + 0.5 * ties) / pairs)
			: undefinedStat('no pair of candidates of a question has different expert ranks')
	};
}
