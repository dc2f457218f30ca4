// Port of Google's `rouge-score` RougeScorer(['rouge1', 'rougeL'], use_stemmer=True).score(
// target, prediction): its default tokenizer (lower-case, non-[a-z0-9] runs -> space, split,
// NLTK Porter stem of tokens longer than 3 characters) and the F-measures it reports.

import { porterStemCached } from './porter';

const NON_ALNUM = /[^a-z0-9]+/g;
const VALID_TOKEN = /^[a-z0-9]+$/;

/** rouge-score `tokenize.tokenize(text, stemmer)` with the Porter stemmer. */
export function rougeTokenize(text: string): string[] {
	const tokens: string[] = [];
	for (const raw of text.toLowerCase().replace(NON_ALNUM, ' ').split(' ')) {
		if (raw === '') continue;
		const token = raw.length > 3 ? porterStemCached(raw) : raw;
		if (VALID_TOKEN.test(token)) tokens.push(token);
	}
	return tokens;
}

function fmeasure(precision: number, recall: number): number {
	return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** rouge1 F: clipped unigram overlap between target and prediction tokens. */
export function rouge1F(target: readonly string[], prediction: readonly string[]): number {
	const targetCounts = new Map<string, number>();
	for (const t of target) targetCounts.set(t, (targetCounts.get(t) ?? 0) + 1);
	const predictionCounts = new Map<string, number>();
	for (const t of prediction) predictionCounts.set(t, (predictionCounts.get(t) ?? 0) + 1);
	let overlap = 0;
	for (const [token, count] of targetCounts) {
		overlap += Math.min(count, predictionCounts.get(token) ?? 0);
	}
	const precision = overlap / Math.max(prediction.length, 1);
	const recall = overlap / Math.max(target.length, 1);
	return fmeasure(precision, recall);
}

/** Length of the longest common subsequence (two-row dynamic programme). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
	let prev = new Uint32Array(b.length + 1);
	let curr = new Uint32Array(b.length + 1);
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			curr[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], curr[j - 1]);
		}
		[prev, curr] = [curr, prev];
	}
	return prev[b.length];
}

/** rougeL F: LCS-based precision (over prediction) and recall (over target). */
export function rougeLF(target: readonly string[], prediction: readonly string[]): number {
	if (target.length === 0 || prediction.length === 0) return 0;
	const lcs = lcsLength(target, prediction);
	return fmeasure(lcs / prediction.length, lcs / target.length);
}

/** The official `rouge` diagnostic: mean of the rouge1 and rougeL F-measures. */
export function rougeScore(target: string, prediction: string): number {
	const t = rougeTokenize(target);
	const p = rougeTokenize(prediction);
	return (rouge1F(t, p) + rougeLF(t, p)) / 2;
}
