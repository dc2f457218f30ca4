// The fields of a question record and of a response record, their limits, and the keys the import
// does not read. Unknown keys are kept with the stored record, as the QA import keeps them, and
// named in a warning: a file that says `answer` where `reference_answer` is meant would otherwise
// lose its reference answers without anyone noticing.
import { z } from 'zod';
import type { SetDocument } from '../../db/schema';
import { TEXT_LIMITS, unstorableStrings } from '../../../schemas/text';
import type { RecordError } from '../imports';
import type { RawRecord } from './records';

/** Longest context and reference answer, in characters (a case note, a worked answer). */
export const SET_TEXT_LIMIT = 50_000;
/** Most documents one question may come with. */
export const MAX_DOCUMENTS = 100;

const longer = (n: number) => `is longer than ${n.toLocaleString('en')} characters`;

/** An id as files write them: a string, or an integer (kept as its decimal text). */
const externalId = z
	.union([z.string(), z.number().int()], { error: 'must be a string or an integer' })
	.transform((v) => String(v).trim())
	.pipe(z.string().min(1, 'must not be empty').max(TEXT_LIMITS.id, longer(TEXT_LIMITS.id)));

const optionalText = (max: number) =>
	z
		.string({ error: 'must be a string' })
		.max(max, longer(max))
		.nullish()
		.transform((v) => (v?.trim() ? v : null));

const documentSchema = z.object(
	{
		id: externalId,
		title: z
			.string({ error: 'must be a string' })
			.max(TEXT_LIMITS.field, longer(TEXT_LIMITS.field))
			.optional(),
		text: z
			.string({ error: 'must be a string' })
			.max(TEXT_LIMITS.long, longer(TEXT_LIMITS.long))
			.optional()
	},
	{ error: 'must be an object with id, and optionally title and text' }
);

/**
 * A question; a BioGen topic (`{id, topic, question, narrative}`) is one too: its narrative is the
 * context shown under the question, its topic (a short title) is kept with the record.
 */
const questionSchema = z
	.object({
		id: externalId,
		question: z
			.string({ error: 'must be a string' })
			.trim()
			.min(1, 'must not be empty')
			.max(TEXT_LIMITS.field, longer(TEXT_LIMITS.field)),
		context: optionalText(SET_TEXT_LIMIT),
		narrative: optionalText(SET_TEXT_LIMIT),
		topic: optionalText(TEXT_LIMITS.field),
		reference_answer: optionalText(SET_TEXT_LIMIT),
		documents: z
			.array(documentSchema, { error: 'must be an array of documents' })
			.max(MAX_DOCUMENTS, `has more than ${MAX_DOCUMENTS} documents`)
			.optional()
			.transform((d) => d ?? [])
	})
	.superRefine((v, ctx) => {
		if (v.context !== null && v.narrative !== null && v.context !== v.narrative)
			ctx.addIssue({
				code: 'custom',
				path: ['narrative'],
				message: 'is given beside a different context; give one of them (both are the context)'
			});
	});

const responseSchema = z.object({
	question_id: externalId,
	model: z
		.string({ error: 'must be a string' })
		.trim()
		.min(1, 'must not be empty')
		.max(TEXT_LIMITS.id, longer(TEXT_LIMITS.id)),
	response: z
		.string({ error: 'must be a string (the model’s answer as text)' })
		.max(TEXT_LIMITS.long, longer(TEXT_LIMITS.long))
});

export const QUESTION_KEYS = [
	'id',
	'question',
	'context',
	'reference_answer',
	'documents',
	'topic',
	'narrative'
];
export const RESPONSE_KEYS = ['question_id', 'model', 'response'];

/** What a stray key probably meant, for the warning. */
const QUESTION_MEANT: Record<string, string> = {
	answer: 'reference_answer',
	reference: 'reference_answer',
	question_id: 'id'
};
const RESPONSE_MEANT: Record<string, string> = {
	id: 'question_id',
	text: 'response',
	output: 'response',
	answer: 'response',
	model_name: 'model'
};

/** A question record as stored. */
export interface QuestionFields {
	externalId: string;
	question: string;
	context: string | null;
	referenceAnswer: string | null;
	documents: SetDocument[];
}

/** A response record as stored. */
export interface ResponseFields {
	questionId: string;
	model: string;
	text: string;
}

/** The value at `path` inside `value`, or undefined where the path leads nowhere. */
function valueAt(value: unknown, path: PropertyKey[]): unknown {
	let v = value;
	for (const key of path) {
		if (!v || typeof v !== 'object') return undefined;
		v = (v as Record<PropertyKey, unknown>)[key];
	}
	return v;
}

/** A record's fields with the keys it holds that the import does not read, or a failure. */
export type Check<T> = { ok: true; fields: T; unknown: RecordError[] } | { ok: false };

/**
 * Checks one record against `schema` (an object, storable strings, each issue as a problem of the
 * record naming its field; `known` keys read, the others reported with what they may have meant)
 * and maps the parsed value to the fields stored.
 */
export function validate<T, S extends z.ZodType>(
	raw: RawRecord,
	schema: S,
	known: string[],
	meant: Record<string, string>,
	map: (v: z.output<S>) => T,
	errors: RecordError[]
): Check<T> {
	const { file, index, value } = raw;
	const at = (field: string, reason: string): RecordError => ({ file, index, field, reason });
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		errors.push(at('(record)', 'must be a JSON object'));
		return { ok: false };
	}
	const broken = unstorableStrings(value);
	if (broken.length) {
		errors.push(...broken.map((b) => at(b.field, b.reason)));
		return { ok: false };
	}
	const parsed = schema.safeParse(value);
	if (!parsed.success) {
		for (const issue of parsed.error.issues) {
			const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)));
			errors.push(
				at(
					field.join('.').replace(/\.\[/g, '[') || '(record)',
					valueAt(value, issue.path) === undefined ? 'is missing' : issue.message
				)
			);
		}
		return { ok: false };
	}
	const unknown = Object.keys(value)
		.filter((k) => !known.includes(k))
		.map((k) =>
			at(
				k,
				`is not read by the import (kept with the record)${meant[k] && !(meant[k] in value) ? `; did you mean "${meant[k]}"?` : ''}`
			)
		);
	return { ok: true, fields: map(parsed.data), unknown };
}

/** A question record's fields, or its problems added to `errors`. */
export function checkQuestion(raw: RawRecord, errors: RecordError[]): Check<QuestionFields> {
	return validate(
		raw,
		questionSchema,
		QUESTION_KEYS,
		QUESTION_MEANT,
		(v) => ({
			externalId: v.id,
			question: v.question,
			context: v.context ?? v.narrative,
			referenceAnswer: v.reference_answer,
			documents: v.documents
		}),
		errors
	);
}

/** A response record's fields, or its problems added to `errors`. */
export function checkResponse(raw: RawRecord, errors: RecordError[]): Check<ResponseFields> {
	return validate(
		raw,
		responseSchema,
		RESPONSE_KEYS,
		RESPONSE_MEANT,
		(v) => ({ questionId: v.question_id, model: v.model, text: v.response }),
		errors
	);
}
