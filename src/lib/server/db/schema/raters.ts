// Raters you can trust: how people join (single sign-on, applications), what they consented to,
// the gold answers that measure them, and the exclusions that take a rater's judgements out of
// every figure. Institutions themselves live beside the accounts (./user.ts).
import { sql } from 'drizzle-orm';
import {
	boolean,
	check,
	doublePrecision,
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
import {
	applicationStatus,
	disputeCategory,
	exclusionSource,
	feedbackCategory,
	raterHoldKind,
	reviewRound,
	role,
	verdict,
	withdrawalPolicy
} from './enums';
import {
	APPLICABLE_ROLES,
	DISPUTE_CATEGORIES,
	FEEDBACK_CATEGORIES,
	VERDICTS
} from '../../../constants';
import { study, studyQuestion } from './study';
import { institution, invitation, user } from './user';

/** An account's identity at an institution's OpenID provider (issuer and subject), once linked. */
export const ssoIdentity = pgTable(
	'sso_identity',
	{
		issuer: text().notNull(),
		subject: text().notNull(),
		userId: text()
			.notNull()
			.references(() => user.id),
		institutionId: integer()
			.notNull()
			.references(() => institution.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		lastSignInAt: timestamp({ withTimezone: true })
	},
	(t) => [primaryKey({ columns: [t.issuer, t.subject] }), index().on(t.userId)]
);

/**
 * A person's request to contribute: approved by an organiser or the institution's lead, which
 * issues an invitation (its link shown to copy); declined with a reason. Made from a first SSO
 * sign-in that matched no account or invitation, or from the public form.
 */
export const application = pgTable(
	'application',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		institutionId: integer()
			.notNull()
			.references(() => institution.id),
		email: text().notNull(),
		displayName: text().notNull(),
		role: role().notNull(),
		/** Physicians: specialty and years of practice. */
		specialty: text(),
		yearsOfPractice: smallint(),
		/** Students (reviewers): year of study. */
		yearOfStudy: smallint(),
		/** Set when the application came from an SSO sign-in: approval links that identity. */
		ssoIssuer: text(),
		ssoSubject: text(),
		status: applicationStatus().notNull().default('pending'),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		decidedBy: text().references(() => user.id),
		decidedAt: timestamp({ withTimezone: true }),
		decisionNote: text(),
		invitationId: text().references(() => invitation.id)
	},
	(t) => [
		check('application_email_lower', sql`${t.email} = lower(${t.email})`),
		check(
			'application_role',
			sql`${t.role} in (${sql.raw(APPLICABLE_ROLES.map((r) => `'${r}'`).join(', '))})`
		),
		index().on(t.institutionId, t.status),
		// One open application per identity.
		uniqueIndex('application_pending_sso')
			.on(t.ssoIssuer, t.ssoSubject)
			.where(sql`${t.status} = 'pending' and ${t.ssoIssuer} is not null`)
	]
);
export type Application = typeof application.$inferSelect;

/**
 * One version of an information-and-consent text: the portal's (study null) or a study's. Raters
 * accept the newest published version before any work; a new version asks again.
 * `withdrawnJudgements` says what happens to a withdrawing rater's judgements (statistics follow).
 */
export const consentText = pgTable(
	'consent_text',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		studyId: integer().references(() => study.id),
		version: integer().notNull(),
		title: text().notNull(),
		/** Markdown. */
		body: text().notNull(),
		withdrawnJudgements: withdrawalPolicy().notNull().default('keep'),
		createdBy: text()
			.notNull()
			.references(() => user.id),
		publishedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		unique().on(t.studyId, t.version).nullsNotDistinct(),
		check('consent_version_positive', sql`${t.version} >= 1`)
	]
);
export type ConsentText = typeof consentText.$inferSelect;

/** A rater's acceptance of one consent version, with the time. */
export const consentAcceptance = pgTable(
	'consent_acceptance',
	{
		consentTextId: integer()
			.notNull()
			.references(() => consentText.id),
		userId: text()
			.notNull()
			.references(() => user.id),
		acceptedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [primaryKey({ columns: [t.userId, t.consentTextId] })]
);

/** A rater's withdrawal from a study, with the consent version's policy applied at that time. */
export const studyWithdrawal = pgTable(
	'study_withdrawal',
	{
		studyId: integer()
			.notNull()
			.references(() => study.id),
		userId: text()
			.notNull()
			.references(() => user.id),
		withdrawnAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		policy: withdrawalPolicy().notNull(),
		consentTextId: integer().references(() => consentText.id),
		/** The exclusion the policy `exclude` made. */
		exclusionId: integer().references(() => exclusion.id)
	},
	(t) => [primaryKey({ columns: [t.studyId, t.userId] })]
);

/**
 * An audited, reversible removal of a rater's judgements from every figure: in one study or all
 * (study null), all of them or those submitted in [from, until). Revoking it puts them back.
 */
export const exclusion = pgTable(
	'exclusion',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		raterId: text()
			.notNull()
			.references(() => user.id),
		studyId: integer().references(() => study.id),
		fromAt: timestamp({ withTimezone: true }),
		untilAt: timestamp({ withTimezone: true }),
		reason: text().notNull(),
		source: exclusionSource().notNull().default('organiser'),
		createdBy: text()
			.notNull()
			.references(() => user.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		revokedAt: timestamp({ withTimezone: true }),
		revokedBy: text().references(() => user.id)
	},
	(t) => [
		check(
			'exclusion_range',
			sql`${t.fromAt} is null or ${t.untilAt} is null or ${t.fromAt} < ${t.untilAt}`
		),
		index('exclusion_active')
			.on(t.raterId)
			.where(sql`${t.revokedAt} is null`)
	]
);
export type Exclusion = typeof exclusion.$inferSelect;

/** A gold question's explanation, shown to the rater after a qualification round's question. */
export const goldQuestion = pgTable('gold_question', {
	studyQuestionId: integer()
		.primaryKey()
		.references(() => studyQuestion.id),
	explanation: text().notNull().default(''),
	createdBy: text()
		.notNull()
		.references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow()
});

/**
 * The gold answer of a gold question, as labels in the design's own key space
 * (`domain/quality/labels.ts`: e.g. `Model A/tag` → `good`, `preferred` → `Model B`).
 */
export const goldLabel = pgTable(
	'gold_label',
	{
		studyQuestionId: integer()
			.notNull()
			.references(() => studyQuestion.id),
		key: text().notNull(),
		label: text().notNull()
	},
	(t) => [primaryKey({ columns: [t.studyQuestionId, t.key] })]
);

/** One finished attempt at a qualification round: its gold accuracy and whether it passed. */
export const qualificationAttempt = pgTable(
	'qualification_attempt',
	{
		studyId: integer()
			.notNull()
			.references(() => study.id),
		raterId: text()
			.notNull()
			.references(() => user.id),
		attempt: integer().notNull(),
		/** Share of gold labels matched over the attempt's questions. */
		score: doublePrecision().notNull(),
		questions: integer().notNull(),
		passed: boolean().notNull(),
		finishedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [primaryKey({ columns: [t.studyId, t.raterId, t.attempt] })]
);

/**
 * An organiser's hold on a rater in a benchmark study: `pause` (no new work until an organiser
 * lifts it) or `retrain` (no new work until the rater has gone through the hidden gold checks they
 * missed, with the gold answers, and says so). A hold without a study is a reviewer's hold in the
 * QA review queue (`review_claim_next` refuses them). At most one hold stands per rater and study
 * (and per reviewer in the review queue); a lifted hold stays as a record. `study_claim` refuses a
 * rater with a standing hold.
 */
export const raterHold = pgTable(
	'rater_hold',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		/** The benchmark study, or null for the QA review queue. */
		studyId: integer().references(() => study.id),
		raterId: text()
			.notNull()
			.references(() => user.id),
		kind: raterHoldKind().notNull(),
		reason: text().notNull(),
		createdBy: text()
			.notNull()
			.references(() => user.id),
		createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
		liftedAt: timestamp({ withTimezone: true }),
		liftedBy: text().references(() => user.id),
		/** Why it was lifted: the organiser's words, or the rater's finished retraining. */
		liftNote: text()
	},
	(t) => [
		uniqueIndex('rater_hold_standing')
			.on(t.studyId, t.raterId)
			.where(sql`${t.liftedAt} is null`),
		uniqueIndex('rater_hold_standing_review')
			.on(t.raterId)
			.where(sql`${t.studyId} is null and ${t.liftedAt} is null`)
	]
);
export type RaterHold = typeof raterHold.$inferSelect;

/**
 * Attempts an organiser added to a qualification round for one rater (who failed the attempts the
 * round allows, say, and has been trained since): the rater's attempts are the round's
 * `max_attempts` plus the sum of their grants. `study_id` names a physicians' round; null, the
 * reviewers' round. Each new attempt draws questions of the round the rater has not had, so a
 * grant is refused when too few are left.
 */
export const qualificationGrant = pgTable(
	'qualification_grant',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		studyId: integer().references(() => study.id),
		raterId: text()
			.notNull()
			.references(() => user.id),
		attempts: integer().notNull(),
		reason: text().notNull(),
		grantedBy: text()
			.notNull()
			.references(() => user.id),
		grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		index('qualification_grant_rater').on(t.studyId, t.raterId),
		check('qualification_grant_attempts', sql`${t.attempts} between 1 and 10`)
	]
);
export type QualificationGrant = typeof qualificationGrant.$inferSelect;

/**
 * The reviewers' qualification round (one per portal: row 1). When `required`, the review queue
 * gives live QA pairs only to reviewers who passed an attempt (`review_claim_next`). A reviewer
 * works it in attempts of `questions_per_attempt` gold QA pairs, each shown once, and passes an
 * attempt whose labels (verdict and relevance) match the gold at `pass_mark` or better.
 */
export const reviewerRound = pgTable(
	'reviewer_round',
	{
		id: smallint().primaryKey().default(1),
		required: boolean().notNull().default(false),
		passMark: doublePrecision().notNull().default(0.8),
		questionsPerAttempt: integer().notNull().default(5),
		maxAttempts: integer().notNull().default(2),
		/**
		 * Hidden gold checks in the live review queue: one claim in every `check_every` of each
		 * reviewer's claims is a gold pair they have not had (null: none).
		 */
		checkEvery: integer(),
		updatedBy: text().references(() => user.id),
		updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		check('reviewer_round_single', sql`${t.id} = 1`),
		check('reviewer_round_pass_mark', sql`${t.passMark} > 0 and ${t.passMark} <= 1`),
		check('reviewer_round_per_attempt', sql`${t.questionsPerAttempt} between 1 and 100`),
		check('reviewer_round_attempts', sql`${t.maxAttempts} between 1 and 10`),
		check('reviewer_round_check_every', sql`${t.checkEvery} between 2 and 1000`)
	]
);
export type ReviewerRound = typeof reviewerRound.$inferSelect;

/**
 * A gold QA pair of the reviewers' round: the ClinIQLink record as imported, the fields the review
 * screen shows, its source passage when given, and the known verdict and GP relevance with the
 * explanation the reviewer reads after answering. Retired pairs are no longer asked; their answers
 * and the attempts they scored stay.
 */
export const reviewGold = pgTable('review_gold', {
	id: integer().primaryKey().generatedAlwaysAsIdentity(),
	record: jsonb().notNull(),
	/** The item's typed fields as the review screen shows them (QaItemView). */
	shown: jsonb().notNull(),
	passage: text(),
	verdict: verdict().notNull(),
	relevance: smallint().notNull(),
	explanation: text().notNull(),
	createdBy: text()
		.notNull()
		.references(() => user.id),
	createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
	retiredAt: timestamp({ withTimezone: true })
});
export type ReviewGold = typeof reviewGold.$inferSelect;

/** A reviewer's answer to a gold QA pair of the round, in the attempt it belongs to. */
export const reviewGoldAnswer = pgTable(
	'review_gold_answer',
	{
		goldId: integer()
			.notNull()
			.references(() => reviewGold.id),
		reviewerId: text()
			.notNull()
			.references(() => user.id),
		attempt: integer().notNull(),
		verdict: verdict().notNull(),
		relevance: smallint().notNull(),
		timeOnTaskMs: integer(),
		answeredAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [
		primaryKey({ columns: [t.goldId, t.reviewerId] }),
		index('review_gold_answer_reviewer').on(t.reviewerId, t.attempt)
	]
);

/** One finished attempt of a reviewer at the round: its score and whether it passed. */
export const reviewQualificationAttempt = pgTable(
	'review_qualification_attempt',
	{
		reviewerId: text()
			.notNull()
			.references(() => user.id),
		attempt: integer().notNull(),
		/** Labels matched (verdict and relevance of each pair) over labels asked. */
		score: doublePrecision().notNull(),
		questions: integer().notNull(),
		passed: boolean().notNull(),
		finishedAt: timestamp({ withTimezone: true }).notNull().defaultNow()
	},
	(t) => [primaryKey({ columns: [t.reviewerId, t.attempt] })]
);

/**
 * A hidden gold check of the live review queue: a gold pair of the reviewers' round served to one
 * reviewer in place of a live claim (`review_claim_next`), on the review screen as any item, under
 * the round and lease length of the live task it stood in for. Never a review: no item, outcome,
 * agreement or export reads it. `matched` counts the labels (verdict, relevance) that agree with
 * the gold once answered. `state`: leased, done, skipped or released.
 */
export const reviewCheck = pgTable(
	'review_check',
	{
		id: integer().primaryKey().generatedAlwaysAsIdentity(),
		publicId: text().notNull().unique(),
		reviewerId: text()
			.notNull()
			.references(() => user.id),
		goldId: integer()
			.notNull()
			.references(() => reviewGold.id),
		round: reviewRound().notNull(),
		state: text().notNull().default('leased'),
		leaseToken: text().notNull(),
		leaseMinutes: integer().notNull(),
		leasedAt: timestamp({ withTimezone: true }).notNull(),
		leaseExpiresAt: timestamp({ withTimezone: true }).notNull(),
		/** The reviewer's claim (0-based count of their claims) the check took the place of. */
		claimIndex: integer().notNull(),
		verdict: verdict(),
		relevance: smallint(),
		matched: smallint(),
		feedbackCategory: feedbackCategory(),
		feedback: text(),
		disputeCategory: disputeCategory(),
		disputeReason: text(),
		timeOnTaskMs: integer(),
		submittedAt: timestamp({ withTimezone: true }),
		/**
		 * Every revision, oldest first, once the reviewer has amended the check from their history
		 * (empty until then). `verdict`, `relevance` and `matched` hold the latest revision, which
		 * is the one scored; `submittedAt` stays the time of the first.
		 */
		revisions: jsonb().$type<CheckRevision[]>().notNull().default([])
	},
	(t) => [
		unique('review_check_once').on(t.reviewerId, t.goldId),
		index('review_check_reviewer').on(t.reviewerId, t.state),
		check('review_check_state', sql`${t.state} in ('leased', 'done', 'skipped', 'released')`)
	]
);
export type ReviewCheck = typeof reviewCheck.$inferSelect;

/** One revision of a check's judgement. */
export interface CheckRevision {
	revision: number;
	verdict: (typeof VERDICTS)[number];
	relevance: number;
	submittedAt: string;
	timeOnTaskMs: number | null;
	feedbackCategory: (typeof FEEDBACK_CATEGORIES)[number] | null;
	feedback: string | null;
	disputeCategory: (typeof DISPUTE_CATEGORIES)[number] | null;
	disputeReason: string | null;
	/** The idempotency key of the amendment form that made it (null for the queue's first). */
	key: string | null;
}

/**
 * How many fresh claims each reviewer has made (leases of live tasks and hidden checks): where the
 * next claim falls in its block of `check_every` (`review_claim_next`).
 */
export const reviewerClaims = pgTable('reviewer_claims', {
	userId: text()
		.primaryKey()
		.references(() => user.id),
	claims: integer().notNull().default(0)
});
