import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import { ReviewError } from './domain/review/errors';

/** A form's single-valued fields as plain strings (what zod schemas at the boundary parse). */
export function formFields(form: FormData): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of form) if (typeof value === 'string') out[key] = value;
	return out;
}

/** One message per field from a zod error, for forms. */
export function zodFieldErrors(error: z.ZodError): Record<string, string> {
	const out: Record<string, string> = {};
	for (const issue of error.issues) out[String(issue.path[0] ?? 'form')] ??= issue.message;
	return out;
}

/** Maps an expected verification refusal to `fail`; anything else is rethrown. */
export function failFromReviewError(e: unknown, extra: Record<string, unknown> = {}) {
	if (e instanceof ReviewError)
		return fail(e.status, { ...extra, message: e.message, code: e.code });
	throw e;
}
