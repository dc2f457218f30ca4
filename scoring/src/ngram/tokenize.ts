// Port of NLTK 3.9.1 `word_tokenize`: Punkt sentence split (./punkt.ts), then
// `NLTKWordTokenizer.tokenize` on each sentence (nltk/tokenize/destructive.py), regexes applied
// in NLTK's order. Python `re` semantics are emulated: `\w` = letters, numbers and '_', `\b` is
// Unicode-aware, `\d` = Nd, `\s` and `str.split()` use Python's whitespace set, and `$` also
// matches before a final newline. The 2026 NLTK rewrite of the starting-quote rule is not used;
// the ClinIQLink container (unpinned nltk, 2025) ran 3.9.1.

import { sentTokenize } from './punkt';
import { PY_WS, pySplit } from './py-text';

/** Python `\w` (Unicode): letters, numbers, underscore. */
const W = '[\\p{L}\\p{N}_]';
/** Python `\b` before a word character / after a word character. */
const B_START = '(?<![\\p{L}\\p{N}_])';
const B_END = '(?![\\p{L}\\p{N}_])';
const S = `[${PY_WS}]`;

/** A substitution, skipped when its guard (characters the pattern needs) is absent. */
type Sub = [RegExp, string, RegExp?];

const STARTING_QUOTES: readonly Sub[] = [
	[/([«“‘„]|`+)/gu, ' $1 ', /[«“‘„`]/],
	[/^"/u, '``', /^"/],
	[/(``)/gu, ' $1 ', /``/],
	[/([ ([{<])("|'{2})/gu, '$1 `` ', /["']/],
	// (?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b
	[new RegExp(`(')(?!re|ve|ll|m|t|s|d|n)(${W})${B_END}`, 'giu'), '$1 $2', /'/]
];

const PUNCTUATION: readonly Sub[] = [
	[new RegExp(`([^.])(\\.)([\\])}>"'»”’ ]*)${S}*$`, 'u'), '$1 $2 $3 ', /\./],
	[/([:,])([^\p{Nd}])/gu, ' $1 $2', /[:,]/],
	[/([:,])(?=\n?$)/u, ' $1 ', /[:,]/],
	[/\.{2,}/gu, ' $& ', /\.\./],
	[/[;@#$%&]/gu, ' $& ', /[;@#$%&]/],
	[new RegExp(`([^.])(\\.)([\\])}>"']*)${S}*$`, 'u'), '$1 $2$3 ', /\./],
	[/[?!]/gu, ' $& ', /[?!]/],
	[/([^'])' /gu, "$1 ' ", /' /],
	[/[*]/gu, ' $& ', /\*/]
];

const PARENS_BRACKETS: Sub = [/[\][(){}<>]/gu, ' $& ', /[\][(){}<>]/];
const DOUBLE_DASHES: Sub = [/--/gu, ' -- ', /--/];

const ENDING_QUOTES: readonly Sub[] = [
	[/([»”’])/gu, ' $1 ', /[»”’]/],
	[/''/gu, " '' ", /''/],
	[/"/gu, " '' ", /"/],
	[/([^' ])('[sS]|'[mM]|'[dD]|') /gu, '$1 $2 ', /'/],
	[/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /gu, '$1 $2 ', /'/]
];

// MacIntyre contractions (CONTRACTIONS2, then CONTRACTIONS3), all case-insensitive.
const CONTRACTIONS: readonly RegExp[] = [
	`${B_START}(can)(not)${B_END}`,
	`${B_START}(d)('ye)${B_END}`,
	`${B_START}(gim)(me)${B_END}`,
	`${B_START}(gon)(na)${B_END}`,
	`${B_START}(got)(ta)${B_END}`,
	`${B_START}(lem)(me)${B_END}`,
	`${B_START}(more)('n)${B_END}`,
	`${B_START}(wan)(na)(?=${S})`,
	` ('t)(is)${B_END}`,
	` ('t)(was)${B_END}`
].map((source) => new RegExp(source, 'giu'));

/** Every contraction pattern contains one of these (case-insensitively). */
const CONTRACTION_GUARD = /cannot|d'ye|gimme|gonna|gotta|lemme|more'n|wanna|'tis|'twas/iu;

function applyAll(text: string, subs: readonly Sub[]): string {
	for (const [re, replacement, guard] of subs) {
		if (guard === undefined || guard.test(text)) text = text.replace(re, replacement);
	}
	return text;
}

/** NLTK `NLTKWordTokenizer().tokenize(sentence)` (no parenthesis conversion). */
export function treebankTokenize(sentence: string): string[] {
	let text = applyAll(sentence, STARTING_QUOTES);
	text = applyAll(text, PUNCTUATION);
	text = applyAll(text, [PARENS_BRACKETS, DOUBLE_DASHES]);
	text = applyAll(` ${text} `, ENDING_QUOTES);
	if (CONTRACTION_GUARD.test(text)) {
		for (const re of CONTRACTIONS) text = text.replace(re, ' $1 $2 ');
	}
	return pySplit(text);
}

/** NLTK `word_tokenize(text)`: Punkt sentences, each tokenised by the Treebank-style tokenizer. */
export function wordTokenize(text: string): string[] {
	const tokens: string[] = [];
	for (const sentence of sentTokenize(text)) {
		for (const token of treebankTokenize(sentence)) tokens.push(token);
	}
	return tokens;
}
