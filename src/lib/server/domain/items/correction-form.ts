// The correction form of an item: its record's fields as form values (one input per field, lists
// as rows), back to a record checked by the import's own schemas, and the list editor's steps.
import { z } from 'zod';
import type { QaType } from '../../../constants';
import { validateQaRecord, type QaRecord } from '../../../schemas/qa-record';

/** The list fields of the form, each edited as rows. */
export const LIST_FIELDS = ['options', 'answers', 'reasoning', 'incorrect_step'] as const;
export type ListField = (typeof LIST_FIELDS)[number];

/** An item's fields as the form holds them: text inputs and rows of text. */
export interface CorrectionValues {
	question: string;
	isbn: string;
	page: string;
	paragraph_id: string;
	/** True/false: "True" or "False"; short, multi-hop: the answer; inverse types: the false answer. */
	answer: string;
	/** Short inverse: the gold explanation of why the false answer is wrong. */
	incorrect_explanation: string;
	options: string[];
	/** Multiple choice: the index of the correct option ("" when none is chosen). */
	correct: string;
	/** List: the correct options. */
	answers: string[];
	reasoning: string[];
	/** Multi-hop inverse: the incorrect reasoning step's lines ("- Step K …", "- Explanation: …"). */
	incorrect_step: string[];
}

/** Which fields a type's form shows, beyond the question and source. */
export const TYPE_FIELDS: Record<QaType, (keyof CorrectionValues)[]> = {
	true_false: ['answer'],
	multiple_choice: ['options', 'correct'],
	list: ['options', 'answers'],
	short_answer: ['answer'],
	short_inverse: ['answer', 'incorrect_explanation'],
	multi_hop: ['answer', 'reasoning'],
	multi_hop_inverse: ['answer', 'reasoning', 'incorrect_step']
};

const str = (v: unknown) =>
	typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
const strings = (v: unknown) => (Array.isArray(v) ? v.map(str) : []);

function letterIndex(value: string, options: string[]): number {
	const v = value.trim().toUpperCase();
	if (v.length !== 1) return -1;
	const i = v.charCodeAt(0) - 65;
	return i >= 0 && i < options.length ? i : -1;
}

/** The form values of a stored record. */
export function valuesFromRecord(record: QaRecord): CorrectionValues {
	const r = record as Record<string, unknown>;
	const source = (r.source ?? {}) as Record<string, unknown>;
	const options = strings(r.options);
	let correct = '';
	if (record.type === 'multiple_choice') {
		const byText = options.findIndex((o) => o.trim() === record.correct_answer.trim());
		const i = byText >= 0 ? byText : letterIndex(record.correct_answer, options);
		correct = i >= 0 ? String(i) : '';
	}
	const irs = r.incorrect_reasoning_step;
	return {
		question: str(r.question),
		isbn: str(source.isbn),
		page: str(source.page),
		paragraph_id: str(source.paragraph_id),
		answer:
			record.type === 'short_inverse'
				? str(r.false_answer ?? r.answer)
				: record.type === 'list' || record.type === 'multiple_choice'
					? ''
					: str(r.answer),
		incorrect_explanation: str(r.incorrect_explanation),
		options,
		correct,
		answers: record.type === 'list' ? strings(r.answer) : [],
		reasoning: strings(r.reasoning),
		incorrect_step: Array.isArray(irs)
			? strings(irs)
			: typeof irs === 'string'
				? irs.split('\n').filter((l) => l.trim())
				: []
	};
}

const text = z.string().max(200_000).catch('');
const rows = z
	.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string()))
	.catch([]);

/** The form as posted: every field optional (a type shows only its own). */
export const correctionFormSchema = z.object({
	question: text,
	isbn: text,
	page: text,
	paragraph_id: text,
	answer: text,
	incorrect_explanation: text,
	options: rows,
	correct: text,
	answers: rows,
	reasoning: rows,
	incorrect_step: rows
});

/** Form values from a posted form (a repeated name is a list of rows). */
export function valuesFromForm(form: FormData): CorrectionValues {
	const object: Record<string, unknown> = {};
	for (const key of Object.keys(correctionFormSchema.shape)) {
		const all = form.getAll(key).filter((v): v is string => typeof v === 'string');
		object[key] = (LIST_FIELDS as readonly string[]).includes(key) ? all : all[0];
	}
	return correctionFormSchema.parse(object);
}

/**
 * The record the form describes: the current record with the form's fields written over it, so
 * keys the form does not show (and the record's shape, e.g. an incorrect step given as one
 * string) are kept.
 */
export function recordFromValues(base: QaRecord, v: CorrectionValues): Record<string, unknown> {
	const out: Record<string, unknown> = structuredClone(base) as Record<string, unknown>;
	out.question = v.question;
	const page = v.page.trim();
	out.source = {
		...(out.source as object),
		isbn: v.isbn,
		page: /^\d+$/.test(page) ? Number(page) : page,
		paragraph_id: v.paragraph_id
	};
	switch (base.type) {
		case 'true_false':
		case 'short_answer':
		case 'multi_hop':
			out.answer = v.answer;
			if (base.type === 'multi_hop') out.reasoning = v.reasoning;
			break;
		case 'multiple_choice': {
			out.options = v.options;
			const i = /^\d+$/.test(v.correct) ? Number(v.correct) : -1;
			const chosen = i >= 0 && i < v.options.length ? v.options[i] : '';
			// A record that named its answer by letter keeps doing so.
			const byLetter =
				letterIndex(base.correct_answer, base.options) >= 0 &&
				!base.options.some((o) => o.trim() === base.correct_answer.trim());
			out.correct_answer = chosen && byLetter ? String.fromCharCode(65 + i) : chosen;
			break;
		}
		case 'list':
			out.options = v.options;
			out.answer = v.answers;
			break;
		case 'short_inverse':
			out.answer = v.answer;
			if ('false_answer' in out) out.false_answer = v.answer;
			out.incorrect_explanation = v.incorrect_explanation;
			break;
		case 'multi_hop_inverse':
			out.answer = v.answer;
			out.reasoning = v.reasoning;
			out.incorrect_reasoning_step =
				typeof base.incorrect_reasoning_step === 'string'
					? v.incorrect_step.join('\n')
					: v.incorrect_step;
			break;
	}
	return out;
}

/** How a person names a field of the form, in messages and in the diff. */
export function fieldLabel(type: QaType, key: keyof CorrectionValues): string {
	switch (key) {
		case 'question':
			return 'Question';
		case 'isbn':
			return 'ISBN';
		case 'page':
			return 'Page';
		case 'paragraph_id':
			return 'Paragraph id';
		case 'answer':
			return type === 'short_inverse'
				? 'False answer'
				: type === 'multi_hop_inverse'
					? 'Wrong final answer'
					: 'Answer';
		case 'incorrect_explanation':
			return 'Incorrect explanation';
		case 'options':
			return 'Options';
		case 'correct':
			return 'Correct option';
		case 'answers':
			return 'Correct answers';
		case 'reasoning':
			return 'Reasoning steps';
		case 'incorrect_step':
			return 'Incorrect reasoning step';
	}
}

/** A row's name in a message: option letters for options, numbers for other rows. */
function rowLabel(key: ListField, i: number): string {
	if (key === 'options') return `Option ${String.fromCharCode(65 + i)}`;
	if (key === 'answers') return `Correct answer ${i + 1}`;
	if (key === 'reasoning') return `Step ${i + 1}`;
	return `Line ${i + 1} of the incorrect reasoning step`;
}

/** The form field (and row) a record path of a validation error belongs to. */
function formField(type: QaType, path: string): { key: keyof CorrectionValues; row?: number } {
	const m = /^([a-z_.]+)(?:\[(\d+)\])?/.exec(path);
	const name = m?.[1] ?? path;
	const row = m?.[2] === undefined ? undefined : Number(m[2]);
	switch (name) {
		case 'source.isbn':
			return { key: 'isbn' };
		case 'source.page':
			return { key: 'page' };
		case 'source.paragraph_id':
		case 'source':
			return { key: 'paragraph_id' };
		case 'correct_answer':
			return { key: 'correct' };
		case 'false_answer':
			return { key: 'answer' };
		case 'incorrect_reasoning_step':
			return { key: 'incorrect_step', row };
		case 'answer':
			return type === 'list' ? { key: 'answers', row } : { key: 'answer' };
		case 'options':
		case 'reasoning':
		case 'incorrect_explanation':
			return { key: name, row };
		default:
			return { key: 'question' };
	}
}

export type CorrectionErrors = Record<string, string>;

/**
 * Checks the form against the import's schema of the item's type: the record, or one message per
 * field (a row's error under `options.2`, a list's own under `options`).
 */
export function checkCorrection(
	base: QaRecord,
	values: CorrectionValues
): { ok: true; record: QaRecord } | { ok: false; errors: CorrectionErrors } {
	const type = base.type;
	const errors: CorrectionErrors = {};
	if (type === 'multiple_choice') {
		const i = /^\d+$/.test(values.correct) ? Number(values.correct) : -1;
		if (i < 0 || i >= values.options.length) errors.correct = 'Choose the correct option.';
	}
	const checked = validateQaRecord(recordFromValues(base, values), 0, type);
	if (checked.ok && !Object.keys(errors).length) return { ok: true, record: checked.record };
	if (!checked.ok) {
		for (const e of checked.errors) {
			const { key, row } = formField(type, e.field);
			const name = row === undefined ? key : `${key}.${row}`;
			const label = row === undefined ? fieldLabel(type, key) : rowLabel(key as ListField, row);
			errors[name] ??= `${label} ${e.reason}.`;
		}
	}
	return { ok: false, errors };
}

/** A step of the list editor without JavaScript: `add:options`, `remove:reasoning:2`, `up:…`. */
export function applyListOp(values: CorrectionValues, op: string): CorrectionValues {
	const [verb, name, at] = op.split(':');
	if (!(LIST_FIELDS as readonly string[]).includes(name)) return values;
	const key = name as ListField;
	const list = [...values[key]];
	const i = Number(at);
	if (verb === 'add') list.push('');
	else if (verb === 'remove' && i >= 0 && i < list.length) list.splice(i, 1);
	else if (verb === 'up' && i > 0 && i < list.length)
		[list[i - 1], list[i]] = [list[i], list[i - 1]];
	else if (verb === 'down' && i >= 0 && i < list.length - 1)
		[list[i + 1], list[i]] = [list[i], list[i + 1]];
	return { ...values, [key]: list };
}
