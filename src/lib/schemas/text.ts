// Text that can be stored: PostgreSQL refuses a NUL character (U+0000) in text and JSON, and a
// lone UTF-16 surrogate is not a character at all. Every imported string is checked before any
// write, so such input is a per-record, per-field error instead of a failed SQL statement.

/** Longest accepted text per kind of field, in characters. */
export const TEXT_LIMITS = {
	/** Identifiers: paragraph ids, ISBNs, model names. */
	id: 200,
	/** Questions, answers, options, list items, explanations, reasoning steps. */
	field: 20_000,
	/** Source passages and model responses. */
	long: 200_000
} as const;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or null. */
export function unstorable(value: string): string | null {
	if (value.includes('\u0000')) return 'contains a NUL character (U+0000), which cannot be stored';
	if (LONE_SURROGATE.test(value))
		return 'contains a broken character (a lone UTF-16 surrogate); save the file as UTF-8 again';
	return null;
}

/**
 * Every string in a JSON value (keys included) that cannot be stored, with its path
 * (`options[2]`, `source.paragraph_id`).
 */
export function unstorableStrings(value: unknown, path = ''): { field: string; reason: string }[] {
	if (typeof value === 'string') {
		const reason = unstorable(value);
		return reason ? [{ field: path || '(record)', reason }] : [];
	}
	if (Array.isArray(value)) return value.flatMap((v, i) => unstorableStrings(v, `${path}[${i}]`));
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([k, v]) => {
			const field = path ? `${path}.${k}` : k;
			const key = unstorable(k);
			return [
				...(key ? [{ field, reason: `its name ${key}` }] : []),
				...unstorableStrings(v, field)
			];
		});
	return [];
}
