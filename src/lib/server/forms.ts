// Every form action reads its input here: the form as a plain object, parsed by a zod schema. A
// refusal has the same shape as a DomainError's (see errors.ts), so pages show both alike.
import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import type { FormFailure } from './errors';

/** Field names never echoed back to the browser. */
const SECRET = /password|token|secret/i;

/** A form as zod reads it. */
export type FormObject = Record<string, FormValue>;
type FormValue = string | File | FormValue[] | { [key: string]: FormValue };

/**
 * The form as an object: a repeated name becomes an array (checkbox groups), and a dotted name
 * `rank.<id>` becomes `{ rank: { <id>: … } }`, so per-row fields parse as records.
 */
export function formObject(form: FormData): FormObject {
	const out: FormObject = {};
	for (const [name, value] of form) {
		const dot = name.indexOf('.');
		let target: Record<string, FormValue> = out;
		let key = name;
		if (dot > 0) {
			const group = name.slice(0, dot);
			const existing = out[group];
			if (typeof existing !== 'object' || existing instanceof File || Array.isArray(existing))
				out[group] = {};
			target = out[group] as Record<string, FormValue>;
			key = name.slice(dot + 1);
		}
		const previous = target[key];
		if (previous === undefined) target[key] = value;
		else target[key] = Array.isArray(previous) ? [...previous, value] : [previous, value];
	}
	return out;
}

/** What a refused form puts back: each text field, a repeated name (checkboxes) as a list. */
export type FormValues = Record<string, string | string[]>;

/** The form's text fields, to put back into a refused form (never secrets or files). */
export function formValues(form: FormData): FormValues {
	const out: FormValues = {};
	for (const [name, value] of form) {
		if (typeof value !== 'string' || SECRET.test(name)) continue;
		const previous = out[name];
		if (previous === undefined) out[name] = value;
		else out[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
	}
	return out;
}

/** One message per field from a zod error (the first issue of each field). */
export function zodFieldErrors(error: z.ZodError): Record<string, string> {
	const out: Record<string, string> = {};
	for (const issue of error.issues) {
		const field = issue.path.length ? issue.path.map(String).join('.') : 'form';
		out[field] ??= issue.message;
	}
	return out;
}

export type FormRead<T, E = object> =
	| { ok: true; data: T; values: FormValues }
	| {
			ok: false;
			failure: ReturnType<typeof fail<FormFailure & E & { values: FormValues }>>;
	  };

/**
 * Reads a request's form through `schema`. On success the parsed data and the text values; on
 * failure a ready `fail(400, …)` with one message per field and the values to restore.
 */
export async function readForm<S extends z.ZodType, E extends object = object>(
	request: Request,
	schema: S,
	options: {
		/** The failure's message (default: the one field message, or a summary). */
		message?: string | ((errors: Record<string, string>) => string);
		/** Inputs from outside the form (e.g. a URL parameter), parsed with it. */
		fields?: Record<string, string>;
		/** Added to a failure's payload (e.g. which of several forms on the page failed). */
		extra?: E;
	} = {}
): Promise<FormRead<z.output<S>, E>> {
	let form: FormData;
	try {
		form = await request.formData();
	} catch {
		form = new FormData();
	}
	const values = formValues(form);
	const parsed = schema.safeParse({ ...formObject(form), ...options.fields });
	if (parsed.success) return { ok: true, data: parsed.data, values };
	const errors = zodFieldErrors(parsed.error);
	const messages = Object.values(errors);
	const message =
		typeof options.message === 'function'
			? options.message(errors)
			: (options.message ??
				(messages.length === 1
					? messages[0]
					: 'Some fields need attention; see the messages beside them.'));
	return {
		ok: false,
		failure: fail(400, {
			...(options.extra as E),
			values,
			code: 'invalid' as const,
			message,
			errors,
			problems: [],
			records: [],
			recordCount: 0,
			recordKinds: {}
		})
	};
}

/** Schema pieces for form fields. */
export const field = {
	/** Optional text: a blank field becomes undefined. */
	optionalText: (max = 5000) =>
		z.preprocess(
			(v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
			z.string().trim().max(max).optional()
		),
	/** A checkbox: present ("on", "1", "true") means true. */
	checkbox: () => z.preprocess((v) => v !== undefined && v !== '' && v !== '0', z.boolean()),
	/** A group of same-named fields (checkboxes, multi-select) as an array, empty when none. */
	list: <T extends z.ZodType>(item: T) =>
		z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item)),
	/** A schema whose named fields are read as lists (a single ticked checkbox posts a string). */
	withLists: <T extends z.ZodType>(names: string[], schema: T) =>
		z.preprocess((v) => {
			if (typeof v !== 'object' || v === null) return v;
			const out: Record<string, unknown> = { ...v };
			for (const name of names) {
				const value = out[name];
				out[name] = value === undefined ? [] : Array.isArray(value) ? value : [value];
			}
			return out;
		}, schema),
	/** Per-row fields `name.<key>` as a record of strings. */
	rows: () => z.record(z.string(), z.string()).default({}),
	/** An uploaded file (an empty file input counts as none). */
	file: () =>
		z.preprocess(
			(v) => (v instanceof File && v.size === 0 && !v.name ? undefined : v),
			z.instanceof(File).optional()
		)
};
