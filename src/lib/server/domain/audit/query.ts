import { and, asc, desc, eq, gt, gte, like, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { alias } from 'drizzle-orm/pg-core';
import { auditEvent, user } from '../../db/schema';

/** Events per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

const day = z
	.string()
	.trim()
	.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
	.refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'must be a real date');
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * The audit log's filters as the URL carries them. `action` is an exact action (`user.roles`) or
 * a family (`user.*`: every action of that prefix); dates are whole UTC days, both inclusive.
 */
export const auditFilterSchema = z
	.object({
		action: z.preprocess(
			blankToUndefined,
			z
				.string()
				.trim()
				.regex(/^[a-z_]+(\.[a-z_]+|\.\*)?$/, 'must be an action such as user.roles or user.*')
				.optional()
		),
		actor: z.preprocess(blankToUndefined, z.string().trim().max(64).optional()),
		objectType: z.preprocess(
			blankToUndefined,
			z
				.string()
				.trim()
				.regex(/^[a-z_]+$/, 'must be an object type such as qa_item')
				.optional()
		),
		objectId: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
		from: z.preprocess(blankToUndefined, day.optional()),
		to: z.preprocess(blankToUndefined, day.optional())
	})
	.refine((f) => !f.from || !f.to || f.from <= f.to, {
		path: ['to'],
		message: 'must not be before the start date'
	});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** Where-conditions of a filter (an actor `system` means events without a signed-in actor). */
function conditions(f: AuditFilter): SQL[] {
	const out: SQL[] = [];
	if (f.action?.endsWith('.*')) out.push(like(auditEvent.action, `${f.action.slice(0, -1)}%`));
	else if (f.action?.includes('.')) out.push(eq(auditEvent.action, f.action));
	else if (f.action) out.push(like(auditEvent.action, `${f.action}.%`));
	if (f.actor === 'system') out.push(sql`${auditEvent.actorId} is null`);
	else if (f.actor) out.push(eq(auditEvent.actorId, f.actor));
	if (f.objectType) out.push(eq(auditEvent.objectType, f.objectType));
	if (f.objectId) out.push(eq(auditEvent.objectId, f.objectId));
	if (f.from) out.push(gte(auditEvent.createdAt, new Date(`${f.from}T00:00:00Z`)));
	if (f.to) {
		const end = new Date(`${f.to}T00:00:00Z`);
		end.setUTCDate(end.getUTCDate() + 1);
		out.push(lt(auditEvent.createdAt, end));
	}
	return out;
}

const columns = {
	id: auditEvent.id,
	action: auditEvent.action,
	objectType: auditEvent.objectType,
	objectId: auditEvent.objectId,
	before: auditEvent.before,
	after: auditEvent.after,
	createdAt: auditEvent.createdAt,
	actor: { id: user.id, displayName: user.displayName, pseudonym: user.pseudonym }
};
// The account an event is about (object type `user`), so the page can name it.
const subject = alias(user, 'subject');

/** One event as the audit page and the export show it. */
export interface AuditRow {
	id: number;
	action: string;
	objectType: string;
	objectId: string;
	before: unknown;
	after: unknown;
	createdAt: Date;
	actor: { id: string; displayName: string; pseudonym: string } | null;
	/** The account the event is about, when its object is one. */
	subject: { displayName: string; pseudonym: string } | null;
}

/** Where a page of events starts: after (older than) or before (newer than) an event id. */
export type AuditCursor = { older: number } | { newer: number } | null;

/**
 * One page of events matching a filter, newest first, keyset-paged on the id (an identity, so it
 * follows the order events were written in): one indexed query however large the table is.
 * `hasOlder` / `hasNewer` say whether the neighbouring pages hold anything.
 */
export async function listAuditEvents(
	db: Db,
	filter: AuditFilter,
	cursor: AuditCursor = null,
	pageSize = AUDIT_PAGE_SIZE
): Promise<{ events: AuditRow[]; hasOlder: boolean; hasNewer: boolean }> {
	const where = conditions(filter);
	const newer = cursor && 'newer' in cursor;
	if (cursor && 'older' in cursor) where.push(lt(auditEvent.id, cursor.older));
	if (cursor && 'newer' in cursor) where.push(gt(auditEvent.id, cursor.newer));
	const rows = (await db
		.select({
			...columns,
			subject: { displayName: subject.displayName, pseudonym: subject.pseudonym }
		})
		.from(auditEvent)
		.leftJoin(user, eq(user.id, auditEvent.actorId))
		.leftJoin(subject, and(eq(auditEvent.objectType, 'user'), eq(subject.id, auditEvent.objectId)))
		.where(and(...where))
		.orderBy(newer ? asc(auditEvent.id) : desc(auditEvent.id))
		.limit(pageSize + 1)) as AuditRow[];
	const more = rows.length > pageSize;
	const events = rows.slice(0, pageSize);
	if (newer) events.reverse();
	return {
		events,
		hasOlder: newer ? Boolean(cursor) : more,
		hasNewer: newer ? more : Boolean(cursor)
	};
}

/**
 * Every event matching a filter, newest first, read in keyset pages of `batch` so an export of a
 * large log never holds it all in memory.
 */
export async function* allAuditEvents(
	db: Db,
	filter: AuditFilter,
	batch = 1000
): AsyncGenerator<AuditRow[]> {
	let cursor: AuditCursor = null;
	for (;;) {
		const { events, hasOlder } = await listAuditEvents(db, filter, cursor, batch);
		if (events.length) yield events;
		if (!hasOlder || !events.length) return;
		cursor = { older: events[events.length - 1].id };
	}
}

/** Who can appear as an actor, for the filter menu. */
export function auditActors(db: Db) {
	return db
		.select({ id: user.id, displayName: user.displayName, pseudonym: user.pseudonym })
		.from(user)
		.orderBy(asc(user.displayName), user.id);
}
