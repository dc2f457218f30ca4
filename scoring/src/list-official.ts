import type { ListGold } from './list-gold';
import { escapeRegExp, norm, pyLower, pyStrip } from './text';

export type ListMatchType = 'full' | 'letter' | 'mixed' | 'none';

/** Result of parsing one list response. */
export interface ListParse {
	matchType: ListMatchType;
	malformed: boolean;
	/** Normalised predicted values in the order found (duplicates kept). */
	predicted: string[];
	/** Normalised segments that matched no option. */
	unmatched: string[];
}

/** Thrown where evaluate.py raises (28 options: its letter regex does not compile). */
export class ListItemDropped extends Error {}

// [^\n] rather than '.': Python's '.' stops only at \n, JS's also at \r, U+2028, U+2029.
const LETTER_SEG = /^([A-Za-z])[:.]\s*([^\n]+)$/;

/** The letter-prefix regex evaluate.py builds from the option letters, with Python's class parsing. */
function letterRegex(gold: ListGold): RegExp | null {
	const keys = [...gold.letterToText.keys()];
	if (keys.length === 0) return null;
	// Python reads "[A…Z[\]" (28 keys) as an unterminated class; from 29 keys "\]" is an escaped "]"
	// so the backslash itself is not in the class.
	if (keys.length === 28) throw new ListItemDropped('28 options: letter pattern does not compile');
	const cls = keys
		.filter((k) => !(k === '\\' && keys.length > 28))
		.map(escapeRegExp)
		.join('');
	return new RegExp(`([${cls}])[:.]\\s*([^\\n]+?)(?=(?:\\s*[${cls}][:.])|$)`, 'giu');
}

/**
 * docs/scoring-behaviour.md §6.2: parse a list response exactly as evaluate.py's
 * _list_match_letter_or_text.
 */
export function parseListOfficial(gold: ListGold, response: string): ListParse {
	const r = pyStrip(response.split('\n\n')[0]);
	const expectedSet = new Set(gold.expected.map(norm));
	const fast = new Set(
		r
			.split(/,\s*/)
			.filter((s) => pyStrip(s) !== '')
			.map(norm)
	);
	if (fast.size > 0 && [...fast].every((s) => gold.optNorm.has(s))) {
		return { matchType: 'full', malformed: false, predicted: [...fast], unmatched: [] };
	}
	const cleaned = r.replace(/[()]/g, '');
	const re = letterRegex(gold);
	const matches = re ? [...cleaned.matchAll(re)] : [];
	let base: string[];
	if (matches.length === 1 && matches[0][2].includes(',')) {
		base = matches[0][2]
			.split(',')
			.filter((s) => pyStrip(s) !== '')
			.map((s) => rstripCommas(pyStrip(s)));
	} else if (matches.length > 0) {
		base = matches.map((m) => `${m[1]}: ${pyStrip(rstripCommas(pyStrip(m[2])))}`);
	} else {
		base = cleaned
			.split(',')
			.filter((s) => pyStrip(s) !== '')
			.map((s) => rstripCommas(pyStrip(s)));
	}
	return classify(gold, emitSegments(gold, base), expectedSet);
}

function rstripCommas(s: string): string {
	return s.replace(/,+$/, '');
}

/** Step 4: re-join segments that together form an option containing commas. */
function emitSegments(gold: ListGold, base: string[]): string[] {
	const out: string[] = [];
	if (!gold.composite) {
		for (const seg of base) {
			const n = norm(seg);
			out.push(gold.optNorm.get(n) ?? n);
		}
		return out;
	}
	let i = 0;
	while (i < base.length) {
		let found = false;
		for (let w = gold.maxParts; w >= 1; w--) {
			if (i + w > base.length) continue;
			const opt = gold.optNorm.get(norm(base.slice(i, i + w).join(', ')));
			if (opt !== undefined) {
				out.push(opt);
				i += w;
				found = true;
				break;
			}
		}
		if (!found) {
			out.push(gold.optNorm.get(norm(base[i])) ?? base[i]);
			i += 1;
		}
	}
	return out;
}

/** Step 5–6: turn segments into predicted option texts, match type and malformed flag. */
function classify(gold: ListGold, segments: string[], expectedSet: Set<string>): ListParse {
	const predicted: string[] = [];
	const unmatched: string[] = [];
	let matchType: ListMatchType = 'none';
	let malformed = false;
	const textHit = () => {
		if (matchType === 'none') matchType = 'full';
		else if (matchType === 'letter') matchType = 'mixed';
	};
	for (let seg of segments) {
		let matched = false;
		if (/^[A-Za-z]$/.test(seg) && gold.letterToText.has(seg.toUpperCase())) {
			predicted.push(norm(gold.letterToText.get(seg.toUpperCase()) as string));
			matched = true;
			if (matchType === 'none') matchType = 'letter';
		}
		const m = LETTER_SEG.exec(seg);
		if (m) {
			const L = m[1].toUpperCase();
			const text = norm(pyStrip(rstripCommas(pyStrip(m[2]))));
			const own = gold.letterToText.get(L);
			if (own !== undefined && norm(own) === text) {
				predicted.push(text);
				matched = true;
				matchType = 'mixed';
			} else if (gold.optNorm.has(text)) {
				predicted.push(text);
				matched = true;
				textHit();
			}
			seg = pyStrip(seg.replaceAll(':', ''));
		}
		if (!matched) {
			const n = norm(seg);
			predicted.push(n);
			if (gold.optNorm.has(n)) textHit();
			else {
				unmatched.push(n);
				malformed = true;
			}
		}
	}
	const predSet = new Set(predicted);
	if (predSet.size === expectedSet.size && [...predSet].every((p) => expectedSet.has(p))) {
		matchType = 'full';
	}
	return { matchType, malformed, predicted, unmatched };
}

/** evaluate.py's re-mapping of predicted values for `mixed` items before the overlap F1. */
export function mixedMapping(gold: ListGold, predicted: string[]): string[] {
	const out: string[] = [];
	for (const raw of predicted) {
		const v = pyStrip(raw);
		if (v.includes(':')) {
			const L = pyStrip(v.slice(0, v.indexOf(':'))).toUpperCase();
			const t = gold.letterToText.get(L);
			if (t !== undefined) out.push(pyLower(pyStrip(t)));
		} else if ([...v].length === 1 && gold.letterToText.has(v.toUpperCase())) {
			out.push(pyLower(pyStrip(gold.letterToText.get(v.toUpperCase()) as string)));
		} else out.push(pyLower(v));
	}
	return out;
}
