// Background scoring runs: what the routes, the jobs and the CLI may use (see README.md).
export { enqueueRun, scoringSettingsFromEnv, startScoringWorker } from './jobs';
export { runScores, scoreDistributions, scoresCsv } from './results';
export {
	UNRECORDED_CORPUS,
	createRun,
	executeRun,
	getRun,
	listCorpusSnapshots,
	listModelsForScoring,
	listRuns,
	newRunSchema,
	rerunRun
} from './runs';
