import { parseGoldStep } from './steps';
import { fieldText, TASK_TYPES, type Mode, type QaRecord, type TaskType } from './types';

/** Task type of a record ('short' accepted for 'short_answer'), or null when unknown. */
export function recordType(r: QaRecord): TaskType | null {
	const t = r.type === 'short' ? 'short_answer' : r.type;
	return (TASK_TYPES as readonly unknown[]).includes(t) ? (t as TaskType) : null;
}

/**
 * Reference texts for IDF and the baseline. Official: every non-empty `answer` (arrays joined) —
 * including TF "True"/"False" and the wrong answers of the inverse types. Corrected: the gold texts
 * the semantic score actually compares.
 */
export function referenceTexts(
	records: readonly { type: TaskType; record: QaRecord }[],
	mode: Mode
): string[] {
	const out: string[] = [];
	for (const t of TASK_TYPES) {
		for (const r of records) {
			if (r.type !== t) continue;
			const text = mode === 'official' ? officialRef(r.record) : correctedRef(t, r.record);
			if (text) out.push(text);
		}
	}
	return out;
}

function officialRef(r: QaRecord): string {
	const a = r.answer;
	if (a === undefined || a === null) return '';
	if (Array.isArray(a)) return a.map(String).join(' ');
	return typeof a === 'string' ? a : String(a);
}

function correctedRef(t: TaskType, r: QaRecord): string {
	if (t === 'short_answer' || t === 'multi_hop') return fieldText(r.answer);
	if (t === 'short_inverse') return fieldText(r.incorrect_explanation);
	if (t === 'multi_hop_inverse')
		return parseGoldStep(r.incorrect_reasoning_step, 'corrected').explanation;
	return '';
}
