// Port of NLTK's `meteor_score([reference], hypothesis)` (nltk/translate/meteor_score.py) with
// its defaults: lower-casing, alpha 0.9, beta 3, gamma 0.5, stages exact -> Porter stem ->
// WordNet synonyms. As in NLTK, the synonym stage sees the *stemmed* leftovers of the stem stage
// (so "automobile" reaches WordNet as "automobil" and finds nothing).

import { porterStemCached } from './porter';
import { getWordnet, type Wordnet } from './wordnet';

type Enum = [index: number, word: string];
type Match = [hypIndex: number, refIndex: number];

/** NLTK `_match_enums`: greedy, scanning both lists from the end; matched items are removed. */
function matchEnums(hyp: Enum[], ref: Enum[], matches: Match[]): void {
	for (let i = hyp.length - 1; i >= 0; i--) {
		for (let j = ref.length - 1; j >= 0; j--) {
			if (hyp[i][1] === ref[j][1]) {
				matches.push([hyp[i][0], ref[j][0]]);
				hyp.splice(i, 1);
				ref.splice(j, 1);
				break;
			}
		}
	}
}

/** NLTK `_enum_wordnetsyn_match`: a reference word matches if it is a synonym of a hyp word. */
function matchSynonyms(hyp: Enum[], ref: Enum[], matches: Match[], wordnet: Wordnet): void {
	for (let i = hyp.length - 1; i >= 0; i--) {
		const synonyms = wordnet.synonyms(hyp[i][1]);
		for (let j = ref.length - 1; j >= 0; j--) {
			if (synonyms.has(ref[j][1])) {
				matches.push([hyp[i][0], ref[j][0]]);
				hyp.splice(i, 1);
				ref.splice(j, 1);
				break;
			}
		}
	}
}

/** NLTK `_count_chunks` over matches sorted by hypothesis index. */
function countChunks(matches: readonly Match[]): number {
	let chunks = 1;
	for (let i = 0; i < matches.length - 1; i++) {
		const adjacent =
			matches[i + 1][0] === matches[i][0] + 1 && matches[i + 1][1] === matches[i][1] + 1;
		if (!adjacent) chunks++;
	}
	return chunks;
}

/** NLTK `single_meteor_score(reference, hypothesis)` on pre-tokenised input, default parameters. */
export function meteorScore(
	reference: readonly string[],
	hypothesis: readonly string[],
	wordnet: Wordnet = getWordnet()
): number {
	const alpha = 0.9;
	const beta = 3.0;
	const gamma = 0.5;
	let hyp: Enum[] = hypothesis.map((w, i) => [i, w.toLowerCase()]);
	let ref: Enum[] = reference.map((w, i) => [i, w.toLowerCase()]);
	const translationLength = hyp.length;
	const referenceLength = ref.length;
	const matches: Match[] = [];
	matchEnums(hyp, ref, matches);
	hyp = hyp.map(([i, w]) => [i, porterStemCached(w)]);
	ref = ref.map(([i, w]) => [i, porterStemCached(w)]);
	matchEnums(hyp, ref, matches);
	matchSynonyms(hyp, ref, matches, wordnet);
	matches.sort((a, b) => a[0] - b[0]);

	const matchesCount = matches.length;
	// Python raises ZeroDivisionError (-> 0.0) for an empty side or for no match at all.
	if (translationLength === 0 || referenceLength === 0 || matchesCount === 0) return 0;
	const precision = matchesCount / translationLength;
	const recall = matchesCount / referenceLength;
	const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
	const fragFrac = countChunks(matches) / matchesCount;
	const penalty = gamma * fragFrac ** beta;
	return (1 - penalty) * fmean;
}
