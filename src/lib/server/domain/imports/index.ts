// QA, passage and model-output imports: what the routes and the CLI may use (see README.md).
export type { ImportCounts, ImportWarning, RecordError } from './import-errors';
export { duplicateKeyErrors, duplicateRecordWarning, importRejected } from './import-errors';
export { importPassages } from './passage-import';
export {
	importQaFiles,
	recordsOfFile,
	type ImportActor,
	type QaImportFile,
	type StreamedFile
} from './qa-import';
export { MATCH_BY, MATCH_BY_LABELS, importResponses, type MatchBy } from './response-import';
