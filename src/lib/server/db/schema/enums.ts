// Postgres enums of the values defined once in src/lib/constants.ts (a relative import: drizzle-kit
// reads this file without the $lib alias).
import { pgEnum } from 'drizzle-orm/pg-core';
import {
	PAIRINGS,
	PREFERENCE_OUTCOMES,
	PREFERENCE_STRENGTHS,
	QA_TYPES,
	ROLES,
	IMPORT_KINDS,
	ITEM_STATUSES,
	PROVENANCES,
	REVIEW_ROUNDS,
	VERDICTS,
	TASK_STATES,
	FEEDBACK_CATEGORIES,
	DISPUTE_CATEGORIES,
	DISPUTE_STATUSES,
	STUDY_STATES,
	STUDY_DESIGNS,
	ASSIGNMENT_STATES,
	TAGS,
	ERROR_TYPES,
	SCORING_MODES,
	SCORING_CORPUS_KINDS,
	JOB_STATES,
	QUEUE_ORDERS,
	EVIDENCE_MODES,
	EVIDENCE_RELATIONS,
	EVIDENCE_RELEVANCES,
	INSTITUTION_KINDS,
	APPLICATION_STATUSES,
	WITHDRAWAL_POLICIES,
	STUDY_PURPOSES,
	EXCLUSION_SOURCES,
	RATER_HOLD_KINDS
} from '../../../constants';

export const qaType = pgEnum('qa_type', QA_TYPES);
export const role = pgEnum('role', ROLES);
export const importKind = pgEnum('import_kind', IMPORT_KINDS);
export const itemStatus = pgEnum('item_status', ITEM_STATUSES);
export const provenance = pgEnum('provenance', PROVENANCES);
export const reviewRound = pgEnum('review_round', REVIEW_ROUNDS);
export const verdict = pgEnum('verdict', VERDICTS);
export const taskState = pgEnum('task_state', TASK_STATES);
export const feedbackCategory = pgEnum('feedback_category', FEEDBACK_CATEGORIES);
export const disputeCategory = pgEnum('dispute_category', DISPUTE_CATEGORIES);
export const disputeStatus = pgEnum('dispute_status', DISPUTE_STATUSES);
export const studyState = pgEnum('study_state', STUDY_STATES);
export const studyDesign = pgEnum('study_design', STUDY_DESIGNS);
export const pairing = pgEnum('pairing', PAIRINGS);
export const preferenceOutcome = pgEnum('preference_outcome', PREFERENCE_OUTCOMES);
export const preferenceStrength = pgEnum('preference_strength', PREFERENCE_STRENGTHS);
export const assignmentState = pgEnum('assignment_state', ASSIGNMENT_STATES);
export const tag = pgEnum('tag', TAGS);
export const errorType = pgEnum('error_type', ERROR_TYPES);
export const scoringMode = pgEnum('scoring_mode', SCORING_MODES);
export const scoringCorpusKind = pgEnum('scoring_corpus_kind', SCORING_CORPUS_KINDS);
export const jobState = pgEnum('job_state', JOB_STATES);
export const queueOrder = pgEnum('queue_order', QUEUE_ORDERS);
export const evidenceMode = pgEnum('evidence_mode', EVIDENCE_MODES);
export const evidenceRelation = pgEnum('document_relation', EVIDENCE_RELATIONS);
export const evidenceRelevance = pgEnum('evidence_relevance', EVIDENCE_RELEVANCES);
export const institutionKind = pgEnum('institution_kind', INSTITUTION_KINDS);
export const applicationStatus = pgEnum('application_status', APPLICATION_STATUSES);
export const withdrawalPolicy = pgEnum('withdrawal_policy', WITHDRAWAL_POLICIES);
export const studyPurpose = pgEnum('study_purpose', STUDY_PURPOSES);
export const exclusionSource = pgEnum('exclusion_source', EXCLUSION_SOURCES);
export const raterHoldKind = pgEnum('rater_hold_kind', RATER_HOLD_KINDS);
