import { sql } from 'drizzle-orm';
import {
	type AnyPgColumn,
	boolean,
	check,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	smallint,
	text,
	timestamp,
	unique,
	uniqueIndex
} from 'drizzle-orm/pg-core';
import { qaItem, qaItemVersion } from './content';
import {
	disputeCategory,
	disputeStatus,
	feedbackCategory,
	provenance,
	reviewRound,
	taskState,
	verdict
} from './enums';
import { user } from './user';

/**
 * One piece of review work: an item in a round. The lease columns make it the unit of the work
 * queue; only pending rows are in the partial claim index (dead entries stall a plain index).
 */
export const reviewTask = pgTable(
	'review_task',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		round: reviewRound().notNull(),
		state: taskState().notNull().default('pending'),
		/** The secondary round must never go to the primary reviewer. */
		excludedUserId: text().references(() => user.id),
		leasedBy: text().references(() => user.id),
		leaseToken: text(),
		leasedAt: timestamp({ withTimezone: true }),
		leaseExpiresAt: timestamp({ withTimezone: true }),
		doneBy: text().references(() => user.id),
		doneAt: timestamp({ withTimezone: true }),
		/**
		 * Position in the reviewers' queue (ascending, then id): in seeded order the first 32 bits of
		 * md5('<dataset seed>:<item id>') as a signed integer, in import order the item id.
		 */
		sortKey: integer().notNull().default(0),
		/**
		 * The item has no imported passage and its dataset waits for it: the task is out of the claim
		 * index until then. Kept by the imports, the dataset settings and the review functions in
		 * the transaction that changes a passage, a setting or a task, so a claim joins nothing.
		 */
		awaitsPassage: boolean().notNull().default(false),
		/**
		 * Set when the task's review stopped counting (an exclusion of its reviewer) and a fresh task
		 * for the same item and round took its place; cleared when the exclusion is revoked before
		 * the fresh task was claimed. An item has one current (unretired) task per round.
		 */
		retiredAt: timestamp({ withTimezone: true }),
		/**
		 * The id the reviewer's screen uses for the task (its address and form), drawn afresh for
		 * each lease: random, like a hidden gold check's, so neither tells them apart.
		 */
		publicId: text(),
		/**
		 * The task took the place of a retired one: never offered to a reviewer who held or did any
		 * other task of its item (the claim checks it for these tasks only).
		 */
		reopened: boolean().notNull().default(false),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		uniqueIndex('review_task_current')
			.on(t.itemId, t.round)
			.where(sql`${t.retiredAt} is null`),
		index('review_task_item').on(t.itemId),
		uniqueIndex('review_task_public_id').on(t.publicId),
		index('review_task_claimable')
			.on(t.round, t.sortKey, t.id)
			.where(sql`${t.state} = 'pending' and not ${t.awaitsPassage}`),
		index('review_task_awaiting_passage')
			.on(t.round)
			.where(sql`${t.state} = 'pending' and ${t.awaitsPassage}`),
		index('review_task_leased')
			.on(t.leaseExpiresAt)
			.where(sql`${t.state} = 'leased'`),
		index().on(t.leasedBy)
	]
);
export type ReviewTask = typeof reviewTask.$inferSelect;

/** A skip or release of a task, kept for the record. */
export const taskSkip = pgTable(
	'task_skip',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		taskId: integer()
			.notNull()
			.references(() => reviewTask.id),
		userId: text()
			.notNull()
			.references(() => user.id),
		reason: text(),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	// The workload view counts one reviewer's skips in a week.
	(t) => [index().on(t.userId, t.createdAt)]
);

/** One reviewer's judgement of one item version in one round. Amendments add a revision. */
export const review = pgTable(
	'review',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		taskId: integer()
			.notNull()
			.references(() => reviewTask.id),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		itemVersionId: integer()
			.notNull()
			.references(() => qaItemVersion.id),
		round: reviewRound().notNull(),
		reviewerId: text()
			.notNull()
			.references(() => user.id),
		revision: integer().notNull().default(1),
		supersedesId: integer().references((): AnyPgColumn => review.id),
		verdict: verdict().notNull(),
		relevance: smallint().notNull(),
		feedback: text(),
		/** Milliseconds between the item being shown and the submission. */
		timeOnTaskMs: integer(),
		/** The item had no imported passage when the review was submitted (set by the database). */
		withoutPassage: boolean().notNull().default(false),
		/** Client-supplied key that makes a retried submission a no-op. */
		idempotencyKey: text().notNull().unique(),
		submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		check('relevance_range', sql`${t.relevance} between 1 and 5`),
		unique().on(t.taskId, t.revision),
		index().on(t.reviewerId, t.submittedAt),
		index().on(t.itemId),
		// The progress page's reviews and median time per reviewer, read from the index alone.
		index('review_first_revision_time')
			.on(t.reviewerId, t.timeOnTaskMs)
			.where(sql`${t.revision} = 1`),
		// The item table's "reviewed without passage" flag: the few such reviews, not every review.
		index('review_without_passage')
			.on(t.itemId)
			.where(sql`${t.withoutPassage}`)
	]
);
export type Review = typeof review.$inferSelect;

/**
 * Each reviewer's first-revision primary reviews per dataset (`reviewed`) and how many of their
 * items are in the secondary sample now (`sampled`): what the claim reads to keep a reviewer's
 * checked share at the dataset's share, in constant time whatever their history. Kept in the
 * same transaction as every change of those numbers (`review_submit`, `qa_item_mark_sampled`);
 * `reviewer_tally_refresh` recomputes a dataset's rows from the reviews.
 */
export const reviewerTally = pgTable(
	'reviewer_tally',
	{
		userId: text()
			.notNull()
			.references(() => user.id),
		// No foreign key: its check would lock the dataset row, and a first review in a dataset would
		// wait for (or deadlock with) an import or settings change that holds it.
		datasetId: integer().notNull(),
		reviewed: integer().notNull().default(0),
		sampled: integer().notNull().default(0)
	},
	(t) => [primaryKey({ columns: [t.userId, t.datasetId] })]
);
export type ReviewerTally = typeof reviewerTally.$inferSelect;

/** The final verdict and relevance recorded by an adjudicator after a disagreement. */
export const adjudication = pgTable(
	'adjudication',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		itemVersionId: integer()
			.notNull()
			.references(() => qaItemVersion.id),
		adjudicatorId: text()
			.notNull()
			.references(() => user.id),
		verdict: verdict().notNull(),
		relevance: smallint().notNull(),
		reason: text().notNull(),
		/** The reviews the adjudicator saw. */
		reviewIds: jsonb().$type<number[]>().notNull(),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [check('adjudication_relevance_range', sql`${t.relevance} between 1 and 5`)]
);
export type Adjudication = typeof adjudication.$inferSelect;

export const feedbackNote = pgTable(
	'feedback_note',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		itemVersionId: integer()
			.notNull()
			.references(() => qaItemVersion.id),
		reviewId: integer().references(() => review.id),
		authorId: text()
			.notNull()
			.references(() => user.id),
		category: feedbackCategory().notNull(),
		body: text().notNull(),
		resolvedBy: text().references(() => user.id),
		resolvedAt: timestamp({ withTimezone: true }),
		resolution: text(),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		index().on(t.itemId),
		index().on(t.category),
		// Unresolved notes hold their item: the held filter and counts read only these rows.
		index('feedback_note_unresolved')
			.on(t.itemId)
			.where(sql`${t.resolvedAt} is null`)
	]
);
export type FeedbackNote = typeof feedbackNote.$inferSelect;

/** A formal objection to an item: open → under_review → upheld | rejected. */
export const dispute = pgTable(
	'dispute',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		itemVersionId: integer()
			.notNull()
			.references(() => qaItemVersion.id),
		reviewId: integer().references(() => review.id),
		raisedBy: text()
			.notNull()
			.references(() => user.id),
		category: disputeCategory().notNull(),
		reason: text().notNull(),
		status: disputeStatus().notNull().default('open'),
		ownerId: text().references(() => user.id),
		resolution: text(),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		resolvedAt: timestamp({ withTimezone: true })
	},
	(t) => [
		index().on(t.status),
		index().on(t.itemId),
		// Open and under-review disputes hold their item.
		index('dispute_open')
			.on(t.itemId)
			.where(sql`${t.status} in ('open', 'under_review')`)
	]
);
export type Dispute = typeof dispute.$inferSelect;

export const disputeComment = pgTable('dispute_comment', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	disputeId: integer()
		.notNull()
		.references(() => dispute.id),
	authorId: text()
		.notNull()
		.references(() => user.id),
	body: text().notNull(),
	/** Set when the comment records a status change. */
	statusChange: disputeStatus(),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});

/** An immutable, reproducible selection of item versions. */
export const snapshot = pgTable('snapshot', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	datasetId: integer().notNull(),
	name: text().notNull().unique(),
	/** Selection settings (relevance threshold, rules) as applied. */
	settings: jsonb().notNull(),
	/** Composition report: per type high / low / total, double-reviewed count and share. */
	composition: jsonb().notNull(),
	itemCount: integer().notNull(),
	createdBy: text()
		.notNull()
		.references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});
export type Snapshot = typeof snapshot.$inferSelect;

export const snapshotItem = pgTable(
	'snapshot_item',
	{
		snapshotId: integer()
			.notNull()
			.references(() => snapshot.id),
		itemId: integer()
			.notNull()
			.references(() => qaItem.id),
		itemVersionId: integer()
			.notNull()
			.references(() => qaItemVersion.id),
		finalRelevance: smallint().notNull(),
		/** How the final judgement came about when frozen; null only for rows frozen before it was kept. */
		provenance: provenance()
	},
	(t) => [uniqueIndex().on(t.snapshotId, t.itemId)]
);
