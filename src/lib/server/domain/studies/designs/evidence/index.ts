// The evidence design: answers judged sentence by sentence against the documents they cite (TREC
// BioGen style) — the screen's data and its step-by-step saving, the statistics and the export.
// The studies entry (../../index.ts) re-exports what routes and the CLI use.
export { evidenceModeOf, evidenceSummary, type EvidenceSummary } from './design';
export {
	MAX_ASSERTIONS,
	MAX_EVIDENCE,
	evidenceScreen,
	evidenceScreenOf,
	evidenceStepSchema,
	missingMessage,
	saveEvidenceStep,
	submitEvidence,
	type AssertionState,
	type EvidenceScreen,
	type EvidenceStep,
	type EvidenceSubmitted,
	type Missing,
	type RelationState,
	type SentenceState,
	type StepSaved
} from './assessment';
export { sentenceWords, spanText } from './words';
export {
	SPLIT_PAGE,
	studyAnswerSplits,
	type SplitAnswer,
	type SplitQuestion,
	type SplitSentence
} from './splits';
export {
	RELEVANCE_SEVERITY,
	officialRelation,
	rollUpAnswer,
	rollUpSentence,
	sentenceRelevance,
	type OfficialAnswer,
	type OfficialCitation,
	type OfficialSentence
} from './rollup';
export {
	EVIDENCE_EXPORT_COLUMNS,
	evidenceLongCsv,
	exportEvidenceLong,
	exportEvidenceOfficial,
	finishedAssessments,
	officialAssessments,
	type EvidenceExportRow,
	type FinishedAssessment,
	type OfficialQuestion
} from './export';
export {
	EVIDENCE_RESAMPLES,
	evidenceAgreement,
	evidenceReport,
	type EvidenceAgreement,
	type EvidenceReport,
	type UnitStat
} from './statistics';
