// The one definition of the product's enumerations and their labels: QA types, roles, item and
// task states, verdicts, dispute and feedback categories, ranking tags and study states. The
// database enums (db/schema/enums.ts), the zod schemas, the ranking rules and the pages all import
// them from here. No server imports: the browser uses this file too.

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

export const ROLES = [
	'organiser',
	'reviewer',
	'physician',
	'adjudicator',
	'institution_lead'
] as const;
export type Role = (typeof ROLES)[number];

export const IMPORT_KINDS = [
	'qa',
	'passages',
	'responses',
	'questions',
	'set_responses',
	'judge',
	'documents',
	'runs'
] as const;

/** Why an import is rejected (an error without a kind is a bad value, or the file itself). */
export const IMPORT_PROBLEM_KINDS = [
	'file',
	'invalid',
	'duplicate_key',
	'conflicting_duplicate',
	'unmatched',
	'ambiguous'
] as const;
export type ImportProblemKind = (typeof IMPORT_PROBLEM_KINDS)[number];

/** What an accepted import warns about. */
export const IMPORT_WARNING_KINDS = [
	'duplicate_record',
	'missing_passage',
	'unmatched_response',
	'unknown_key',
	'missing_document',
	'uncited_reference'
] as const;
export type ImportWarningKind = (typeof IMPORT_WARNING_KINDS)[number];

/**
 * An item's workflow state: which step of verification it waits for. It says nothing about the
 * verdict: a `done` item may be correct, incorrect or undecidable (see `itemOutcome`).
 * `withdrawn` items left verification for good.
 */
export const ITEM_STATUSES = [
	'awaiting_primary',
	'awaiting_secondary',
	'awaiting_adjudication',
	'done',
	'withdrawn'
] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const PROVENANCES = ['single', 'agreed', 'adjudicated'] as const;
export type Provenance = (typeof PROVENANCES)[number];

export const REVIEW_ROUNDS = ['primary', 'secondary'] as const;
export type ReviewRound = (typeof REVIEW_ROUNDS)[number];

export const VERDICTS = ['correct', 'incorrect', 'cannot_tell'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const TASK_STATES = ['pending', 'leased', 'done', 'cancelled'] as const;

export const FEEDBACK_CATEGORIES = [
	'wording',
	'ambiguous',
	'outdated',
	'answer_incomplete',
	'other'
] as const;

export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

export const DISPUTE_CATEGORIES = [
	'factually_wrong',
	'not_supported_by_source',
	'ambiguous',
	'outdated',
	'other'
] as const;

export type DisputeCategory = (typeof DISPUTE_CATEGORIES)[number];

export const DISPUTE_STATUSES = ['open', 'under_review', 'upheld', 'rejected'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const STUDY_STATES = ['draft', 'open', 'paused', 'closed'] as const;

/**
 * The type of a study question: one of the QA bank's seven, or `free_text` for a question of an
 * imported question set. The blinding audit and the presentation work per type.
 */
export type QuestionType = QaType | 'free_text';
export const QUESTION_TYPES = [...QA_TYPES, 'free_text'] as const;

/** What raters do in a study: each design is one folder under domain/studies/designs/. */
export const STUDY_DESIGNS = ['ranking', 'rubric', 'pairwise', 'evidence'] as const;
export type StudyDesign = (typeof STUDY_DESIGNS)[number];
export const STUDY_DESIGN_LABELS: Record<StudyDesign, string> = {
	ranking: 'Ranking (order every answer, tag each good / okay / bad)',
	rubric: 'Rubric (score each answer on sub-aspects)',
	pairwise: 'Pairwise (prefer one of two answers, or a tie)',
	evidence: 'Evidence (judge each sentence against the documents it cites)'
};

/**
 * How an evidence study asks for relations and relevance: per assertion the assessor marks in a
 * sentence (as the TREC BioGen guidelines describe), or per sentence (as the 2024 assessment file
 * records them).
 */
export const EVIDENCE_MODES = ['assertion', 'sentence'] as const;
export type EvidenceMode = (typeof EVIDENCE_MODES)[number];
export const EVIDENCE_MODE_LABELS: Record<EvidenceMode, string> = {
	assertion: 'Per assertion: mark each assertion of a sentence, then judge it',
	sentence: 'Per sentence: judge each sentence as a whole'
};
/** What a cited document says of an assertion. */
export const EVIDENCE_RELATIONS = [
	'supports',
	'partially_supports',
	'contradicts',
	'neutral',
	'not_relevant'
] as const;
export type EvidenceRelation = (typeof EVIDENCE_RELATIONS)[number];
export const EVIDENCE_RELATION_LABELS: Record<EvidenceRelation, string> = {
	supports: 'Supports',
	partially_supports: 'Partially supports',
	contradicts: 'Contradicts',
	neutral: 'Neutral',
	not_relevant: 'Not relevant'
};
/** Whether an assertion belongs in the answer. */
export const EVIDENCE_RELEVANCES = [
	'required',
	'unnecessary',
	'borderline',
	'inappropriate'
] as const;
export type EvidenceRelevance = (typeof EVIDENCE_RELEVANCES)[number];
export const EVIDENCE_RELEVANCE_LABELS: Record<EvidenceRelevance, string> = {
	required: 'Required',
	unnecessary: 'Unnecessary',
	borderline: 'Borderline',
	inappropriate: 'Inappropriate (may harm)'
};

/** A pairwise judgement, as shown: the left answer better, the right one, or a tie of either kind. */
export const PREFERENCE_OUTCOMES = ['left', 'right', 'tie_good', 'tie_bad'] as const;
export type PreferenceOutcome = (typeof PREFERENCE_OUTCOMES)[number];
export const PREFERENCE_OUTCOME_LABELS: Record<PreferenceOutcome, string> = {
	left: 'A (left) is better',
	right: 'B (right) is better',
	tie_good: 'Tie: both good',
	tie_bad: 'Tie: both bad'
};
/** How much better the preferred answer is (optional). */
export const PREFERENCE_STRENGTHS = ['slightly', 'clearly'] as const;
export type PreferenceStrength = (typeof PREFERENCE_STRENGTHS)[number];
/** Which pairs of answers a pairwise study shows: every pair per question, or a balanced sample. */
export const PAIRINGS = ['all', 'balanced'] as const;
export type Pairing = (typeof PAIRINGS)[number];
export type StudyState = (typeof STUDY_STATES)[number];

export const ASSIGNMENT_STATES = ['leased', 'submitted', 'expired', 'released'] as const;

export const TAGS = ['good', 'okay', 'bad'] as const;
export type Tag = (typeof TAGS)[number];

/**
 * What is wrong with a ranked answer tagged okay or bad (optional, several allowed): the error
 * classes of ClinIQLink's analysis of model answers.
 */
export const ERROR_TYPES = [
	'intrinsic_hallucination',
	'extrinsic_hallucination',
	'omission',
	'other'
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** Tags an error type may accompany (a good answer has none). */
export const TAGS_WITH_ERRORS: readonly Tag[] = ['okay', 'bad'];

export const SCORING_MODES = ['official', 'corrected'] as const;

/**
 * What a scoring run scores against (its IDF corpus, baseline and gold): a frozen benchmark
 * snapshot, or the items' current versions, recorded as explicit item versions when the run starts.
 */
export const SCORING_CORPUS_KINDS = ['snapshot', 'items'] as const;
export type ScoringCorpusKind = (typeof SCORING_CORPUS_KINDS)[number];
/** Said of a scoring run created before runs recorded their corpus. */
export const UNRECORDED_CORPUS =
	'not recorded (the run predates recorded corpora; it used the items current when it ran)';

export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;

/** The order reviewers get a dataset's items in: seeded random (the default) or as imported. */
export const QUEUE_ORDERS = ['seeded', 'import'] as const;
export type QueueOrder = (typeof QUEUE_ORDERS)[number];
export const QUEUE_ORDER_LABELS: Record<QueueOrder, string> = {
	seeded: 'Seeded random order',
	import: 'Import order'
};

/** What happens to items whose source passage has not been imported (a dataset setting). */
export const PASSAGE_POLICIES = ['wait', 'review'] as const;
export type PassagePolicy = (typeof PASSAGE_POLICIES)[number];
export const PASSAGE_POLICY_LABELS: Record<PassagePolicy, string> = {
	wait: 'Wait until the passage is imported',
	review: 'Review without the passage (recorded as reviewed without passage)'
};

export const QA_TYPE_LABELS: Record<QaType, string> = {
	true_false: 'True / false',
	multiple_choice: 'Multiple choice',
	list: 'List',
	short_answer: 'Short answer',
	short_inverse: 'Short inverse',
	multi_hop: 'Multi-hop',
	multi_hop_inverse: 'Multi-hop inverse'
};
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
	...QA_TYPE_LABELS,
	free_text: 'Free-text question'
};

/**
 * What a ranking study shows of each candidate, per question type: the final answer only, or the
 * answer with each candidate's own reasoning or explanation (none shown where it gave none).
 */
export const DETAIL_CHOICES = ['answer_only', 'with_detail'] as const;
export type DetailChoice = (typeof DETAIL_CHOICES)[number];
export const DETAIL_CHOICE_LABELS: Record<DetailChoice, string> = {
	answer_only: 'Final answer only',
	with_detail: 'Answer with each candidate’s reasoning or explanation'
};

/** How an item's workflow state reads on a page. */
export const ITEM_STATUS_LABELS: Record<ItemStatus, string> = {
	awaiting_primary: 'awaiting primary',
	awaiting_secondary: 'awaiting secondary',
	awaiting_adjudication: 'awaiting adjudication',
	done: 'done',
	withdrawn: 'withdrawn'
};

/**
 * What is true about an item, in one word: `held` (an open or under-review dispute or an
 * unresolved feedback note, whatever its verdict), else its final verdict once verification is
 * done (`verified` means final verdict correct), `pending` before that, `withdrawn` for good.
 */
export const ITEM_OUTCOMES = [
	'verified',
	'incorrect',
	'cannot_tell',
	'held',
	'pending',
	'withdrawn'
] as const;
export type ItemOutcome = (typeof ITEM_OUTCOMES)[number];

export const ITEM_OUTCOME_LABELS: Record<ItemOutcome, string> = {
	verified: 'verified correct',
	incorrect: 'incorrect',
	cannot_tell: 'cannot tell',
	held: 'held',
	pending: 'no verdict yet',
	withdrawn: 'withdrawn'
};

/** The one rule of what an item's state and final verdict mean together (see ITEM_OUTCOMES). */
export function itemOutcome(item: {
	status: ItemStatus;
	finalVerdict: Verdict | null;
	held: boolean;
}): ItemOutcome {
	if (item.status === 'withdrawn') return 'withdrawn';
	if (item.held) return 'held';
	if (item.status !== 'done' || !item.finalVerdict) return 'pending';
	return item.finalVerdict === 'correct' ? 'verified' : item.finalVerdict;
}

/** How an item's provenance reads on a page. */
export const PROVENANCE_LABELS: Record<Provenance, string> = {
	single: 'single review',
	agreed: 'two agreeing reviews',
	adjudicated: 'adjudicated'
};

export const TAG_LABELS: Record<Tag, string> = { good: 'Good', okay: 'Okay', bad: 'Bad' };

export const ERROR_TYPE_LABELS: Record<ErrorType, string> = {
	intrinsic_hallucination: 'Intrinsic hallucination',
	extrinsic_hallucination: 'Extrinsic hallucination',
	omission: 'Omission',
	other: 'Other error'
};

/** One line on what each error type means, shown beside its checkbox. */
export const ERROR_TYPE_HINTS: Record<ErrorType, string> = {
	// Worded without "reference": physicians must not learn that a gold answer is among those shown.
	intrinsic_hallucination: 'contradicts the source or established medical knowledge',
	extrinsic_hallucination: 'adds a claim nothing supports',
	omission: 'leaves out something essential',
	other: 'another kind of error'
};

export const STUDY_STATE_LABELS: Record<StudyState, string> = {
	draft: 'Draft',
	open: 'Open',
	paused: 'Paused',
	closed: 'Closed'
};

export const VERDICT_OPTIONS = [
	{ value: 'correct', label: 'Correct', key: 'c', hint: 'the pair is correct' },
	{ value: 'incorrect', label: 'Incorrect', key: 'i', hint: 'the pair is wrong' },
	{ value: 'cannot_tell', label: 'Cannot tell', key: 't', hint: 'not decidable from the source' }
] as const;

export const VERDICT_LABELS = Object.fromEntries(VERDICT_OPTIONS.map((v) => [v.value, v.label]));

/** One-line anchors of the GP relevance scale. */
export const RELEVANCE_ANCHORS = [
	{ value: 1, label: 'Not relevant: specialist or niche knowledge a GP never needs' },
	{ value: 2, label: 'Rarely relevant: a GP meets this a few times in a career' },
	{ value: 3, label: 'Sometimes relevant: useful background for a GP' },
	{ value: 4, label: 'Often relevant: a GP needs this regularly' },
	{ value: 5, label: 'Essential: core knowledge every GP must have' }
] as const;

export const FEEDBACK_CATEGORY_LABELS: Record<FeedbackCategory, string> = {
	wording: 'Wording',
	ambiguous: 'Ambiguous',
	outdated: 'Outdated',
	answer_incomplete: 'Answer incomplete',
	other: 'Other'
};

export const DISPUTE_CATEGORY_LABELS: Record<DisputeCategory, string> = {
	factually_wrong: 'Factually wrong',
	not_supported_by_source: 'Not supported by the source',
	ambiguous: 'Ambiguous',
	outdated: 'Outdated',
	other: 'Other'
};

export const DISPUTE_STATUS_LABELS: Record<DisputeStatus, string> = {
	open: 'Open',
	under_review: 'Under review',
	upheld: 'Upheld',
	rejected: 'Rejected'
};

export const IMPORT_PROBLEM_LABELS: Record<ImportProblemKind, string> = {
	file: 'The file',
	invalid: 'Missing or invalid values',
	duplicate_key: 'A key written twice in one JSON object',
	conflicting_duplicate: 'The same record twice with different content',
	unmatched: 'Outputs that match no QA item',
	ambiguous: 'Outputs whose identifier fits several QA items'
};

export const IMPORT_WARNING_LABELS: Record<ImportWarningKind, string> = {
	duplicate_record: 'The same record twice (imported once)',
	missing_passage: 'QA pairs whose source passage is not imported',
	unmatched_response: 'Outputs that matched no QA item (not imported)',
	unknown_key: 'Keys the import does not read (kept with the record)',
	missing_document: 'Cited PMIDs without an imported abstract ("document not available")',
	uncited_reference: 'References not cited in the answer (left out)'
};

/**
 * The review screen counts the items left for a reviewer up to this many, then says "more than":
 * an exact count would walk every waiting task on each page load (over a second at 50,000 items
 * and 50 reviewers), and no one plans their day by the thousand-and-first item.
 */
export const REVIEW_LEFT_CAP = 1000;

/** What kind of body an institution is. */
export const INSTITUTION_KINDS = ['medical_school', 'hospital', 'other'] as const;
export type InstitutionKind = (typeof INSTITUTION_KINDS)[number];
export const INSTITUTION_KIND_LABELS: Record<InstitutionKind, string> = {
	medical_school: 'Medical school',
	hospital: 'Hospital',
	other: 'Other'
};

/** The roles a person may apply for (organisers and leads are invited, never applied for). */
export const APPLICABLE_ROLES = ['reviewer', 'physician'] as const;
export type ApplicableRole = (typeof APPLICABLE_ROLES)[number];

export const APPLICATION_STATUSES = ['pending', 'approved', 'declined'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** What happens to a rater's judgements when they withdraw from a study (chosen in the consent text). */
export const WITHDRAWAL_POLICIES = ['keep', 'exclude'] as const;
export type WithdrawalPolicy = (typeof WITHDRAWAL_POLICIES)[number];

/** A benchmark study gives the published figures; a qualification round admits raters to them. */
export const STUDY_PURPOSES = ['benchmark', 'qualification'] as const;
export type StudyPurpose = (typeof STUDY_PURPOSES)[number];

/** Who removed judgements from the figures: an organiser, or the rater's own withdrawal. */
export const EXCLUSION_SOURCES = ['organiser', 'withdrawal'] as const;
export type ExclusionSource = (typeof EXCLUSION_SOURCES)[number];

/**
 * What an organiser can do to a rater whose quality falls short in a study, short of excluding
 * their judgements: pause them (no new work until lifted), or send them back to training (no new
 * work until they have gone through the hidden gold checks they missed, with the gold answers).
 */
export const RATER_HOLD_KINDS = ['pause', 'retrain'] as const;
export type RaterHoldKind = (typeof RATER_HOLD_KINDS)[number];
