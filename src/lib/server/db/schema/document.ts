import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { importRecord } from './content';

/**
 * A cited source — a PubMed abstract — stored once by its PMID and shared by every answer that
 * cites it. Immutable once imported (a re-import with other text is refused), so the evidence
 * sentences an assessor selects (by their number in `sentences`) always mean the same text.
 */
export const document = pgTable('document', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	/** The PubMed id, digits as written in the file (leading zeros dropped). */
	pmid: text().notNull().unique(),
	title: text().notNull().default(''),
	abstract: text().notNull(),
	/** The abstract split into sentences on import (src/lib/text/sentences.ts), numbered from 1. */
	sentences: jsonb().$type<string[]>().notNull(),
	/** The record exactly as imported. */
	record: jsonb().notNull(),
	contentHash: text().notNull(),
	importId: integer().references(() => importRecord.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Document = typeof document.$inferSelect;
