import { pyStrip } from './text';
import type { Mode } from './types';

/** Gold step and explanation of a multi_hop_inverse item (docs/scoring-behaviour.md §8.4). */
export interface GoldStep {
	step: number | null;
	explanation: string;
}

const GOLD_STEP_LINE = /\bStep\b.*?(\d+)/i;
const STEP_NUMBER = /step\s*([0-9]+)/i;
/** Python str.splitlines() boundaries (incl. the U+001C–U+001E separators). */
// eslint-disable-next-line no-control-regex -- Python's splitlines() breaks on U+001C–U+001E too.
const PY_LINE_BREAKS = new RegExp('\\r\\n|[\\n\\r\\v\\f\\x1c-\\x1e\\x85\\u2028\\u2029]');
const CORRECTED_EXPL_LINE = /^[\s*_#>-]*explanation[\s*_]*[:-]/i;

/** Lines of `incorrect_reasoning_step`: the array itself, or the string's trimmed non-blank lines. */
function goldLines(irs: unknown): string[] {
	if (Array.isArray(irs)) return irs.map((l) => String(l));
	if (typeof irs !== 'string') return [];
	return irs
		.split(PY_LINE_BREAKS)
		.map(pyStrip)
		.filter((l) => l !== '');
}

/** Parses the gold step number and explanation; corrected mode skips markdown and the "explanation" word trap. */
export function parseGoldStep(irs: unknown, mode: Mode): GoldStep {
	const lines = goldLines(irs);
	const clean = (l: string) => (mode === 'corrected' ? l.replace(/[*_]/g, '') : l);
	const stepLine = lines.find((l) => GOLD_STEP_LINE.test(clean(l))) ?? '';
	const m = STEP_NUMBER.exec(clean(stepLine));
	let explLine = '';
	if (mode === 'corrected') explLine = lines.find((l) => CORRECTED_EXPL_LINE.test(l)) ?? '';
	if (explLine === '') explLine = lines.find((l) => /explanation/i.test(l)) ?? '';
	const colon = explLine.indexOf(':');
	return {
		step: m ? Number(m[1]) : null,
		explanation: pyStrip(colon >= 0 ? explLine.slice(colon + 1) : explLine)
	};
}

const OFFICIAL_PRED_STEP = /(?:incorrect reasoning step\s*[:-]?\s*|step\s*[:-]?\s*)(\d+)/i;
const NUMBER_WORDS = [
	'zero',
	'one',
	'two',
	'three',
	'four',
	'five',
	'six',
	'seven',
	'eight',
	'nine',
	'ten'
];
const CORRECTED_PRED_STEP = new RegExp(
	`\\bstep\\b\\s*(?:number|no\\.?|#)?\\s*[:-]?\\s*(\\d+|${NUMBER_WORDS.join('|')})\\b`,
	'i'
);
const OFFICIAL_EXPL = /(?:incorrect reasoning explanation|explanation)\s*[:-]?/i;
const CORRECTED_EXPL = /(?:incorrect reasoning explanation|\bexplanation\b)[\s*_]*[:-]?/i;

/** Step number and explanation read from a model response. */
export function parsePredictedStep(
	response: string,
	mode: Mode
): { step: number | null; explanation: string } {
	const x = pyStrip(response);
	const text = mode === 'corrected' ? x.replace(/[*_]/g, '') : x;
	const sm = (mode === 'official' ? OFFICIAL_PRED_STEP : CORRECTED_PRED_STEP).exec(text);
	let step: number | null = null;
	if (sm) {
		const idx = NUMBER_WORDS.indexOf(sm[1].toLowerCase());
		step = idx >= 0 ? idx : Number(sm[1]);
	}
	const em = (mode === 'official' ? OFFICIAL_EXPL : CORRECTED_EXPL).exec(text);
	const explanation = em ? pyStrip(text.slice(em.index + em[0].length)) : text;
	return { step, explanation };
}

/** α(d): 1 for none/0, 0.7 for 1, 0.3 for 2, then halving (docs/scoring-behaviour.md §8.4). */
export function stepPenalty(distance: number | null): number {
	if (distance === null || distance === 0) return 1;
	if (distance === 1) return 0.7;
	return 0.3 / 2 ** (distance - 2);
}

/**
 * Distance used for the penalty. Official: none unless both steps exist (a missing answer is never
 * penalised). Corrected: a missing predicted step counts as the farthest step of the chain.
 */
export function stepDistance(
	gold: number | null,
	pred: number | null,
	mode: Mode,
	chainLength: number
): number | null {
	if (gold !== null && pred !== null) return Math.abs(gold - pred);
	if (mode === 'official' || gold === null) return null;
	const n = Math.max(chainLength, gold);
	return Math.max(1, gold - 1, n - gold);
}
