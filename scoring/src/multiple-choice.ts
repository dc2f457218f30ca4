import { fieldText, type Mode, type QaRecord } from './types';
import { norm, pyLower, pyStrip } from './text';

export type McMatchType = 'full' | 'letter' | 'mixed' | 'none';

/** Per-item multiple-choice outcome (docs/scoring-behaviour.md §5). */
export interface MultipleChoiceItem {
	/** The gold option text (raw, as in the record). */
	expected: string;
	correct: boolean;
	matchType: McMatchType;
	/** Corrected mode only: no option could be read from the response (official never sets it). */
	invalid: boolean;
}

interface McGold {
	/** letter → option text */
	opts: Map<string, string>;
	goldText: string;
	goldNorm: string;
	/** Last letter whose normalised option equals the gold (official), or first (corrected). */
	goldLetter: string | null;
	normOpts: Map<string, string>;
}

const goldCache = {
	official: new WeakMap<QaRecord, McGold>(),
	corrected: new WeakMap<QaRecord, McGold>()
};

/**
 * Letter → option text map; official enumerates an object's KEYS (docs/scoring-behaviour.md §5
 * quirk).
 */
function optionMap(options: unknown, mode: Mode): Map<string, string> {
	const map = new Map<string, string>();
	let list: unknown[] = [];
	if (Array.isArray(options)) list = options;
	else if (options && typeof options === 'object') {
		list = mode === 'official' ? Object.keys(options) : Object.values(options);
	}
	list.forEach((o, i) =>
		map.set(String.fromCharCode(65 + i), typeof o === 'string' ? o : String(o))
	);
	return map;
}

function mcGold(record: QaRecord, mode: Mode): McGold {
	const cached = goldCache[mode].get(record);
	if (cached) return cached;
	const opts = optionMap(record.options, mode);
	const raw = fieldText(record.correct_answer);
	const goldText = opts.get(raw.toUpperCase()) ?? raw;
	const goldNorm = norm(goldText);
	const normOpts = new Map<string, string>();
	let goldLetter: string | null = null;
	for (const [k, v] of opts) {
		const n = norm(v);
		normOpts.set(k, n);
		if (n === goldNorm && (mode === 'official' || goldLetter === null)) goldLetter = k;
	}
	const gold = { opts, goldText, goldNorm, goldLetter, normOpts };
	goldCache[mode].set(record, gold);
	return gold;
}

/** Scores one multiple-choice response (already think-stripped) in the given mode. */
export function scoreMultipleChoice(
	record: QaRecord,
	response: string,
	mode: Mode
): MultipleChoiceItem {
	const g = mcGold(record, mode);
	const p = norm(response);
	if (mode === 'official') {
		return {
			expected: g.goldText,
			correct: p === g.goldNorm,
			matchType: officialMatch(g, p),
			invalid: false
		};
	}
	const choice = correctedChoice(g, response);
	if (!choice) return { expected: g.goldText, correct: false, matchType: 'none', invalid: true };
	const correct = g.normOpts.get(choice.letter) === g.goldNorm || choice.text === g.goldNorm;
	return {
		expected: g.goldText,
		correct,
		matchType: correct ? choice.how : 'none',
		invalid: false
	};
}

/** Diagnostic match type exactly as evaluate.py computes it (on the normalised response). */
function officialMatch(g: McGold, p: string): McMatchType {
	if (p === g.goldNorm) return 'full';
	if (p.includes(':')) {
		const i = p.indexOf(':');
		const L = pyStrip(p.slice(0, i)).toUpperCase();
		const T = pyLower(pyStrip(p.slice(i + 1)));
		const opt = g.opts.get(L);
		if (
			opt !== undefined &&
			T === pyLower(pyStrip(opt)) &&
			L === g.goldLetter &&
			T === g.goldNorm
		) {
			return 'mixed';
		}
	}
	const up = p.toUpperCase();
	return g.opts.has(up) && up === g.goldLetter ? 'letter' : 'none';
}

interface Choice {
	letter: string;
	text: string;
	how: McMatchType;
}

const FINAL = /(?:^|\n)[\s*_`#>-]*(?:final\s+)?answer\s*(?:is)?\s*[:-]/i;
const LETTER_ONLY = /^[\s*_`"'([]*([A-Za-z])[\s*_`"')\].:]*$/;
const LETTER_TEXT = /^[\s*_`"'([]*([A-Za-z])\s*[).:\]]\s*(.+)$/s;

/**
 * Corrected mode reads the answer after a "(Final) Answer:" label if present, then accepts the
 * option text, a bare letter, "letter + its text", or the option text followed by an explanation.
 */
function correctedChoice(g: McGold, response: string): Choice | null {
	let r = pyStrip(response);
	const label = FINAL.exec(r);
	if (label) r = r.slice(label.index + label[0].length);
	const firstLine = pyStrip(r.split('\n').find((l) => pyStrip(l) !== '') ?? '');
	const byText = (t: string): string | null => {
		const n = norm(t);
		for (const [k, v] of g.normOpts) if (v === n && n !== '') return k;
		return null;
	};
	for (const cand of [r, firstLine]) {
		const k = byText(cand);
		if (k) return { letter: k, text: g.normOpts.get(k) as string, how: 'full' };
	}
	const lo = LETTER_ONLY.exec(firstLine);
	if (lo && g.opts.has(lo[1].toUpperCase())) {
		const k = lo[1].toUpperCase();
		return { letter: k, text: g.normOpts.get(k) as string, how: 'letter' };
	}
	const lt = LETTER_TEXT.exec(firstLine);
	if (lt && g.opts.has(lt[1].toUpperCase())) {
		const k = lt[1].toUpperCase();
		const rest = norm(lt[2]);
		const own = g.normOpts.get(k) as string;
		// A letter whose text names a different option is contradictory: no answer.
		if (rest === own || rest.startsWith(own + ' ')) return { letter: k, text: own, how: 'mixed' };
		if (byText(lt[2])) return null;
	}
	// Option text followed by an explanation: the longest option that prefixes the answer.
	const n = norm(firstLine);
	let best: string | null = null;
	for (const [k, v] of g.normOpts) {
		if (v !== '' && (n.startsWith(v + ' ') || n.startsWith(v + ',') || n.startsWith(v + ':'))) {
			if (best === null || v.length > (g.normOpts.get(best) as string).length) best = k;
		}
	}
	return best ? { letter: best, text: g.normOpts.get(best) as string, how: 'full' } : null;
}
