import { fieldText, type Mode, type QaRecord } from './types';
import { pyLower, pyStrip } from './text';

/** Per-item True/False outcome (docs/scoring-behaviour.md §4). */
export interface TrueFalseItem {
	expected: string;
	/** 'true' | 'false' | '' (nothing recognised). */
	predicted: string;
	correct: boolean;
	/** Something non-blank follows the recognised word. */
	malformed: boolean;
	/** No true/false could be read at all. */
	invalid: boolean;
}

const OFFICIAL = /^(true|false)/i;
/* Corrected mode: an optional "(Final) Answer:" label and markdown emphasis may precede the word,
 * which must be a whole word and not the "True/False" pair echoed from the prompt. */
const LABEL = /^[\s*_`"'>#-]*(?:(?:final\s+)?answer\s*[:-]?[\s*_`"']*)?/i;
const CORRECTED = /^(true|false)(?![\p{L}\p{N}])(?!\s*\/\s*(?:true|false))/iu;

/** Scores one True/False response (already think-stripped) in the given mode. */
export function scoreTrueFalse(record: QaRecord, response: string, mode: Mode): TrueFalseItem {
	const expected = pyLower(fieldText(record.answer));
	const r = pyStrip(response);
	let text = r;
	let m: RegExpExecArray | null;
	if (mode === 'official') {
		m = OFFICIAL.exec(r);
	} else {
		const labelled = /(?:^|\n)[\s*_`#>-]*final\s+answer\s*[:-]/i.exec(r);
		text = labelled ? r.slice(labelled.index + labelled[0].length) : r;
		text = text.replace(LABEL, '');
		m = CORRECTED.exec(text);
	}
	if (!m) return { expected, predicted: '', correct: false, malformed: true, invalid: true };
	const predicted = m[1].toLowerCase();
	const rest = pyStrip(text.slice(m[0].length));
	const malformed = mode === 'official' ? rest !== '' : !/^[\s.!*_`"']*$/.test(rest);
	return { expected, predicted, correct: predicted === expected, malformed, invalid: false };
}
