// Port of NLTK 3.9's Punkt sentence splitter at inference time (PunktSentenceTokenizer:
// period contexts, first and second annotation passes, boundary realignment), the part of
// `word_tokenize` that decides which periods end a sentence. The algorithm is NLTK's; the
// English model parameters are NOT the trained `punkt_tab/english` files (not redistributable
// through npm here): ABBREV_TYPES below is a hand-picked subset of common English abbreviations,
// and collocations, sentence starters and orthographic context are empty. For the lower-cased
// text the scorer feeds in, that only matters when a period follows a word NLTK's model
// treats differently as an abbreviation.

import { PY_WS } from './py-text';

/** Lower-cased abbreviation types (without the final period) treated as non-sentence-final. */
export const ABBREV_TYPES: ReadonlySet<string> = new Set([
	'a.m',
	'p.m',
	'e.g',
	'i.e',
	'etc',
	'vs',
	'mr',
	'mrs',
	'ms',
	'dr',
	'jr',
	'sr',
	'st',
	'messrs',
	'gov',
	'sen',
	'rep',
	'gen',
	'lt',
	'col',
	'capt',
	'inc',
	'corp',
	'co',
	'ltd',
	'bros',
	'jan',
	'feb',
	'aug',
	'sept',
	'oct',
	'nov',
	'dec',
	'u.s',
	'u.k',
	'u.n',
	'n.y',
	'n.j',
	'calif',
	'conn',
	'fla',
	'ariz',
	'colo',
	'mich',
	'minn',
	'okla',
	'tenn'
]);

const SENT_END_CHARS = new Set(['.', '?', '!']);
const S = `[${PY_WS}]`;
const NS = `[^${PY_WS}]`;
const NON_WORD = `(?:[)";}\\]*:@'({\\[!?])`;
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${S}){2,}\\.)`;
const WORD_START = `[^("\`{\\[:;&#*@)}\\]\\-,]`;

/** PunktLanguageVars.word_tokenize regex (findall over one line). */
const WORD_TOKENIZE = new RegExp(
	`${MULTI_CHAR}|(?=${WORD_START})${NS}+?(?=${S}|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|${S}|${NON_WORD}|${MULTI_CHAR}))|${NS}`,
	'gu'
);
/** PunktLanguageVars.period_context_re: a sentence-end char followed by punctuation or a token. */
const PERIOD_CONTEXT = new RegExp(
	`[.?!](?=(?<afterTok>${NON_WORD}|${S}+(?<nextTok>${NS}+)))`,
	'gdu'
);
const BOUNDARY_REALIGNMENT = new RegExp(`^["')\\]}]+?(?:${S}+|(?=--)|$)`, 'u');
const NUMERIC = /^-?[.,]?\p{Nd}[\p{Nd},.-]*\.?$/u;
const INITIAL = /^[\p{L}\p{N}_](?<!\p{Nd})\.$/u;
const ELLIPSIS = /^\.\.+$/;
const ASCII_WS = new Set([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
const TRAILING_WS = new RegExp(`${S}+$`, 'u');

interface Token {
	tok: string;
	type: string;
	periodFinal: boolean;
	sentbreak: boolean;
	abbr: boolean;
	ellipsis: boolean;
}

function makeToken(tok: string): Token {
	return {
		tok,
		type: tok.toLowerCase().replace(NUMERIC, '##number##'),
		periodFinal: tok.endsWith('.'),
		sentbreak: false,
		abbr: false,
		ellipsis: false
	};
}

function typeNoPeriod(t: Token): string {
	return t.type.length > 1 && t.type.endsWith('.') ? t.type.slice(0, -1) : t.type;
}

function firstUpper(t: Token): boolean {
	const c = t.tok[0];
	return c !== c.toLowerCase() && c === c.toUpperCase();
}

function firstLower(t: Token): boolean {
	const c = t.tok[0];
	return c !== c.toUpperCase() && c === c.toLowerCase();
}

function tokenizeWords(text: string): Token[] {
	const tokens: Token[] = [];
	for (const line of text.split('\n')) {
		for (const m of line.matchAll(WORD_TOKENIZE)) tokens.push(makeToken(m[0]));
	}
	return tokens;
}

function firstPass(t: Token): void {
	if (SENT_END_CHARS.has(t.tok)) {
		t.sentbreak = true;
	} else if (ELLIPSIS.test(t.tok)) {
		t.ellipsis = true;
	} else if (t.periodFinal && !t.tok.endsWith('..')) {
		const base = t.tok.slice(0, -1).toLowerCase();
		const lastPart = base.split('-').pop() as string;
		if (ABBREV_TYPES.has(base) || ABBREV_TYPES.has(lastPart)) t.abbr = true;
		else t.sentbreak = true;
	}
}

/** Punkt `_ortho_heuristic` with an empty orthographic context. */
function orthoHeuristic(t: Token): boolean | 'unknown' {
	if (';:,.!?'.includes(t.tok)) return false;
	// With no context, a lower-case word has never been seen lower-case sentence-initially.
	if (firstLower(t)) return false;
	return 'unknown';
}

function secondPass(t1: Token, t2: Token | undefined): void {
	if (t2 === undefined || !t1.periodFinal) return;
	const isInitial = INITIAL.test(t1.tok);
	// No collocations and no frequent sentence starters in the reduced model; an abbreviation is
	// re-marked as a break only on orthographic evidence, which needs a capitalised next word.
	if ((t1.abbr || t1.ellipsis) && !isInitial) {
		if (orthoHeuristic(t2) === true) {
			t1.sentbreak = true;
			return;
		}
	}
	if (isInitial || typeNoPeriod(t1) === '##number##') {
		const starter = orthoHeuristic(t2);
		// An initial before a capitalised word never seen lower-case is kept too (J. Bach).
		if (starter === false || (starter === 'unknown' && isInitial && firstUpper(t2))) {
			t1.sentbreak = false;
			t1.abbr = true;
		}
	}
}

/** Punkt `text_contains_sentbreak`: a sentence break followed by at least one more token. */
function containsSentbreak(context: string): boolean {
	const tokens = tokenizeWords(context);
	for (const t of tokens) firstPass(t);
	for (let i = 0; i < tokens.length; i++) {
		secondPass(tokens[i], tokens[i + 1]);
		if (tokens[i].sentbreak && i + 1 < tokens.length) return true;
	}
	return false;
}

function lastAsciiWhitespaceIndex(text: string): number {
	for (let i = text.length - 1; i >= 0; i--) if (ASCII_WS.has(text[i])) return i;
	return 0;
}

type Slice = [start: number, stop: number];

function slicesFromText(text: string): Slice[] {
	const slices: Slice[] = [];
	let lastBreak = 0;
	let prevSlice: Slice = [0, 0];
	let prevMatch: RegExpExecArray | null = null;
	const consider = (m: RegExpExecArray, slice: Slice): void => {
		const context = text.slice(slice[0], slice[1]) + m[0] + (m.groups?.afterTok ?? '');
		if (!containsSentbreak(context)) return;
		slices.push([lastBreak, m.index + 1]);
		const next = m.indices?.groups?.nextTok;
		lastBreak = m.groups?.nextTok ? (next as [number, number])[0] : m.index + 1;
	};
	PERIOD_CONTEXT.lastIndex = 0;
	for (const m of text.matchAll(PERIOD_CONTEXT)) {
		const before = text.slice(prevSlice[1], m.index);
		let start = lastAsciiWhitespaceIndex(before);
		start = start ? start + prevSlice[1] + 1 : prevSlice[0];
		const wordSlice: Slice = [start, m.index];
		if (prevMatch && prevSlice[1] <= wordSlice[0]) consider(prevMatch, prevSlice);
		prevMatch = m;
		prevSlice = wordSlice;
	}
	if (prevMatch) consider(prevMatch, prevSlice);
	slices.push([lastBreak, text.replace(TRAILING_WS, '').length]);
	return slices;
}

function realignBoundaries(text: string, slices: Slice[]): Slice[] {
	const out: Slice[] = [];
	let realign = 0;
	for (let i = 0; i < slices.length; i++) {
		const s1: Slice = [slices[i][0] + realign, slices[i][1]];
		const s2 = slices[i + 1];
		if (s2 === undefined) {
			if (s1[1] > s1[0]) out.push(s1);
			continue;
		}
		const m = BOUNDARY_REALIGNMENT.exec(text.slice(s2[0], s2[1]));
		if (m) {
			out.push([s1[0], s2[0] + m[0].replace(TRAILING_WS, '').length]);
			realign = m[0].length;
		} else {
			realign = 0;
			if (s1[1] > s1[0]) out.push(s1);
		}
	}
	return out;
}

/** NLTK `sent_tokenize(text)` (English Punkt algorithm, reduced parameters; see file header). */
export function sentTokenize(text: string): string[] {
	return realignBoundaries(text, slicesFromText(text)).map(([a, b]) => text.slice(a, b));
}
