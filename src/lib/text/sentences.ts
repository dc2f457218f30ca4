// Sentence splitting for medical English: PubMed abstracts (splitSentences) and answers whose
// sentences carry inline PubMed citations such as "[34567890, 23456789]" (splitAnswer), as the
// evidence studies judge them sentence by sentence. One linear scan, no backtracking regex, so a
// hostile text cannot stall it.

/** One sentence of an answer: its text without the citation brackets, and the PMIDs it cites. */
export interface AnswerSentence {
	text: string;
	citations: string[];
}

/** A sentence's place in the text it came from: [start, end), trimmed. */
interface Piece {
	start: number;
	end: number;
}

// Abbreviations after which a period never ends a sentence, even before a capital: "e.g. NSAIDs",
// "vs. Placebo", "Dr. Smith", "Fig. 2" (compared in lower case, without the final period).
const NEVER_FINAL = new Set([
	'e.g',
	'i.e',
	'vs',
	'cf',
	'approx',
	'dr',
	'mr',
	'mrs',
	'ms',
	'prof',
	'st',
	'fig',
	'figs',
	'eq',
	'incl',
	'resp'
]);
const TERMINATORS = '.!?';
const CLOSERS = '"\')]}”’»';
const OPENERS = '"\'([{“‘«';
// A word is read back at most this far from its period: enough for any abbreviation, and it keeps
// the scan linear on text without spaces.
const MAX_WORD = 64;

const isSpace = (c: string) =>
	c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();

/** The word that ends just before `end` (back to whitespace, at most MAX_WORD characters), without leading openers. */
function wordBefore(text: string, end: number): { word: string; start: number } {
	let start = end;
	while (start > 0 && end - start < MAX_WORD && !isSpace(text[start - 1])) start--;
	while (start < end && OPENERS.includes(text[start])) start++;
	return { word: text.slice(start, end), start };
}

/** The last non-space character before `pos`, or '' (looks back at most MAX_WORD characters). */
function charBefore(text: string, pos: number): string {
	for (let i = pos - 1; i >= 0 && pos - i <= MAX_WORD; i--) if (!isSpace(text[i])) return text[i];
	return '';
}

/** Whether `word` is initials with periods between ("U.S", "e.g", "J.R"), the final period excluded. */
function isDottedInitials(word: string): boolean {
	if (word.length < 3 || word.length % 2 === 0) return false;
	for (let i = 0; i < word.length; i++) {
		const c = word[i];
		if (i % 2 === 1 ? c !== '.' : c.toLowerCase() === c.toUpperCase()) return false;
	}
	return true;
}

/**
 * The sentences of `text` as trimmed ranges. A sentence ends at . ! or ? (then optional closing
 * quotes or brackets) followed by whitespace and a capital, a digit or an opening bracket or quote,
 * or by a line break; a blank line always ends one. A period after an abbreviation, an initial or a
 * list number inside a sentence ("criteria: 1. Fever, 2. Cough") does not.
 */
function pieces(text: string): Piece[] {
	const out: Piece[] = [];
	const n = text.length;
	let start = 0;
	// The last list number seen in the current sentence: "1." after a colon, comma or semicolon opens
	// a list, and "2." then continues it even after "and".
	let listNumber = -1;
	const push = (end: number, next: number) => {
		let s = start;
		let e = end;
		while (s < e && isSpace(text[s])) s++;
		while (e > s && isSpace(text[e - 1])) e--;
		if (e > s) out.push({ start: s, end: e });
		start = next;
		listNumber = -1;
	};
	let i = 0;
	while (i < n) {
		const c = text[i];
		if (isSpace(c)) {
			// A run of whitespace holding two line breaks is a paragraph break.
			let k = i;
			let breaks = 0;
			while (k < n && isSpace(text[k])) if (text[k++] === '\n') breaks++;
			if (breaks >= 2) push(i, k);
			i = k;
			continue;
		}
		if (!TERMINATORS.includes(c)) {
			i++;
			continue;
		}
		let j = i;
		while (j < n && TERMINATORS.includes(text[j])) j++;
		const runEnd = j;
		while (j < n && CLOSERS.includes(text[j])) j++;
		if (j >= n || !isSpace(text[j])) {
			i = j;
			continue;
		}
		let k = j;
		let breaks = 0;
		while (k < n && isSpace(text[k])) if (text[k++] === '\n') breaks++;
		if (k >= n) {
			i = k;
			continue;
		}
		const next = text[k];
		let final = true;
		if (runEnd - i === 1 && c === '.') {
			const { word, start: wordStart } = wordBefore(text, i);
			const lower = word.toLowerCase();
			// "e.g.", "U.S.", "Dr."; an initial ("J. Smith"); "No. 5"; "et al. 2019" and "et al. (2019)"
			// go on, "et al. The" ends; a list number ("criteria: 1. Fever, 2. Cough and 3. Rash").
			if (NEVER_FINAL.has(lower) || isDottedInitials(word)) final = false;
			else if (word.length === 1 && isUpper(word)) final = false;
			else if (lower === 'no' && isDigit(next)) final = false;
			else if (lower === 'al' && wordBefore(text, wordStart - 1).word.toLowerCase() === 'et')
				final = isUpper(next);
			else if (/^\d{1,2}$/.test(word)) {
				const number = Number(word);
				const before = charBefore(text, wordStart);
				if (
					(listNumber > 0 && number === listNumber + 1) ||
					(before !== '' && ':;,'.includes(before))
				) {
					listNumber = number;
					final = false;
				}
			}
		}
		const opensSentence = isUpper(next) || isDigit(next) || OPENERS.includes(next);
		if (breaks >= 2 || (final && (breaks === 1 || opensSentence))) push(j, k);
		i = k;
	}
	push(n, n);
	return out;
}

/**
 * Splits English medical text (a PubMed abstract) into sentences, trimmed, none empty. Only the
 * whitespace between sentences is dropped: joined with spaces, the sentences give the text back
 * up to whitespace. "BACKGROUND:" and similar headings stay with the sentence they open.
 */
export function splitSentences(text: string): string[] {
	return pieces(text).map((p) => text.slice(p.start, p.end));
}

/** A citation bracket's PMIDs ("[123]", "[123, 456]", "[123,456]"), or null when `text[at]` opens none. */
function citationAt(text: string, at: number): { pmids: string[]; end: number } | null {
	const pmids: string[] = [];
	let i = at + 1;
	const n = text.length;
	const spaces = () => {
		while (i < n && text[i] === ' ') i++;
	};
	spaces();
	for (;;) {
		const from = i;
		while (i < n && i - from < 10 && isDigit(text[i])) i++;
		if (i === from || i - from > 9) return null;
		pmids.push(text.slice(from, i));
		spaces();
		if (text[i] === ']') return { pmids, end: i + 1 };
		if (text[i] !== ',') return null;
		i++;
		spaces();
	}
}

/** Collapses whitespace to single spaces and drops the space left before closing punctuation. */
function tidy(text: string): string {
	let out = '';
	let i = 0;
	const n = text.length;
	while (i < n) {
		if (!isSpace(text[i])) {
			out += text[i++];
			continue;
		}
		while (i < n && isSpace(text[i])) i++;
		// "reduces pain [123]." left "pain ." behind: no space before . , ; : ! ? that ends a word.
		const dangling = i < n && '.,;:!?'.includes(text[i]) && (i + 1 >= n || isSpace(text[i + 1]));
		if (i < n && out !== '' && !dangling) out += ' ';
	}
	return out.trim();
}

/**
 * Splits an answer with inline PubMed citations ("[34567890]", "[34567890, 23456789]") into
 * sentences, each with the PMIDs it cites in order of appearance (de-duplicated, as written). The
 * brackets are taken out first (each leaves a space) and the rest is split like splitSentences; a
 * citation goes to the sentence it sits in, and one after a sentence's final period or at the start
 * of the next sentence to the sentence before ("… pain. [123] Next"); one before any sentence goes
 * to the first. A piece left empty or "." once its citations are out is dropped and its citations
 * go to the sentence before (the next when it is first). An answer with no words gives [].
 */
export function splitAnswer(text: string): AnswerSentence[] {
	let plain = '';
	const cited: { at: number; pmids: string[] }[] = [];
	let copied = 0;
	for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) {
		const citation = citationAt(text, i);
		if (!citation) continue;
		plain += text.slice(copied, i);
		cited.push({ at: plain.length, pmids: citation.pmids });
		plain += ' ';
		copied = citation.end;
		i = citation.end - 1;
	}
	plain += text.slice(copied);

	const found = pieces(plain);
	const sentences = found.map((p) => ({
		text: tidy(plain.slice(p.start, p.end)),
		pmids: [] as string[]
	}));
	// Citations are in text order and so are the pieces: one pass gives each its sentence, the last
	// piece starting strictly before it.
	let s = 0;
	for (const { at, pmids } of cited) {
		while (s + 1 < found.length && found[s + 1].start < at) s++;
		if (sentences.length) sentences[s].pmids.push(...pmids);
	}
	const out: { text: string; pmids: string[] }[] = [];
	let carried: string[] = [];
	for (const sentence of sentences) {
		if (/^\.*$/.test(sentence.text)) {
			if (out.length) out[out.length - 1].pmids.push(...sentence.pmids);
			else carried.push(...sentence.pmids);
			continue;
		}
		out.push({ text: sentence.text, pmids: [...carried, ...sentence.pmids] });
		carried = [];
	}
	return out.map(({ text, pmids }) => ({ text, citations: [...new Set(pmids)] }));
}
