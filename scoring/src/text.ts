import { NLTK_STOP_WORDS } from './stopwords';

/** Python `str.isspace` characters (JS `\s` differs: it lacks U+001C–U+001F and adds U+FEFF). */
const PY_WS =
	'\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_WS_RUN = new RegExp(`[${PY_WS}]+`, 'g');
const PY_WS_EDGES = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'g');
const ASCII_PUNCT = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** Python `str.strip()` with no argument. */
export function pyStrip(s: string): string {
	return s.replace(PY_WS_EDGES, '');
}

/** Python `str.split()` with no argument: split on whitespace runs, no empty pieces. */
export function pySplit(s: string): string[] {
	const t = pyStrip(s);
	return t === '' ? [] : t.split(PY_WS_RUN);
}

/** Python `str.lower()`; JS applies the same final-sigma and İ rules. */
export function pyLower(s: string): string {
	return s.toLowerCase();
}

/** Python `str.isalnum()` approximated by Unicode letters and numbers. */
export function isAlnum(s: string): boolean {
	return /^[\p{L}\p{N}]+$/u.test(s);
}

/** Python `str(x)` for JSON values (floats that were integral in JSON print without `.0`). */
function pyStr(x: unknown): string {
	if (x === null || x === undefined) return 'None';
	if (x === true) return 'True';
	if (x === false) return 'False';
	if (typeof x === 'string') return x;
	if (typeof x === 'number') return String(x);
	return JSON.stringify(x);
}

/**
 * to_text (docs/scoring-behaviour.md §3.1): unwrap chat/pipeline outputs (arrays,
 * `generated_text`/`text` objects).
 */
export function toText(x: unknown): string {
	if (Array.isArray(x)) return pyStrip(x.map(toText).join(' '));
	if (x !== null && typeof x === 'object') {
		const o = x as Record<string, unknown>;
		const v = truthy(o.generated_text) ? o.generated_text : truthy(o.text) ? o.text : '';
		return pyStrip(pyStr(v));
	}
	return pyStrip(pyStr(x));
}

function truthy(v: unknown): boolean {
	if (Array.isArray(v)) return v.length > 0;
	if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
	return Boolean(v);
}

const THINK = /<think>[\s\S]*?<\/think>/gi;

/**
 * Think stripping (docs/scoring-behaviour.md §3.2): to_text, then remove every closed
 * `<think>…</think>` block and trim.
 */
export function cleanResponse(x: unknown): string {
	return pyStrip(toText(x).replace(THINK, ''));
}

/* Canonical combining class ≠ 0 is not exposed by JS; canonical reordering reveals it: a mark with
 * class > 1 swaps with a following U+0334 (class 1), a mark with class 1 with a preceding U+0345
 * (class 240), while class-0 characters never move. */
const cccCache = new Map<string, boolean>();
function hasCombiningClass(c: string): boolean {
	let v = cccCache.get(c);
	if (v === undefined) {
		const a = c + '\u0334';
		const b = '\u0345' + c;
		v = a.normalize('NFD') !== a || b.normalize('NFD') !== b;
		cccCache.set(c, v);
	}
	return v;
}

/* Python `casefold` differs from a context-free per-character lower-case only for these characters
 * once NFKD has run (ligatures, ſ, µ etc. are already decomposed). */
const CASEFOLD_EXTRA: Record<string, string> = { ß: 'ss', ẞ: 'ss', ς: 'σ' };

/** Python `str.casefold()` for NFKD text, without the final-sigma context rule of toLowerCase. */
export function casefold(s: string): string {
	let out = '';
	for (const c of s) out += CASEFOLD_EXTRA[c] ?? c.toLowerCase();
	return out;
}

const DELIMS = /[–—_/\\[\](){};-]/g;
const KEEP = /[\p{L}\p{N}\p{M}%,:]/u;
const PY_WS_CHAR = new RegExp(`[${PY_WS}]`);

/**
 * norm() (docs/scoring-behaviour.md §3.3): NFKD, drop combining marks, casefold, delimiters to
 * spaces, keep L/N/M/%,: only.
 */
export function norm(s: string): string {
	const nfkd = s.normalize('NFKD');
	let stripped = '';
	for (const c of nfkd) {
		if (c.charCodeAt(0) < 0x300 || !/\p{M}/u.test(c) || !hasCombiningClass(c)) stripped += c;
	}
	const replaced = casefold(stripped).replace(DELIMS, ' ');
	let kept = '';
	for (const c of replaced) {
		if (KEEP.test(c) || PY_WS_CHAR.test(c)) kept += c;
	}
	return pyStrip(kept.replace(PY_WS_RUN, ' '));
}

/**
 * content() (docs/scoring-behaviour.md §3.4): drop NLTK stop words and all-ASCII-punctuation
 * tokens.
 */
export function content(s: string): string {
	return pySplit(s)
		.filter((t) => !NLTK_STOP_WORDS.has(pyLower(t)) && ![...t].every((c) => ASCII_PUNCT.has(c)))
		.join(' ');
}

/** Escape a string for literal use inside a RegExp (also inside a character class). */
export function escapeRegExp(s: string): string {
	return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
