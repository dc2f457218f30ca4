// Physicians' ranking studies: what other features and the routes may use (see README.md).
export { studyAudit, type StudyBlindingAudit } from './blinding';
export { auditView } from './blinding-audit';
export { previewStudyAudit } from './blinding-preview';
export { exportBlindingAudit, exportRankings, rankingsCsv, studyConfiguration } from './export';
export { DEFAULT_PRESENTATION, TYPES_WITH_DETAIL } from './presentation';
export { studyProgress, type ModelJudgements } from './progress';
export {
	claimNext,
	getAssignmentView,
	listOpenStudiesFor,
	releasePhysicianLeases,
	type ClaimResult
} from './queue';
export { rankingFormSchema, submitRanking, submitRankingAndNext } from './designs/ranking/rankings';
export {
	changeStudyState,
	checkEligibility,
	checkSetEligibility,
	createStudy,
	getStudy,
	listModelsWithCounts,
	listSnapshotsForStudies,
	listStudies,
	selectionSchema,
	type StudyInput
} from './studies';
export { DESIGNS } from './designs/registry';
export {
	BLANK_RUBRIC,
	createRubric,
	exportRubricScores,
	frozenRubric,
	getRubric,
	getRubricVersion,
	HDCEVAL_TEMPLATE,
	LAYOUTS,
	listRubrics,
	MAX_RATIONALE,
	parseRubricDefinition,
	RATIONALE_RULES,
	REPORT_BOOTSTRAP,
	RUBRIC_EXPORT_COLUMNS,
	RUBRIC_TEMPLATES,
	rubricDefinitionSchema,
	rubricReport,
	rubricScoreRows,
	rubricScoresCsv,
	studyJudgeInput,
	studyRubric,
	type RubricReport,
	saveRubricVersion,
	scoreFormSchema,
	sheetProblems,
	submitScores,
	subAspectsOf,
	type FrozenRubric,
	type Layout,
	type NewRubricInput,
	type RubricDefinition,
	type RubricDefinitionInput,
	type RubricDetail,
	type RubricSummary,
	type RubricTemplate,
	type ScoreSheet
} from './designs/rubric';
export {
	importJudgeFile,
	judgeRows,
	listJudges,
	OVERALL,
	type ImportedJudge,
	type JudgeImportResult,
	type JudgeRows,
	type JudgeSummary
} from './judges';
export {
	ASPECT_OUTCOMES,
	MAX_REASON,
	pairwiseForm,
	preferenceFormSchema,
	preferenceProblems,
	studyPairing,
	submitPreference,
	type AspectOutcome,
	type PairwiseForm,
	type Preference,
	type PreferenceStored,
	PAIRWISE_BOOTSTRAP,
	pairwiseReport,
	STYLE_RESAMPLES,
	preferenceRows,
	type PairwiseReport,
	BATTLE_COLUMNS,
	PAIRWISE_EXPORT_COLUMNS,
	battlesCsv,
	exportPairwiseJudgements,
	pairCount,
	pairedQuestionCount,
	pairwiseJudgementsCsv,
	type PairwiseExportRow
} from './designs/pairwise';
export { compareLeaderboards, type ComparedLeaderboard } from './battles';
export {
	MAX_ASSERTIONS,
	MAX_EVIDENCE,
	SPLIT_PAGE,
	evidenceModeOf,
	evidenceScreen,
	evidenceScreenOf,
	evidenceStepSchema,
	missingMessage,
	saveEvidenceStep,
	sentenceWords,
	spanText,
	studyAnswerSplits,
	submitEvidence,
	type AssertionState,
	type EvidenceScreen,
	type EvidenceStep,
	type EvidenceSubmitted,
	type Missing,
	type RelationState,
	type SentenceState,
	type SplitAnswer,
	type SplitQuestion,
	type SplitSentence,
	type StepSaved
} from './designs/evidence';
