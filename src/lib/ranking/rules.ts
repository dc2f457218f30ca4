// Ranking rules shared by the ranking screen (instant feedback) and the server (the authority).

import type { Tag } from '../constants';

/** Higher is better. */
const TAG_SCORE: Record<Tag, number> = { good: 2, okay: 1, bad: 0 };

/**
 * Why a list of ranks is not a valid ranking of `ranks.length` candidates, or null when it is.
 * Without ties the ranks must be a permutation of 1..n; with ties they must be a standard
 * competition ranking (1, 1, 3, …): a tie shares the best rank and the next rank skips.
 */
export function rankProblem(ranks: (number | null)[], allowTies: boolean): string | null {
	const n = ranks.length;
	const missing = ranks.filter((r) => r === null || !Number.isInteger(r)).length;
	if (missing) return `Give every response a rank (${missing} of ${n} not ranked yet).`;
	const values = ranks as number[];
	if (values.some((r) => r < 1 || r > n)) return `Ranks must be between 1 and ${n}.`;
	const sorted = [...values].sort((a, b) => a - b);
	if (!allowTies) {
		const dup = sorted.find((r, i) => i > 0 && sorted[i - 1] === r);
		if (dup !== undefined) return `Rank ${dup} is used more than once; ties are not allowed.`;
		return null;
	}
	for (let i = 0; i < n; i++) {
		const expected = i > 0 && sorted[i] === sorted[i - 1] ? sorted[i - 1] : i + 1;
		if (sorted[i] !== expected)
			return `Tied responses share a rank and the next rank skips (e.g. 1, 1, 3); rank ${sorted[i]} does not fit.`;
	}
	return null;
}

export interface RankedTag {
	label: string;
	rank: number | null;
	tag: Tag | null;
}

/** Pairs where a response is ranked above another but tagged worse: a soft warning. */
export function tagInconsistencies(entries: RankedTag[]): string[] {
	const warnings: string[] = [];
	for (const a of entries) {
		for (const b of entries) {
			if (a.rank === null || b.rank === null || !a.tag || !b.tag) continue;
			if (a.rank < b.rank && TAG_SCORE[a.tag] < TAG_SCORE[b.tag]) {
				warnings.push(
					`${a.label} is ranked above ${b.label} but tagged “${a.tag}” while ${b.label} is “${b.tag}”.`
				);
			}
		}
	}
	return warnings;
}
