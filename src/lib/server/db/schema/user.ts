import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { role } from './enums';

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
	createdBy: text()
		.notNull()
		.references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	expiresAt: timestamp({ withTimezone: true }).notNull(),
	usedAt: timestamp({ withTimezone: true }),
	usedBy: text().references(() => user.id)
});
export type Invitation = typeof invitation.$inferSelect;

/** Failed sign-ins per key (normalised email, and client address) for throttling. */
export const signInThrottle = pgTable('sign_in_throttle', {
	key: text().primaryKey(),
	failures: integer().notNull().default(0),
	lastFailureAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	lockedUntil: timestamp({ withTimezone: true })
});
