import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passwordReset, user } from '../../db/schema';
import { DomainError, parseInput } from '../../errors';
import { randomId, sha256Hex } from '../../ids';
import { hashPassword } from '../../auth/password';
import { recordAudit } from '../audit';
import { endSessions } from './accounts';
import { passwordSchema } from './users';

/** How long a password-reset link works, in hours. */
export const RESET_VALID_HOURS = 24;

/**
 * Issues a one-time password-reset link for an active account: a new token (only its hash is
 * stored, so the caller shows it once), valid RESET_VALID_HOURS; earlier unused links for the
 * account stop working.
 */
export async function issuePasswordReset(
	db: Db,
	userId: string,
	actorId: string,
	now = new Date()
): Promise<{ token: string; email: string; expiresAt: Date }> {
	return db.transaction(async (tx) => {
		const [target] = await tx
			.select({ email: user.email, disabledAt: user.disabledAt })
			.from(user)
			.where(eq(user.id, userId))
			.for('update');
		if (!target) throw new DomainError('not_found', 'No such account.');
		if (target.disabledAt)
			throw new DomainError(
				'conflict',
				'This account is deactivated; reactivate it before resetting its password.'
			);
		await tx
			.update(passwordReset)
			.set({ replacedAt: now })
			.where(
				and(
					eq(passwordReset.userId, userId),
					isNull(passwordReset.usedAt),
					isNull(passwordReset.replacedAt)
				)
			);
		const token = randomId(32);
		const expiresAt = new Date(now.getTime() + RESET_VALID_HOURS * 3_600_000);
		const id = randomId();
		await tx.insert(passwordReset).values({
			id,
			tokenHash: sha256Hex(token),
			userId,
			createdBy: actorId,
			createdAt: now,
			expiresAt
		});
		await recordAudit(tx, {
			actorId,
			action: 'user.password_reset',
			objectType: 'user',
			objectId: userId,
			after: { resetId: id, expiresAt }
		});
		return { token, email: target.email, expiresAt };
	});
}

function openReset(token: string, now: Date) {
	return and(
		eq(passwordReset.tokenHash, sha256Hex(token)),
		isNull(passwordReset.usedAt),
		isNull(passwordReset.replacedAt),
		gt(passwordReset.expiresAt, now),
		isNull(user.disabledAt)
	);
}

/** The account an unused, unexpired reset link is for, or null. */
export async function findPasswordReset(db: Db, token: string, now = new Date()) {
	const [row] = await db
		.select({ email: user.email, displayName: user.displayName })
		.from(passwordReset)
		.innerJoin(user, eq(user.id, passwordReset.userId))
		.where(openReset(token, now));
	return row ?? null;
}

/**
 * Uses a reset link once: sets the new password (argon2id, the same strength rules as accepting
 * an invitation), marks the link used and ends all the account's sessions, in one transaction.
 * Returns the account so the caller can start the one new session.
 */
export async function usePasswordReset(db: Db, token: string, password: string, now = new Date()) {
	const pw = parseInput(passwordSchema, password);
	const passwordHash = await hashPassword(pw);
	return db.transaction(async (tx) => {
		const [row] = await tx
			.select({ id: passwordReset.id, userId: passwordReset.userId })
			.from(passwordReset)
			.innerJoin(user, eq(user.id, passwordReset.userId))
			.where(openReset(token, now))
			.for('update', { of: passwordReset });
		if (!row)
			throw new DomainError(
				'not_found',
				'This password-reset link is invalid, used or expired. Ask an organiser for a new one.'
			);
		await tx.update(passwordReset).set({ usedAt: now }).where(eq(passwordReset.id, row.id));
		await tx.update(user).set({ passwordHash }).where(eq(user.id, row.userId));
		const sessionsEnded = await endSessions(tx, row.userId);
		await recordAudit(tx, {
			actorId: row.userId,
			action: 'user.password_reset_use',
			objectType: 'user',
			objectId: row.userId,
			after: { resetId: row.id, sessionsEnded }
		});
		return { id: row.userId };
	});
}
