import { type AuditCursor, type AuditFilter, auditFilterSchema } from '$lib/server/domain/audit';

const FILTER_KEYS = ['action', 'actor', 'objectType', 'objectId', 'from', 'to'] as const;

/** The audit filters of a URL: the parsed filter, or the message of the first bad field. */
export function readFilters(
	url: URL
): { ok: true; filter: AuditFilter } | { ok: false; field: string; message: string } {
	const raw = Object.fromEntries(FILTER_KEYS.map((k) => [k, url.searchParams.get(k) ?? undefined]));
	const parsed = auditFilterSchema.safeParse(raw);
	if (parsed.success) return { ok: true, filter: parsed.data };
	const issue = parsed.error.issues[0];
	const field = String(issue.path[0] ?? 'form');
	return { ok: false, field, message: `${field} ${issue.message}.` };
}

/** The page cursor of a URL: `older=<id>` or `newer=<id>`. */
export function readCursor(url: URL): AuditCursor {
	const id = (name: string) => {
		const v = url.searchParams.get(name);
		return v && /^\d{1,15}$/.test(v) ? Number(v) : null;
	};
	const older = id('older');
	if (older !== null) return { older };
	const newer = id('newer');
	return newer !== null ? { newer } : null;
}
