/**
 * BLEU / ROUGE / METEOR of one pair (docs/scoring-behaviour.md §9); all 0 when any of them fails.
 */
export interface NgramScores {
	bleu: number;
	rouge: number;
	meteor: number;
}

/** Signature of scoring/src/ngram's ngramMetrics. */
export type NgramFn = (expected: string, prediction: string) => NgramScores;

export const ZERO_NGRAMS: NgramScores = { bleu: 0, rouge: 0, meteor: 0 };
