import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { institutionKind, role } from './enums';

/**
 * A medical school, hospital or other body whose people contribute judgements. Every account
 * belongs to one; institution 1 (made by the migration) holds the portal's own people. With an
 * issuer, its people may sign in through its own OpenID Connect provider.
 */
export const institution = pgTable('institution', {
	id: integer().primaryKey().generatedByDefaultAsIdentity(),
	name: text().notNull().unique(),
	kind: institutionKind().notNull().default('other'),
	/** OpenID Connect issuer URL (discovery at `<issuer>/.well-known/openid-configuration`). */
	ssoIssuer: text(),
	ssoClientId: text(),
	ssoClientSecret: text(),
	/** Email domains whose people may sign in through the institution's provider (lower case). */
	ssoDomains: text()
		.array()
		.notNull()
		.default(sql`'{}'::text[]`),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Institution = typeof institution.$inferSelect;

/** The home institution the migration creates: accounts not placed elsewhere belong to it. */
export const HOME_INSTITUTION_ID = 1;

export const user = pgTable(
	'user',
	{
		id: text().primaryKey(),
		email: text().notNull().unique(),
		displayName: text().notNull(),
		/** Stable pseudonym shown instead of the name where displays or exports hide identities. */
		pseudonym: text().notNull().unique(),
		/** argon2id PHC string; null until an invited user sets a password. */
		passwordHash: text(),
		roles: role()
			.array()
			.notNull()
			.default(sql`'{}'::role[]`),
		/** The institution the account belongs to (an institution lead manages its own people). */
		institutionId: integer()
			.notNull()
			.default(1)
			.references(() => institution.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		disabledAt: timestamp({ withTimezone: true })
	},
	(t) => [check('user_email_lower', sql`${t.email} = lower(${t.email})`)]
);
export type User = typeof user.$inferSelect;

/** A server-side session; only the SHA-256 of the token secret is stored (Lucia guide). */
export const session = pgTable('session', {
	id: text().primaryKey(),
	userId: text()
		.notNull()
		.references(() => user.id, { onDelete: 'cascade' }),
	secretHash: text().notNull(),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	expiresAt: timestamp({ withTimezone: true }).notNull()
});
export type Session = typeof session.$inferSelect;

/** One-time invitation link; only the token's SHA-256 is stored. */
export const invitation = pgTable('invitation', {
	id: text().primaryKey(),
	tokenHash: text().notNull().unique(),
	email: text().notNull(),
	displayName: text().notNull(),
	roles: role().array().notNull(),
	/** The institution the new account will belong to. */
	institutionId: integer()
		.notNull()
		.default(1)
		.references(() => institution.id),
	createdBy: text()
		.notNull()
		.references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	expiresAt: timestamp({ withTimezone: true }).notNull(),
	usedAt: timestamp({ withTimezone: true }),
	usedBy: text().references(() => user.id),
	/** Set when an organiser withdraws the invitation: its link stops working at once. */
	revokedAt: timestamp({ withTimezone: true }),
	/** When the current link was issued (a resend replaces the token and the expiry). */
	issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Invitation = typeof invitation.$inferSelect;

/**
 * One-time password-reset link an organiser issues for an account; only the token's SHA-256 is
 * stored. Using it sets a new password and ends the account's sessions.
 */
export const passwordReset = pgTable('password_reset', {
	id: text().primaryKey(),
	tokenHash: text().notNull().unique(),
	userId: text()
		.notNull()
		.references(() => user.id),
	createdBy: text()
		.notNull()
		.references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	expiresAt: timestamp({ withTimezone: true }).notNull(),
	usedAt: timestamp({ withTimezone: true }),
	/** Set when a newer link for the same account replaces this one. */
	replacedAt: timestamp({ withTimezone: true })
});
export type PasswordReset = typeof passwordReset.$inferSelect;

/** Failed sign-ins per key (normalised email, and client address) for throttling. */
export const signInThrottle = pgTable('sign_in_throttle', {
	key: text().primaryKey(),
	failures: integer().notNull().default(0),
	lastFailureAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	lockedUntil: timestamp({ withTimezone: true }),
	/** Account-and-address keys only: the last correct password from this address. */
	lastSuccessAt: timestamp({ withTimezone: true })
});
export type SignInThrottle = typeof signInThrottle.$inferSelect;
