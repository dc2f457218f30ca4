import type { Db, Tx } from '../../db/client';
import { auditEvent } from '../../db/schema';

export interface AuditInput {
	actorId: string | null;
	action: string;
	objectType: string;
	objectId: string | number;
	before?: unknown;
	after?: unknown;
}

/** Appends an audit event; call it inside the transaction of the change it records. */
export async function recordAudit(db: Db | Tx, event: AuditInput): Promise<void> {
	await db.insert(auditEvent).values({
		actorId: event.actorId,
		action: event.action,
		objectType: event.objectType,
		objectId: String(event.objectId),
		before: event.before ?? null,
		after: event.after ?? null
	});
}
