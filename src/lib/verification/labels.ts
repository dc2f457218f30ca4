// Labels of verification values, shared by server and browser code (no server imports here).

export const VERDICT_OPTIONS = [
	{ value: 'correct', label: 'Correct', key: 'c', hint: 'the pair is correct' },
	{ value: 'incorrect', label: 'Incorrect', key: 'i', hint: 'the pair is wrong' },
	{ value: 'cannot_tell', label: 'Cannot tell', key: 't', hint: 'not decidable from the source' }
] as const;

export const VERDICT_LABELS: Record<string, string> = Object.fromEntries(
	VERDICT_OPTIONS.map((v) => [v.value, v.label])
);

/** One-line anchors of the GP relevance scale. */
export const RELEVANCE_ANCHORS = [
	{ value: 1, label: 'Not relevant: specialist or niche knowledge a GP never needs' },
	{ value: 2, label: 'Rarely relevant: a GP meets this a few times in a career' },
	{ value: 3, label: 'Sometimes relevant: useful background for a GP' },
	{ value: 4, label: 'Often relevant: a GP needs this regularly' },
	{ value: 5, label: 'Essential: core knowledge every GP must have' }
] as const;

export const FEEDBACK_CATEGORY_LABELS: Record<string, string> = {
	wording: 'Wording',
	ambiguous: 'Ambiguous',
	outdated: 'Outdated',
	answer_incomplete: 'Answer incomplete',
	other: 'Other'
};

export const DISPUTE_CATEGORY_LABELS: Record<string, string> = {
	factually_wrong: 'Factually wrong',
	not_supported_by_source: 'Not supported by the source',
	ambiguous: 'Ambiguous',
	outdated: 'Outdated',
	other: 'Other'
};

export const DISPUTE_STATUS_LABELS: Record<string, string> = {
	open: 'Open',
	under_review: 'Under review',
	upheld: 'Upheld',
	rejected: 'Rejected'
};

export const PROVENANCE_LABELS: Record<string, string> = {
	single: 'Single review',
	agreed: 'Agreed (two reviews)',
	adjudicated: 'Adjudicated'
};
