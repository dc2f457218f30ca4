import { requireRole } from '$lib/server/auth/guards';
import { getDb } from '$lib/server/db';
import {
	actionLabel,
	AUDIT_ACTIONS,
	AUDIT_OBJECT_TYPES,
	auditActors,
	auditDiff,
	listAuditEvents,
	objectHref
} from '$lib/server/domain/audit';
import { readCursor, readFilters } from './filters';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	requireRole(locals, 'organiser', url);
	const db = getDb();
	const read = readFilters(url);
	const [page, actors] = await Promise.all([
		read.ok ? listAuditEvents(db, read.filter, readCursor(url)) : null,
		auditActors(db)
	]);
	const events = (page?.events ?? []).map((e) => ({
		id: e.id,
		action: e.action,
		label: actionLabel(e.action),
		objectType: e.objectType,
		objectTypeLabel: AUDIT_OBJECT_TYPES[e.objectType] ?? e.objectType,
		objectId: e.objectId,
		href: objectHref(e),
		at: e.createdAt,
		actor: e.actor,
		subject: e.subject,
		diff: auditDiff(e.before, e.after)
	}));
	return {
		events,
		hasOlder: page?.hasOlder ?? false,
		hasNewer: page?.hasNewer ?? false,
		filterError: read.ok ? null : { field: read.field, message: read.message },
		families: Object.entries(AUDIT_ACTIONS).map(([family, actions]) => ({
			family,
			actions: Object.entries(actions).map(([value, label]) => ({ value, label }))
		})),
		objectTypes: Object.entries(AUDIT_OBJECT_TYPES).map(([value, label]) => ({ value, label })),
		actors
	};
};
