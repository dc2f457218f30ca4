import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
	hashPassword,
	MIN_PASSWORD_LENGTH,
	passwordWeakness,
	verifyDummy,
	verifyPassword
} from '../../auth/password';
import { attemptSucceeded, claimAttempt } from '../../auth/throttle';
import type { Db, Tx } from '../../db/client';
import { HOME_INSTITUTION_ID, invitation, user, type Invitation, type User } from '../../db/schema';
import { ROLES, type Role } from '../../../constants';
import { randomId, sha256Hex } from '../../ids';
import { recordAudit } from '../audit';
import { guardLastOrganiser } from './accounts';
import { DomainError, parseInput } from '../../errors';

export const emailSchema = z.email('must be a valid email address').trim().toLowerCase();
export const passwordSchema = z
	.string()
	.min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
	.max(256, 'must be at most 256 characters')
	.superRefine((password, ctx) => {
		const weakness = passwordWeakness(password);
		if (weakness) ctx.addIssue({ code: 'custom', message: weakness });
	});
export const rolesSchema = z
	.array(z.enum(ROLES))
	.min(1, 'choose at least one role')
	.transform((r) => [...new Set(r)]);

export const newUserSchema = z.object({
	email: emailSchema,
	displayName: z.string().trim().min(1, 'must not be empty').max(100),
	roles: rolesSchema,
	password: passwordSchema,
	/** The institution the account belongs to (the home institution when not given). */
	institutionId: z.coerce.number().int().positive().default(HOME_INSTITUTION_ID)
});

function newPseudonym(): string {
	return `P-${randomId(6).toUpperCase()}`;
}

/** Creates an account with an argon2id-hashed password. */
export async function createUser(
	db: Db,
	input: { [K in keyof z.input<typeof newUserSchema>]: unknown },
	actorId: string | null = null
): Promise<User> {
	const data = parseInput(newUserSchema, input);
	const passwordHash = await hashPassword(data.password);
	return db.transaction(async (tx) => {
		const [taken] = await tx.select({ id: user.id }).from(user).where(eq(user.email, data.email));
		if (taken)
			throw new DomainError('conflict', `An account for ${data.email} already exists.`, {
				field: 'email'
			});
		const [created] = await tx
			.insert(user)
			.values({
				id: randomId(),
				email: data.email,
				displayName: data.displayName,
				pseudonym: newPseudonym(),
				roles: data.roles,
				institutionId: data.institutionId,
				passwordHash
			})
			.returning();
		await recordAudit(tx, {
			actorId,
			action: 'user.create',
			objectType: 'user',
			objectId: created.id,
			after: { email: created.email, roles: created.roles, institutionId: created.institutionId }
		});
		return created;
	});
}

export type SignInResult =
	| { ok: true; user: User }
	| { ok: false; reason: 'invalid' }
	| { ok: false; reason: 'disabled' }
	| { ok: false; reason: 'locked'; retryAfterMs: number };

/**
 * Checks an email and password. The attempt is counted first (per account and address, per
 * account, per address and per accounts an address failed on: see auth/throttle.ts), so a locked
 * key is refused before the password is looked at, however many attempts arrive at once.
 */
export async function authenticate(
	db: Db,
	emailInput: string,
	password: string,
	clientAddress: string,
	now = new Date()
): Promise<SignInResult> {
	const email = emailInput.trim().toLowerCase();
	const retryAfterMs = await claimAttempt(db, email, clientAddress, now);
	if (retryAfterMs > 0) return { ok: false, reason: 'locked', retryAfterMs };

	const [found] = await db.select().from(user).where(eq(user.email, email));
	const valid = found?.passwordHash
		? await verifyPassword(found.passwordHash, password)
		: (await verifyDummy(password), false);
	if (!valid || !found) return { ok: false, reason: 'invalid' };
	// Only the right password learns that the account is deactivated (it counts as a failure).
	if (found.disabledAt) return { ok: false, reason: 'disabled' };
	await attemptSucceeded(db, email, clientAddress, now);
	return { ok: true, user: found };
}

/** Lists accounts for the organiser's user page. */
export function listUsers(db: Db) {
	return db
		.select({
			id: user.id,
			email: user.email,
			displayName: user.displayName,
			pseudonym: user.pseudonym,
			roles: user.roles,
			institutionId: user.institutionId,
			createdAt: user.createdAt,
			disabledAt: user.disabledAt,
			hasPassword: sql<boolean>`${user.passwordHash} is not null`
		})
		.from(user)
		.orderBy(user.createdAt);
}

/**
 * Replaces a user's roles, audited with the roles before and after. Taking the organiser role
 * from the last active organiser is refused.
 */
export async function setRoles(db: Db, userId: string, roles: Role[], actorId: string) {
	const data = parseInput(rolesSchema, roles);
	await db.transaction(async (tx) => {
		if (!data.includes('organiser'))
			await guardLastOrganiser(tx, userId, 'lose the organiser role');
		const [before] = await tx
			.select({ roles: user.roles })
			.from(user)
			.where(eq(user.id, userId))
			.for('update');
		if (!before) throw new DomainError('not_found', 'No such user.');
		if (sameRoles(before.roles, data)) return;
		await tx.update(user).set({ roles: data }).where(eq(user.id, userId));
		await recordAudit(tx, {
			actorId,
			action: 'user.roles',
			objectType: 'user',
			objectId: userId,
			before,
			after: { roles: data }
		});
	});
}

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((r) => b.includes(r));
}

export const invitationSchema = z.object({
	email: emailSchema,
	displayName: z.string().trim().min(1, 'must not be empty').max(100),
	roles: rolesSchema,
	validHours: z.coerce
		.number()
		.int()
		.min(1)
		.max(24 * 30)
		.default(72),
	/** The institution the new account will belong to (the home institution when not given). */
	institutionId: z.coerce.number().int().positive().default(HOME_INSTITUTION_ID)
});

/** Creates a one-time invitation; returns the token for the link (only its hash is stored). */
export async function createInvitation(
	db: Db,
	input: { [K in keyof z.input<typeof invitationSchema>]?: unknown },
	createdBy: string,
	now = new Date()
): Promise<{ token: string; expiresAt: Date }> {
	const data = parseInput(invitationSchema, input);
	const { token, expiresAt } = await db.transaction((tx) =>
		insertInvitation(tx, data, createdBy, now)
	);
	return { token, expiresAt };
}

/**
 * Writes a validated invitation and its audit event inside the caller's transaction (an approved
 * application issues one in the approval's transaction). Returns its id and the token.
 */
export async function insertInvitation(
	tx: Tx,
	data: z.output<typeof invitationSchema>,
	createdBy: string,
	now = new Date()
): Promise<{ id: string; token: string; expiresAt: Date }> {
	const token = randomId(32);
	const expiresAt = new Date(now.getTime() + data.validHours * 3_600_000);
	const [taken] = await tx.select({ id: user.id }).from(user).where(eq(user.email, data.email));
	if (taken)
		throw new DomainError('conflict', `An account for ${data.email} already exists.`, {
			field: 'email'
		});
	const id = randomId();
	await tx.insert(invitation).values({
		id,
		tokenHash: sha256Hex(token),
		issuedAt: now,
		createdAt: now,
		email: data.email,
		displayName: data.displayName,
		roles: data.roles,
		institutionId: data.institutionId,
		createdBy,
		expiresAt
	});
	await recordAudit(tx, {
		actorId: createdBy,
		action: 'invitation.create',
		objectType: 'invitation',
		objectId: id,
		after: { email: data.email, roles: data.roles, institutionId: data.institutionId, expiresAt }
	});
	return { id, token, expiresAt };
}

/** Matches the unused, unexpired invitation of a token. */
function pendingInvitation(token: string, now: Date) {
	return and(
		eq(invitation.tokenHash, sha256Hex(token)),
		isNull(invitation.usedAt),
		isNull(invitation.revokedAt),
		gt(invitation.expiresAt, now)
	);
}

/** The pending, unexpired invitation for a token, or null. */
export async function findInvitation(db: Db, token: string, now = new Date()) {
	const [row] = await db.select().from(invitation).where(pendingInvitation(token, now));
	return row ?? null;
}

/** Redeems an invitation: creates the account and marks the invitation used, atomically. */
export async function acceptInvitation(db: Db, token: string, password: string, now = new Date()) {
	const pw = parseInput(passwordSchema, password);
	const passwordHash = await hashPassword(pw);
	return db.transaction((tx) => redeemInvitation(tx, { token }, passwordHash, now));
}

/**
 * Redeems an open invitation (by its link's token, or by id for an approved application) inside
 * the caller's transaction: creates the account in the invitation's institution with its roles and
 * marks the invitation used. `passwordHash` is null for an account that signs in through its
 * institution's provider. `check` may refuse the invitation before anything is written.
 */
export async function redeemInvitation(
	tx: Tx,
	which: { token: string } | { id: string },
	passwordHash: string | null,
	now = new Date(),
	check?: (inv: Invitation) => void
): Promise<User> {
	const match =
		'token' in which
			? pendingInvitation(which.token, now)
			: and(
					eq(invitation.id, which.id),
					isNull(invitation.usedAt),
					isNull(invitation.revokedAt),
					gt(invitation.expiresAt, now)
				);
	const [inv] = await tx.select().from(invitation).where(match).for('update');
	if (!inv) throw new DomainError('not_found', 'This invitation link is invalid, used or expired.');
	check?.(inv);
	const [taken] = await tx.select({ id: user.id }).from(user).where(eq(user.email, inv.email));
	if (taken)
		throw new DomainError('conflict', `An account for ${inv.email} already exists.`, {
			field: 'email'
		});
	const [created] = await tx
		.insert(user)
		.values({
			id: randomId(),
			email: inv.email,
			displayName: inv.displayName,
			pseudonym: newPseudonym(),
			roles: inv.roles,
			institutionId: inv.institutionId,
			passwordHash
		})
		.returning();
	await tx
		.update(invitation)
		.set({ usedAt: now, usedBy: created.id })
		.where(eq(invitation.id, inv.id));
	await recordAudit(tx, {
		actorId: created.id,
		action: 'invitation.accept',
		objectType: 'invitation',
		objectId: inv.id
	});
	return created;
}

/**
 * Who can rank: active (not disabled) accounts with the physician role, and the pending
 * (unused, unexpired) physician invitations for addresses that have no account yet.
 */
export async function physicianSupply(db: Db | Tx, now = new Date()) {
	const [{ active }] = await db
		.select({ active: sql<number>`count(*)::int` })
		.from(user)
		.where(and(isNull(user.disabledAt), sql`'physician' = any(${user.roles})`));
	const pending = await db
		.select({ email: invitation.email, expiresAt: invitation.expiresAt })
		.from(invitation)
		.where(
			and(
				isNull(invitation.usedAt),
				isNull(invitation.revokedAt),
				gt(invitation.expiresAt, now),
				sql`'physician' = any(${invitation.roles})`,
				sql`not exists (select 1 from ${user} u where u.email = ${invitation.email})`
			)
		)
		.orderBy(invitation.email);
	// Two invitations to one address can make one account only.
	const emails = [...new Set(pending.map((p) => p.email))];
	return { active, pending: emails };
}
