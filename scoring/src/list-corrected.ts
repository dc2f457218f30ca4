import type { ListGold } from './list-gold';
import type { ListMatchType, ListParse } from './list-official';
import { norm, pyStrip } from './text';

const FINAL = /(?:^|\n)[\s*_`#>-]*final\s+answers?\s*[:-]/i;
const BULLET = /^(?:[-*•·]|\d{1,2}[.)])\s+/;
const LETTER_ONLY = /^\(?([A-Za-z])\)?[.:)]?$/;
const LETTER_TEXT = /^\(?([A-Za-z])\)?\s*[.:)]\s*(.+)$/s;
const SEPARATORS = /\n|;|,/;

/**
 * Corrected-mode list parser: reads the answer after "Final Answer:", accepts commas, semicolons,
 * newlines and bullets as separators, letters with or without their text, a trailing "and", and
 * counts an unknown segment as one false positive instead of zeroing the item.
 */
export function parseListCorrected(gold: ListGold, response: string): ListParse {
	let r = pyStrip(response);
	const label = FINAL.exec(r);
	if (label) r = r.slice(label.index + label[0].length);
	// Prefer the first paragraph that names at least one option (a reasoning paragraph may come first).
	const paragraphs = r
		.split(/\n[ \t]*\n/)
		.map(pyStrip)
		.filter((p) => p !== '');
	let best: ListParse | null = null;
	for (const p of paragraphs) {
		const parsed = parseParagraph(gold, p);
		if (parsed.predicted.length > 0) return parsed;
		best ??= parsed;
	}
	return best ?? { matchType: 'none', malformed: false, predicted: [], unmatched: [] };
}

function parseParagraph(gold: ListGold, text: string): ListParse {
	const raw = text
		.split(SEPARATORS)
		.map((s) => cleanSegment(s))
		.filter((s) => s !== '');
	const predicted: string[] = [];
	const unmatched: string[] = [];
	let letters = 0;
	let texts = 0;
	let i = 0;
	while (i < raw.length) {
		// Re-join neighbours that together form an option containing commas/semicolons.
		let took = 0;
		for (let w = Math.min(gold.maxParts, raw.length - i); w >= 2 && took === 0; w--) {
			const hit = lookup(gold, raw.slice(i, i + w).join(', '));
			if (hit) {
				predicted.push(hit.norm);
				took = w;
				texts++;
			}
		}
		if (took === 0) {
			took = 1;
			const seg = raw[i];
			const hit = lookup(gold, seg) ?? lookup(gold, seg.replace(/^and\s+/i, ''));
			// "Warfarin and Aspirin": split on "and" only when every part is an option.
			const parts = hit ? [] : seg.split(/\s+and\s+/i).map((x) => lookup(gold, x));
			const hits = hit ? [hit] : parts.length > 1 && parts.every(Boolean) ? parts : [];
			for (const h of hits) {
				if (!h) continue;
				predicted.push(h.norm);
				if (h.byLetter) letters++;
				else texts++;
			}
			if (hits.length === 0) unmatched.push(norm(seg));
		}
		i += took;
	}
	const unique = [...new Set(predicted)];
	const expected = new Set(gold.expected);
	let matchType: ListMatchType =
		letters > 0 ? (texts > 0 ? 'mixed' : 'letter') : texts > 0 ? 'full' : 'none';
	if (
		unmatched.length === 0 &&
		unique.length === expected.size &&
		unique.every((p) => expected.has(p))
	) {
		matchType = 'full';
	}
	return { matchType, malformed: unmatched.length > 0, predicted: unique, unmatched };
}

function cleanSegment(s: string): string {
	return pyStrip(
		pyStrip(s)
			.replace(BULLET, '')
			.replace(/[*_`"]+/g, '')
			.replace(/\.$/, '')
	);
}

/** An option named by its text, its letter, or "letter + its text". */
function lookup(gold: ListGold, seg: string): { norm: string; byLetter: boolean } | null {
	const n = norm(seg);
	if (gold.optNorm.has(n) && n !== '') return { norm: n, byLetter: false };
	const lo = LETTER_ONLY.exec(seg);
	if (lo) {
		const t = gold.letterToText.get(lo[1].toUpperCase());
		if (t !== undefined) return { norm: norm(t), byLetter: true };
	}
	const lt = LETTER_TEXT.exec(seg);
	if (lt) {
		const own = gold.letterToText.get(lt[1].toUpperCase());
		const rest = norm(lt[2]);
		if (own !== undefined && norm(own) === rest) return { norm: rest, byLetter: true };
		if (gold.optNorm.has(rest)) return { norm: rest, byLetter: false };
	}
	return null;
}
