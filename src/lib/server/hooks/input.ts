import { error, json, type Handle, type RequestEvent } from '@sveltejs/kit';
import { unstorable } from '../../schemas/text';

// Every query parameter and every form field of every request is checked here, once, before any
// load or action sees it: PostgreSQL refuses a NUL character in text, and a lone surrogate or a
// broken percent-escape is not text at all, so such input would otherwise fail deep inside a
// statement (an HTTP 500) or be stored altered. Files are the imports' to check (json-records.ts).

/** Form bodies the hook reads; any other body is left to the route. */
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/** A name shown in a message: quoted, and cut when long. */
function shown(name: string): string {
	const safe = [...name].map((c) => (c.charCodeAt(0) < 32 ? '?' : c)).join('');
	return `"${safe.length > 40 ? `${safe.slice(0, 39)}…` : safe}"`;
}

/** Strict percent-decoding: null when an escape is broken or is not UTF-8. */
function decoded(raw: string): string | null {
	try {
		return decodeURIComponent(raw.replace(/\+/g, ' '));
	} catch {
		return null;
	}
}

/** Why the address cannot be accepted (its path or a query parameter), or null. */
export function addressProblem(url: URL): string | null {
	const path = decoded(url.pathname);
	if (path === null)
		return 'The address holds a broken percent-escape (a % not followed by UTF-8 bytes in hex).';
	const pathReason = unstorable(path);
	if (pathReason) return `The address ${pathReason}.`;
	const search = url.search.slice(1);
	if (!search) return null;
	for (const part of search.split('&')) {
		if (!part) continue;
		const eq = part.indexOf('=');
		const rawName = eq < 0 ? part : part.slice(0, eq);
		const name = decoded(rawName);
		const value = eq < 0 ? '' : decoded(part.slice(eq + 1));
		if (name === null || value === null)
			return `The query parameter ${shown(name ?? rawName)} holds a broken percent-escape (a % not followed by UTF-8 bytes in hex); correct the address and try again.`;
		const reason = unstorable(name) ?? unstorable(value);
		if (reason) return `The query parameter ${shown(name)} ${reason}; remove it and try again.`;
	}
	return null;
}

/** Why a form cannot be accepted (a field's name or value, or a file's name), or null. */
export function formProblem(form: FormData): string | null {
	for (const [name, value] of form) {
		const nameReason = unstorable(name);
		if (nameReason) return `A form field's name ${nameReason}.`;
		const reason = typeof value === 'string' ? unstorable(value) : unstorable(value.name);
		if (reason)
			return typeof value === 'string'
				? `The form field ${shown(name)} ${reason}; remove it and send the form again.`
				: `The name of the file sent as ${shown(name)} ${reason}; rename the file and try again.`;
	}
	return null;
}

/**
 * Refuses the request with 400 and `message`: as an action result to a form sent by
 * `use:enhance` (which shows it on the page's error view), as an error page otherwise.
 */
function refuse(event: RequestEvent, message: string, status = 400): never | Response {
	if (event.request.headers.get('x-sveltekit-action') === 'true')
		return json({ type: 'error', error: { message } }, { status });
	error(status, message);
}

/**
 * Checks the address and, for a form sent by POST, every field, refusing bad input with 400 and
 * a message naming the field. The form is read once here and handed to the action as it is
 * (`request.formData()` answers with it), so an upload is neither read twice nor held twice.
 */
export const inputHandle: Handle = async ({ event, resolve }) => {
	const address = addressProblem(event.url);
	if (address) return refuse(event, address);
	const { request } = event;
	const type = request.headers.get('content-type') ?? '';
	if (request.method !== 'GET' && request.method !== 'HEAD' && FORM_TYPES.test(type)) {
		let form: FormData;
		try {
			form = await request.formData();
		} catch (e) {
			if ((e as { status?: number }).status === 413 || /exceeds limit/i.test(String(e)))
				return refuse(event, 'The form is larger than this portal accepts.', 413);
			return refuse(
				event,
				'The form could not be read: its body is not a well-formed form. Reload the page and send it again.'
			);
		}
		const problem = formProblem(form);
		if (problem) return refuse(event, problem);
		Object.defineProperty(request, 'formData', { value: () => Promise.resolve(form) });
	}
	return resolve(event);
};
