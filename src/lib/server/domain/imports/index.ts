// QA, passage and model-output imports: what the routes, the CLI, the question sets and the
// studies' judge import may use (see README.md).
export {
	duplicateKeyErrors,
	duplicateRecordWarning,
	importRejected,
	importWarning,
	parseJsonFile,
	readWholeFile,
	warningCount,
	type ImportCounts,
	type ImportWarning,
	type ReadableFile,
	type RecordError
} from './import-errors';
export {
	JsonFormError,
	MAX_RECORD_CHARS,
	parseJsonText,
	piecesOf,
	recordTexts
} from './json-records';
export { importPassages } from './passage-import';
export {
	importQaFiles,
	recordsOfFile,
	type ImportActor,
	type QaImportFile,
	type StreamedFile
} from './qa-import';
export { MATCH_BY, MATCH_BY_LABELS, importResponses, type MatchBy } from './response-import';
