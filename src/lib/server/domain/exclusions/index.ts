// Exclusions of raters' judgements: what other features and the routes may use (see README.md).
export {
	excludeJudgements,
	excludedCounts,
	excludedReviewCounts,
	excludedSentence,
	exclusionInputSchema,
	listExclusions,
	revokeExclusion,
	type ExcludedCounts,
	type ExclusionInput,
	type ExclusionRow
} from './exclusions';
export { countsInFigures, exclusionsFingerprintSql, reviewCounts } from './filter';
export { dayRange, raterOf, raterStudies } from './rater';
