import { pyStrip } from './text';

/** Bumped whenever any score for the same input could change. */
export const SCORER_VERSION = '1.0.0';

/** `official` reproduces evaluate.py including its quirks; `corrected` fixes the distorting ones. */
export type Mode = 'official' | 'corrected';

export const MODES: readonly Mode[] = ['official', 'corrected'];

/** QA `type` values in the official order (the order matters for the IDF corpus and baseline). */
export const TASK_TYPES = [
	'true_false',
	'multiple_choice',
	'list',
	'short_answer',
	'multi_hop',
	'short_inverse',
	'multi_hop_inverse'
] as const;

export type TaskType = (typeof TASK_TYPES)[number];

/**
 * Submission file name (docs/scoring-behaviour.md §2) per task type; note `short.json` for
 * `short_answer`.
 */
export const SUBMISSION_FILES: Record<TaskType, string> = {
	true_false: 'true_false.json',
	multiple_choice: 'multiple_choice.json',
	list: 'list.json',
	short_answer: 'short.json',
	multi_hop: 'multi_hop.json',
	short_inverse: 'short_inverse.json',
	multi_hop_inverse: 'multi_hop_inverse.json'
};

export const OPEN_TYPES = [
	'short_answer',
	'short_inverse',
	'multi_hop',
	'multi_hop_inverse'
] as const;
export type OpenType = (typeof OPEN_TYPES)[number];

/** A ClinIQLink QA record as found in the dataset files; extra keys are kept and ignored. */
export interface QaRecord {
	question?: unknown;
	type?: unknown;
	answer?: unknown;
	correct_answer?: unknown;
	options?: unknown;
	incorrect_explanation?: unknown;
	incorrect_reasoning_step?: unknown;
	reasoning?: unknown;
	source?: { isbn?: unknown; page?: unknown; paragraph_id?: unknown } | null;
	[key: string]: unknown;
}

/** Python-style `str(x).strip()` of a record field, '' when absent. */
export function fieldText(v: unknown): string {
	if (v === undefined) return '';
	if (typeof v === 'string') return pyStrip(v);
	if (v === null) return 'None';
	return typeof v === 'object' ? JSON.stringify(v) : pyStrip(String(v));
}

/** The record's `source.paragraph_id`, or 'unknown' as the official scorer does. */
export function paragraphId(r: QaRecord): string {
	const id = r.source && typeof r.source === 'object' ? r.source.paragraph_id : undefined;
	return id === undefined || id === null ? 'unknown' : String(id);
}
