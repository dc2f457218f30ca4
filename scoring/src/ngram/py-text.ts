// Python `str` whitespace semantics shared by the tokenizer ports (JS `\s` differs from
// Python's `str.isspace()`: it lacks U+001C–U+001F and U+0085 and adds U+FEFF).

/** Python `str.isspace()` characters, for use inside a regex character class. */
export const PY_WS =
	'\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const WS_RUN = new RegExp(`[${PY_WS}]+`, 'u');
const EDGE_WS = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'gu');

/** Python `str.strip()` with no argument. */
export function pyStrip(s: string): string {
	return s.replace(EDGE_WS, '');
}

/** Python `str.split()` with no argument. */
export function pySplit(s: string): string[] {
	const t = pyStrip(s);
	return t === '' ? [] : t.split(WS_RUN);
}
