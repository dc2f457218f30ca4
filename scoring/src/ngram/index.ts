// N-gram diagnostics of the official ClinIQLink scorer (docs/scoring-behaviour.md §9): NLTK BLEU
// and METEOR on `word_tokenize` tokens and Google rouge-score (rouge1 + rougeL, stemmed), all on
// the lower-cased, stripped texts. WordNet 3.0 is loaded on the first METEOR call and cached.

import { sentenceBleu } from './bleu';
import { meteorScore } from './meteor';
import { pyStrip } from './py-text';
import { rougeScore } from './rouge';
import { wordTokenize } from './tokenize';

export { sentenceBleu } from './bleu';
export { meteorScore } from './meteor';
export { porterStem } from './porter';
export { rougeScore } from './rouge';
export { sentTokenize } from './punkt';
export { treebankTokenize, wordTokenize } from './tokenize';
export { getWordnet } from './wordnet';

/** N-gram diagnostics of one item; all three are 0 if any of them throws (official behaviour). */
export function ngramMetrics(
	expected: string,
	prediction: string
): { bleu: number; rouge: number; meteor: number } {
	try {
		const e = pyStrip(expected).toLowerCase();
		const p = pyStrip(prediction).toLowerCase();
		const reference = wordTokenize(e);
		const hypothesis = wordTokenize(p);
		return {
			bleu: sentenceBleu(reference, hypothesis),
			meteor: meteorScore(reference, hypothesis),
			rouge: rougeScore(e, p)
		};
	} catch {
		return { bleu: 0, rouge: 0, meteor: 0 };
	}
}
