import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { invitation, user } from '../../db/schema';
import { DomainError } from '../../errors';
import { randomId, sha256Hex } from '../../ids';
import { recordAudit } from '../audit';

/** The open invitations (not used, not revoked), newest first; `expired` marks the lapsed ones. */
export async function listInvitations(db: Db, now = new Date()) {
	const inviter = alias(user, 'inviter');
	const rows = await db
		.select({
			id: invitation.id,
			email: invitation.email,
			displayName: invitation.displayName,
			roles: invitation.roles,
			createdAt: invitation.createdAt,
			issuedAt: invitation.issuedAt,
			expiresAt: invitation.expiresAt,
			invitedBy: { displayName: inviter.displayName, pseudonym: inviter.pseudonym }
		})
		.from(invitation)
		.innerJoin(inviter, eq(inviter.id, invitation.createdBy))
		.where(and(isNull(invitation.usedAt), isNull(invitation.revokedAt)))
		.orderBy(desc(invitation.createdAt), invitation.id);
	return rows.map((r) => ({ ...r, expired: r.expiresAt.getTime() <= now.getTime() }));
}

/** Locks an open invitation, or refuses with why it cannot change any more. */
async function lockOpen(tx: Parameters<Parameters<Db['transaction']>[0]>[0], id: string) {
	const [row] = await tx.select().from(invitation).where(eq(invitation.id, id)).for('update');
	if (!row) throw new DomainError('not_found', 'No such invitation.');
	if (row.usedAt) throw new DomainError('conflict', 'This invitation was already accepted.');
	if (row.revokedAt) throw new DomainError('conflict', 'This invitation was revoked.');
	return row;
}

/**
 * Issues a fresh link for an open (possibly expired) invitation: the old token stops working at
 * once, and the new one is valid for as long as the invitation first was. Returns the new token
 * (only its hash is stored, so this is the one moment it can be shown).
 */
export async function resendInvitation(
	db: Db,
	id: string,
	actorId: string,
	now = new Date()
): Promise<{ token: string; email: string; expiresAt: Date }> {
	return db.transaction(async (tx) => {
		const row = await lockOpen(tx, id);
		const validMs = Math.max(3_600_000, row.expiresAt.getTime() - row.issuedAt.getTime());
		const token = randomId(32);
		const expiresAt = new Date(now.getTime() + validMs);
		await tx
			.update(invitation)
			.set({ tokenHash: sha256Hex(token), issuedAt: now, expiresAt })
			.where(eq(invitation.id, id));
		await recordAudit(tx, {
			actorId,
			action: 'invitation.resend',
			objectType: 'invitation',
			objectId: id,
			before: { email: row.email, expiresAt: row.expiresAt },
			after: { email: row.email, expiresAt }
		});
		return { token, email: row.email, expiresAt };
	});
}

/** Withdraws an open invitation: its link stops working at once and says it was revoked. */
export async function revokeInvitation(
	db: Db,
	id: string,
	actorId: string,
	now = new Date()
): Promise<{ email: string }> {
	return db.transaction(async (tx) => {
		const row = await lockOpen(tx, id);
		await tx.update(invitation).set({ revokedAt: now }).where(eq(invitation.id, id));
		await recordAudit(tx, {
			actorId,
			action: 'invitation.revoke',
			objectType: 'invitation',
			objectId: id,
			before: { email: row.email, roles: row.roles, expiresAt: row.expiresAt },
			after: { revokedAt: now }
		});
		return { email: row.email };
	});
}

/** Why an invitation link does not work: the states a visitor can be told about. */
export type InvitationLinkState = 'open' | 'used' | 'revoked' | 'expired' | 'unknown';

/** The state of the invitation a token belongs to (a replaced token is `unknown`). */
export async function invitationLinkState(
	db: Db,
	token: string,
	now = new Date()
): Promise<InvitationLinkState> {
	const [row] = await db
		.select({
			usedAt: invitation.usedAt,
			revokedAt: invitation.revokedAt,
			expiresAt: invitation.expiresAt
		})
		.from(invitation)
		.where(eq(invitation.tokenHash, sha256Hex(token)));
	if (!row) return 'unknown';
	if (row.revokedAt) return 'revoked';
	if (row.usedAt) return 'used';
	if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
	return 'open';
}
