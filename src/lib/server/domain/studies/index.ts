// Physicians' ranking studies: what other features and the routes may use (see README.md).
export { studyAudit, type StudyBlindingAudit } from './blinding';
export { auditView } from './blinding-audit';
export { previewStudyAudit } from './blinding-preview';
export { exportBlindingAudit, exportRankings, rankingsCsv } from './export';
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
	createStudy,
	getStudy,
	listModelsWithCounts,
	listSnapshotsForStudies,
	listStudies,
	selectionSchema,
	type StudyInput
} from './studies';
export { DESIGNS } from './designs/registry';
export * from './designs/rubric';
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
