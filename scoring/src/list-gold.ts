import type { Mode, QaRecord } from './types';
import { norm, pyStrip } from './text';

/** Gold side of a list item, computed once per record (docs/scoring-behaviour.md §6.1). */
export interface ListGold {
	/** Options with one leading "X. "/"X: " (X in A–H) removed, trimmed. */
	stripped: string[];
	/** letter (chr(65+i)) → stripped option text */
	letterToText: Map<string, string>;
	/** norm(option) → stripped option (last one wins, as a Python dict does) */
	optNorm: Map<string, string>;
	/** Normalised gold answers, duplicates kept. */
	expected: string[];
	/** The raw options contain a comma somewhere (enables re-joining of split segments). */
	composite: boolean;
	maxParts: number;
}

const caches = {
	official: new WeakMap<QaRecord, ListGold>(),
	corrected: new WeakMap<QaRecord, ListGold>()
};
const OPTION_PREFIX = /^(?:[A-H]\. |[A-H]: )/;
const GOLD_LETTER_PREFIX = /^([A-Za-z])[.:]?\s+([^\n]+)$/;

/** Builds (and caches per record) the normalised gold of a list item. */
export function listGold(record: QaRecord, mode: Mode): ListGold {
	const hit = caches[mode].get(record);
	if (hit) return hit;
	const rawOptions = Array.isArray(record.options) ? record.options.map((o) => String(o)) : [];
	const stripped = rawOptions.map((o) => pyStrip(o.replace(OPTION_PREFIX, '')));
	const letterToText = new Map(stripped.map((s, i) => [String.fromCharCode(65 + i), s] as const));
	const optNorm = new Map(stripped.map((s) => [norm(s), s] as const));
	const answers = Array.isArray(record.answer) ? record.answer.map((a) => String(a)) : [];
	const expected = answers.map((a) => norm(goldValue(pyStrip(a), letterToText, optNorm, mode)));
	const composite = stripped.some((o) => o.includes(','));
	const maxParts = Math.max(1, ...stripped.map((o) => o.split(',').length));
	const gold = { stripped, letterToText, optNorm, expected, composite, maxParts };
	caches[mode].set(record, gold);
	return gold;
}

function goldValue(
	v: string,
	letterToText: Map<string, string>,
	optNorm: Map<string, string>,
	mode: Mode
): string {
	if ([...v].length === 1 && letterToText.has(v.toUpperCase())) {
		return letterToText.get(v.toUpperCase()) as string;
	}
	// Corrected: a gold answer that already is an option ("B cells") keeps its letter-like head.
	if (mode === 'corrected' && optNorm.has(norm(v))) return v;
	const m = GOLD_LETTER_PREFIX.exec(v);
	if (m && letterToText.has(m[1].toUpperCase())) return m[2];
	return v;
}
