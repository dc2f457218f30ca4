// The words of an answer sentence, as assertions are marked on them: the sentence split on
// whitespace. Frozen with the sentence at a study's opening, so a span (words i to j) always
// means the same text.
export function sentenceWords(text: string): string[] {
	return text.split(/\s+/).filter((w) => w.length > 0);
}

/** The text of words `start` to `end` (exclusive) of a sentence. */
export function spanText(words: readonly string[], start: number, end: number): string {
	return words.slice(start, end).join(' ');
}
