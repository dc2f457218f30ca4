// Port of Google's `rouge-score` RougeScorer(['rouge1', 'rougeL'], use_stemmer=True).score(
// target, prediction): its default tokenizer (lower-case, non-[a-z0-9] runs -> space, split,
// NLTK Porter stem of tokens longer than 3 characters) and the F-measures it reports.

import { porterStemCached } from './porter';

// Replacing every non-[a-z0-9] run by a space and splitting equals taking the [a-z0-9] runs.
const ALNUM_RUN = /[a-z0-9]+/g;
const VALID_TOKEN = /^[a-z0-9]+$/;

/** rouge-score `tokenize.tokenize(text, stemmer)` with the Porter stemmer. */
export function rougeTokenize(text: string): string[] {
	const tokens: string[] = [];
	for (const [raw] of text.toLowerCase().matchAll(ALNUM_RUN)) {
		if (raw.length <= 3) {
			tokens.push(raw);
		} else {
			const stem = porterStemCached(raw);
			if (VALID_TOKEN.test(stem)) tokens.push(stem);
		}
	}
	return tokens;
}

/** Both token lists as dense integer ids (equal tokens, equal ids). */
function intern(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array, number] {
	const ids = new Map<string, number>();
	const map = (tokens: readonly string[]): Int32Array => {
		const out = new Int32Array(tokens.length);
		for (let i = 0; i < tokens.length; i++) {
			let id = ids.get(tokens[i]);
			if (id === undefined) {
				id = ids.size;
				ids.set(tokens[i], id);
			}
			out[i] = id;
		}
		return out;
	};
	const x = map(a);
	return [x, map(b), ids.size];
}

function fmeasure(precision: number, recall: number): number {
	return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function rouge1Ids(target: Int32Array, prediction: Int32Array, size: number): number {
	// Sum of min(target count, prediction count): consume target counts with prediction tokens.
	const available = new Int32Array(size);
	for (const id of target) available[id]++;
	let overlap = 0;
	for (const id of prediction) {
		if (available[id] > 0) {
			available[id]--;
			overlap++;
		}
	}
	const precision = overlap / Math.max(prediction.length, 1);
	const recall = overlap / Math.max(target.length, 1);
	return fmeasure(precision, recall);
}

/** rouge1 F: clipped unigram overlap between target and prediction tokens. */
export function rouge1F(target: readonly string[], prediction: readonly string[]): number {
	const [t, p, size] = intern(target, prediction);
	return rouge1Ids(t, p, size);
}

/** Length of the longest common subsequence (two-row dynamic programme). */
export function lcsLength(a: ArrayLike<unknown>, b: ArrayLike<unknown>): number {
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

function rougeLIds(target: Int32Array, prediction: Int32Array): number {
	if (target.length === 0 || prediction.length === 0) return 0;
	const lcs = lcsLength(target, prediction);
	return fmeasure(lcs / prediction.length, lcs / target.length);
}

/** rougeL F: LCS-based precision (over prediction) and recall (over target). */
export function rougeLF(target: readonly string[], prediction: readonly string[]): number {
	const [t, p] = intern(target, prediction);
	return rougeLIds(t, p);
}

/** The official `rouge` diagnostic: mean of the rouge1 and rougeL F-measures. */
export function rougeScore(target: string, prediction: string): number {
	const [t, p, size] = intern(rougeTokenize(target), rougeTokenize(prediction));
	return (rouge1Ids(t, p, size) + rougeLIds(t, p)) / 2;
}
