import { pgEnum } from 'drizzle-orm/pg-core';

/** The seven ClinIQLink question types, spelled as in the ClinIQLink files. */
export const QA_TYPES = [
	'true_false',
	'multiple_choice',
	'list',
	'short_answer',
	'short_inverse',
	'multi_hop',
	'multi_hop_inverse'
] as const;
export type QaType = (typeof QA_TYPES)[number];
export const qaType = pgEnum('qa_type', QA_TYPES);

export const ROLES = ['organiser', 'reviewer', 'physician', 'adjudicator'] as const;
export type Role = (typeof ROLES)[number];
export const role = pgEnum('role', ROLES);

export const IMPORT_KINDS = ['qa', 'passages', 'responses'] as const;
export const importKind = pgEnum('import_kind', IMPORT_KINDS);

/** Where an item stands in verification. */
export const ITEM_STATUSES = [
	'unreviewed',
	'in_review',
	'awaiting_secondary',
	'disagreement',
	'verified',
	'withdrawn'
] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const itemStatus = pgEnum('item_status', ITEM_STATUSES);

export const PROVENANCES = ['single', 'agreed', 'adjudicated'] as const;
export const provenance = pgEnum('provenance', PROVENANCES);

export const REVIEW_ROUNDS = ['primary', 'secondary'] as const;
export type ReviewRound = (typeof REVIEW_ROUNDS)[number];
export const reviewRound = pgEnum('review_round', REVIEW_ROUNDS);

export const VERDICTS = ['correct', 'incorrect', 'cannot_tell'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const verdict = pgEnum('verdict', VERDICTS);

export const TASK_STATES = ['pending', 'leased', 'done', 'cancelled'] as const;
export const taskState = pgEnum('task_state', TASK_STATES);

export const FEEDBACK_CATEGORIES = [
	'wording',
	'ambiguous',
	'outdated',
	'answer_incomplete',
	'other'
] as const;
export const feedbackCategory = pgEnum('feedback_category', FEEDBACK_CATEGORIES);

export const DISPUTE_CATEGORIES = [
	'factually_wrong',
	'not_supported_by_source',
	'ambiguous',
	'outdated',
	'other'
] as const;
export const disputeCategory = pgEnum('dispute_category', DISPUTE_CATEGORIES);

export const DISPUTE_STATUSES = ['open', 'under_review', 'upheld', 'rejected'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const disputeStatus = pgEnum('dispute_status', DISPUTE_STATUSES);

export const STUDY_STATES = ['draft', 'open', 'paused', 'closed'] as const;
export type StudyState = (typeof STUDY_STATES)[number];
export const studyState = pgEnum('study_state', STUDY_STATES);

export const ASSIGNMENT_STATES = ['leased', 'submitted', 'expired', 'released'] as const;
export const assignmentState = pgEnum('assignment_state', ASSIGNMENT_STATES);

export const TAGS = ['good', 'okay', 'bad'] as const;
export type Tag = (typeof TAGS)[number];
export const tag = pgEnum('tag', TAGS);

export const SCORING_MODES = ['official', 'corrected'] as const;
export const scoringMode = pgEnum('scoring_mode', SCORING_MODES);

export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export const jobState = pgEnum('job_state', JOB_STATES);
