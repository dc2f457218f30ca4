// Which sentences of a source passage a reviewer should read first: those that share the most
// content terms with the item's question and answer. Pure (text in, spans out), so the review
// screen and its tests use the same rules.

/** Words too common to say anything about where an answer is found. */
const STOPWORDS = new Set(
	(
		'a about above after again against all also am an and any are as at be because been before ' +
		'being below between both but by can could did do does doing down during each either else ' +
		'few for from further had has have having he her here hers him his how however i if in into ' +
		'is it its itself just may might more most much must no nor not now of off on once only or ' +
		'other our out over own per same shall she should so some such than that the their them then ' +
		'there these they this those through to too under until up upon us very via was we were what ' +
		'when where whether which while who whom why will with within without would yes you your ' +
		'true false answer question correct incorrect following best step usually often generally'
	).split(' ')
);

/** Words ending in a full stop that do not end a sentence. */
const ABBREVIATIONS = new Set(
	(
		'e.g i.e etc vs cf dr mr mrs ms prof st fig figs no approx ca al resp min max mg ml kg ' +
		'dept ref sr jr inc ltd co'
	).split(' ')
);

/** A sentence of the passage as a half-open range of character offsets. */
export interface Span {
	start: number;
	end: number;
}

/** One run of passage text, marked or not; the runs joined give the passage back unchanged. */
export interface Segment {
	text: string;
	marked: boolean;
}

/**
 * Splits text into sentences that cover it exactly (the ranges join to the whole text). A
 * sentence ends at `.`, `!` or `?` (and any closing quotes or brackets) followed by white space
 * and an upper-case letter, a digit or an opening quote, unless the word before the full stop is
 * a known abbreviation ("e.g.", "Dr.") or a single letter (an initial).
 */
export function splitSentences(text: string): Span[] {
	const spans: Span[] = [];
	const boundary = /[.!?]+["'”’)\]]*(\s+)(?=["'“‘(]?[\p{Lu}\p{N}])/gu;
	let start = 0;
	for (let m = boundary.exec(text); m; m = boundary.exec(text)) {
		if (text[m.index] === '.') {
			const before = text.slice(start, m.index).match(/([\p{L}.]+)$/u)?.[1] ?? '';
			const word = before.toLowerCase().replace(/^\.+|\.+$/g, '');
			if (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word)) continue;
		}
		const end = m.index + m[0].length;
		spans.push({ start, end });
		start = end;
	}
	if (start < text.length || spans.length === 0) spans.push({ start, end: text.length });
	return spans;
}

/** A light stem: enough to match "inhibitors" with "inhibitor" and "treated" with "treat". */
function stem(word: string): string {
	if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
	if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
	if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
	if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us'))
		return word.slice(0, -1);
	return word;
}

/** The distinct content terms of a text: lower-cased, stopwords and single letters dropped, stemmed. */
export function contentTerms(text: string): Set<string> {
	const terms = new Set<string>();
	for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
		if (STOPWORDS.has(word) || (word.length < 2 && !/\d/.test(word))) continue;
		terms.add(stem(word));
	}
	return terms;
}

/** How many sentences are highlighted at most, and how many shared terms a sentence needs. */
export const MAX_HIGHLIGHTED = 3;
export const MIN_SHARED_TERMS = 2;

/**
 * The sentences of `passage` to highlight for an item whose question and answer read `query`:
 * each sentence scores the summed weight of the query terms it contains (a term found in fewer
 * sentences weighs more); the best at most MAX_HIGHLIGHTED with at least MIN_SHARED_TERMS shared
 * terms and at least half the best score are chosen, in passage order. None when nothing
 * overlaps, or when the passage is a single sentence (there is nothing to point the eye to).
 */
export function sentencesToHighlight(passage: string, query: string): Span[] {
	const spans = splitSentences(passage);
	if (spans.length < 2) return [];
	const wanted = contentTerms(query);
	const sentenceTerms = spans.map((s) => contentTerms(passage.slice(s.start, s.end)));
	const found = new Map<string, number>();
	for (const terms of sentenceTerms)
		for (const t of terms) if (wanted.has(t)) found.set(t, (found.get(t) ?? 0) + 1);
	const weight = (t: string) => Math.log(1 + spans.length / found.get(t)!);
	const scored = sentenceTerms.map((terms, i) => {
		const shared = [...terms].filter((t) => wanted.has(t));
		return { i, shared: shared.length, score: shared.reduce((sum, t) => sum + weight(t), 0) };
	});
	const ranked = scored
		.filter((s) => s.shared >= MIN_SHARED_TERMS)
		.sort((a, b) => b.score - a.score || a.i - b.i);
	if (ranked.length === 0) return [];
	const best = ranked[0].score;
	return ranked
		.slice(0, MAX_HIGHLIGHTED)
		.filter((s) => s.score >= best / 2)
		.map((s) => spans[s.i])
		.sort((a, b) => a.start - b.start);
}

/** The passage as runs of text, the chosen sentences marked (trailing white space left out). */
export function highlightSegments(passage: string, chosen: Span[]): Segment[] {
	const segments: Segment[] = [];
	let at = 0;
	const push = (text: string, marked: boolean) => {
		if (text) segments.push({ text, marked });
	};
	for (const span of chosen) {
		const sentence = passage.slice(span.start, span.end);
		const body = sentence.trimEnd();
		push(passage.slice(at, span.start), false);
		push(body, true);
		at = span.start + body.length;
	}
	push(passage.slice(at), false);
	return segments;
}
