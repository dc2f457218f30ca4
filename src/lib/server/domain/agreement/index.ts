// The agreement dashboard's reports: what the routes and the CLI may use (see README.md).
export {
	cachedEvidenceReport,
	cachedLeaderboards,
	cachedPairwiseReport,
	cachedRubricReport,
	cachedStudyAgreement,
	cachedVerificationAgreement
} from './cache';
export { dashboardReports, dashboardReportsOrProgress, readDashboardQuery } from './dashboard';
export {
	agreementBundle,
	agreementBundleFiles,
	comparedLeaderboardTables,
	evidenceTables,
	pairwiseTables,
	renderTable,
	rubricTables,
	studyTables,
	verificationTables
} from './export';
export {
	candidateScores,
	rankingJudgements,
	reviewJudgements,
	studyRuns,
	verificationOutcomes
} from './extract';
export { studyAgreement, type StudyAgreement } from './study';
export { verificationAgreement, type VerificationAgreement } from './verification';
export { isPending, reportWaitFromEnv, type Pending } from './background';
