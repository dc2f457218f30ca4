// How a judgement compares with its question's gold answer: pure functions, no database.
import type { JudgementLabel } from './labels';

/** A gold question's answer: labels by key, and the explanation shown after a qualification item. */
export interface GoldAnswer {
	labels: Map<string, string>;
	explanation: string;
}

/** One gold label beside the rater's. */
export interface GoldLine {
	key: string;
	gold: string;
	given: string | null;
	matched: boolean;
}

/** One judgement of a gold question, scored: the share of the gold labels it matched. */
export interface GoldScore {
	assignmentId: number;
	questionId: number;
	raterId: string;
	submittedAt: Date;
	matched: number;
	total: number;
	lines: GoldLine[];
}

/**
 * Scores each judgement of a gold question against the gold labels: a gold label is matched when
 * the rater gave the same label for its key (a key the rater left unlabelled counts as missed).
 * Labels of keys the gold leaves out are not scored. Judgements of questions without gold are
 * skipped.
 */
export function scoreAgainstGold(
	labels: readonly JudgementLabel[],
	gold: ReadonlyMap<number, GoldAnswer>
): GoldScore[] {
	const byAssignment = new Map<number, JudgementLabel[]>();
	for (const label of labels) {
		const list = byAssignment.get(label.assignmentId);
		if (list) list.push(label);
		else byAssignment.set(label.assignmentId, [label]);
	}
	const scores: GoldScore[] = [];
	for (const [assignmentId, list] of byAssignment) {
		const first = list[0];
		const answer = gold.get(first.questionId);
		if (!answer || answer.labels.size === 0) continue;
		const given = new Map(list.map((l) => [l.key, l.label]));
		const lines: GoldLine[] = [...answer.labels]
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
			.map(([key, goldLabel]) => {
				const label = given.get(key) ?? null;
				return { key, gold: goldLabel, given: label, matched: label === goldLabel };
			});
		scores.push({
			assignmentId,
			questionId: first.questionId,
			raterId: first.raterId,
			submittedAt: first.submittedAt,
			matched: lines.filter((l) => l.matched).length,
			total: lines.length,
			lines
		});
	}
	return scores.sort((a, b) => a.assignmentId - b.assignmentId);
}

/** Gold accuracy of a set of scored judgements: matched gold labels over gold labels. */
export function goldShare(scores: readonly Pick<GoldScore, 'matched' | 'total'>[]): number | null {
	const total = scores.reduce((n, s) => n + s.total, 0);
	if (total === 0) return null;
	return scores.reduce((n, s) => n + s.matched, 0) / total;
}
