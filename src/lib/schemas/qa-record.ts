import { z } from './zod';
import {
	QA_TYPES,
	type ImportProblemKind,
	type ImportWarningKind,
	type QaType
} from '../constants';
import { TEXT_LIMITS, unstorableStrings } from './text';

const text = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.max(TEXT_LIMITS.field, `is longer than ${TEXT_LIMITS.field.toLocaleString('en')} characters`);
const id = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.max(TEXT_LIMITS.id, `is longer than ${TEXT_LIMITS.id} characters`);

const source = z.object(
	{
		isbn: z.string().trim().max(TEXT_LIMITS.id, `is longer than ${TEXT_LIMITS.id} characters`),
		page: z
			.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)])
			// The largest page a database integer holds.
			.refine((page) => page <= 2_147_483_647, 'is larger than 2,147,483,647'),
		paragraph_id: id
	},
	{
		error: (issue) =>
			issue.input === undefined
				? 'is missing'
				: 'must be an object with isbn, page and paragraph_id'
	}
);

const base = { question: text, source };
const steps = z.array(text, { error: 'must be an array of strings' });

const trueFalse = z.looseObject({
	...base,
	type: z.literal('true_false'),
	answer: z
		.string({ error: 'must be the string "True" or "False"' })
		.trim()
		.refine((v) => /^(true|false)$/i.test(v), 'must be "True" or "False"')
});

/** Letter keys A, B, … of an option array (the ClinIQLink scorer's `chr(65 + i)`). */
function letterOf(index: number) {
	return String.fromCharCode(65 + index);
}

const multipleChoice = z
	.looseObject({
		...base,
		type: z.literal('multiple_choice'),
		options: z
			.array(text, { error: 'must be an array of option texts' })
			.min(2, 'needs at least 2 options'),
		correct_answer: text
	})
	.superRefine((r, ctx) => {
		const answer = r.correct_answer.trim();
		const letters = r.options.map((_, i) => letterOf(i));
		if (!r.options.some((o) => o.trim() === answer) && !letters.includes(answer.toUpperCase())) {
			ctx.addIssue({
				code: 'custom',
				path: ['correct_answer'],
				message: 'is neither one of the options nor an option letter'
			});
		}
	});

const list = z
	.looseObject({
		...base,
		type: z.literal('list'),
		options: z
			.array(text, { error: 'must be an array of option texts' })
			.min(2, 'needs at least 2 options'),
		answer: z
			.array(text, { error: 'must be an array of option texts' })
			.min(1, 'needs at least 1 answer')
	})
	.superRefine((r, ctx) => {
		const options = new Set(r.options.map((o) => o.trim()));
		const letters = new Set(r.options.map((_, i) => letterOf(i)));
		r.answer.forEach((a, i) => {
			if (!options.has(a.trim()) && !letters.has(a.trim())) {
				ctx.addIssue({ code: 'custom', path: ['answer', i], message: 'is not among the options' });
			}
		});
	});

const shortAnswer = z.looseObject({ ...base, type: z.literal('short_answer'), answer: text });

const shortInverse = z.looseObject({
	...base,
	type: z.literal('short_inverse'),
	answer: text,
	false_answer: text.optional(),
	incorrect_explanation: text
});

const multiHop = z.looseObject({
	...base,
	type: z.literal('multi_hop'),
	answer: text,
	reasoning: steps.min(1, 'needs at least 1 step')
});

/** Parses "Step K" out of the incorrect_reasoning_step field (array of lines or one string). */
export function incorrectStepNumber(field: string[] | string): number | null {
	const joined = Array.isArray(field) ? field.join('\n') : field;
	const m = /step\s*(\d+)/i.exec(joined);
	return m ? Number(m[1]) : null;
}

const multiHopInverse = z
	.looseObject({
		...base,
		type: z.literal('multi_hop_inverse'),
		answer: text,
		reasoning: steps.min(2, 'needs at least 2 steps'),
		incorrect_reasoning_step: z.union([steps.min(1), text], {
			error: 'must be an array of strings or a string'
		})
	})
	.superRefine((r, ctx) => {
		const step = incorrectStepNumber(r.incorrect_reasoning_step);
		if (step === null) {
			ctx.addIssue({
				code: 'custom',
				path: ['incorrect_reasoning_step'],
				message: 'does not name the incorrect step ("Step K …")'
			});
		} else if (step < 1 || step > r.reasoning.length) {
			ctx.addIssue({
				code: 'custom',
				path: ['incorrect_reasoning_step'],
				message: `names step ${step}, but the reasoning has ${r.reasoning.length} steps`
			});
		}
	});

/** One zod schema per type; `type` selects the schema. */
export const qaRecordSchemas = {
	true_false: trueFalse,
	multiple_choice: multipleChoice,
	list,
	short_answer: shortAnswer,
	short_inverse: shortInverse,
	multi_hop: multiHop,
	multi_hop_inverse: multiHopInverse
} as const;

export type QaRecord =
	| z.infer<typeof trueFalse>
	| z.infer<typeof multipleChoice>
	| z.infer<typeof list>
	| z.infer<typeof shortAnswer>
	| z.infer<typeof shortInverse>
	| z.infer<typeof multiHop>
	| z.infer<typeof multiHopInverse>;

export interface RecordError {
	/** The file the record came from, when an import has several. */
	file?: string;
	/**
	 * 0-based position of the record in the file (-1: the file as a whole). People read records
	 * counted from 1: show it with `recordLabel`.
	 */
	index: number;
	field: string;
	reason: string;
	/** What sort of problem it is; absent means a bad value (or, at index -1, the file). */
	kind?: ImportProblemKind;
}

/** The kind an import problem is grouped under on the page. */
export function problemKind(e: Pick<RecordError, 'index' | 'kind'>): ImportProblemKind {
	return e.kind ?? (e.index < 0 ? 'file' : 'invalid');
}

/**
 * Something an accepted import wants the organiser to know, stored with the import record: how
 * many records it concerns and the first of them.
 */
export interface ImportWarning {
	kind: ImportWarningKind;
	/** One sentence, e.g. the number of QA pairs and the first paragraph ids without a passage. */
	message: string;
	/** How many records it concerns. */
	count: number;
	/** The first of those records (at most WARNING_RECORDS_KEPT), each with its reason. */
	records: RecordError[];
}

/** How many records a warning keeps by name (the count covers them all). */
export const WARNING_RECORDS_KEPT = 50;

/** File names of the ClinIQLink files, mapped to the type their records lack when untyped. */
const FILE_TYPES: Record<string, QaType> = {
	tf: 'true_false',
	true_false: 'true_false',
	mc: 'multiple_choice',
	multiple_choice: 'multiple_choice',
	list: 'list',
	short: 'short_answer',
	short_answer: 'short_answer',
	short_inverse: 'short_inverse',
	multi_hop: 'multi_hop',
	multi_hop_inverse: 'multi_hop_inverse'
};

/** The type implied by a file name such as `TF.json` or `multi_hop_inverse.json`, if any. */
export function typeFromFileName(fileName: string): QaType | undefined {
	const stem = fileName
		.split(/[\\/]/)
		.pop()!
		.replace(/\.(json|jsonl)$/i, '')
		.toLowerCase();
	return FILE_TYPES[stem];
}

function formatPath(path: PropertyKey[]): string {
	return path.reduce<string>((acc, key) => {
		if (typeof key === 'number') return `${acc}[${key}]`;
		return acc ? `${acc}.${String(key)}` : String(key);
	}, '');
}

/** Validates one record against the schema of its type (or `fallbackType` when it has none). */
export function validateQaRecord(
	value: unknown,
	index: number,
	fallbackType?: QaType
): { ok: true; record: QaRecord } | { ok: false; errors: RecordError[] } {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { ok: false, errors: [{ index, field: '(record)', reason: 'must be a JSON object' }] };
	}
	const raw = value as Record<string, unknown>;
	const broken = unstorableStrings(raw);
	if (broken.length) return { ok: false, errors: broken.map((b) => ({ index, ...b })) };
	const type = raw.type ?? fallbackType;
	if (type === undefined) {
		return { ok: false, errors: [{ index, field: 'type', reason: 'is missing' }] };
	}
	if (typeof type !== 'string' || !(type in qaRecordSchemas)) {
		return {
			ok: false,
			errors: [
				{
					index,
					field: 'type',
					reason: `must be one of ${QA_TYPES.join(', ')} (got ${JSON.stringify(type)})`
				}
			]
		};
	}
	const schema = qaRecordSchemas[type as QaType];
	const parsed = schema.safeParse(raw.type === undefined ? { ...raw, type } : raw);
	if (parsed.success) return { ok: true, record: parsed.data as QaRecord };
	return {
		ok: false,
		errors: parsed.error.issues.map((issue) => ({
			index,
			field: formatPath(issue.path) || '(record)',
			reason:
				issue.code === 'invalid_type' && /received undefined/.test(issue.message)
					? 'is missing'
					: issue.message
		}))
	};
}

/** How a person names a record: "record 1" is the first of its file; -1 is the file itself. */
export function recordLabel(e: Pick<RecordError, 'file' | 'index'>): string {
	const where = e.index >= 0 ? `record ${e.index + 1}` : '(file)';
	return e.file ? `${e.file} ${where}` : where;
}
