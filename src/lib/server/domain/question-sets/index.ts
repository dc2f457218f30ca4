// Question sets: their imports (questions or BioGen topics, models' responses, runs with cited
// sentences), the editing of a run's sentences, and their listing. The reader and record checks
// are shared with the documents import.
export { importQuestions, type QuestionImportOptions } from './question-import';
export { importSetResponses } from './response-import';
export {
	importRuns,
	RUN_FORMAT_LABELS,
	type RunFormat,
	type RunImportOptions,
	type RunImportResult
} from './run-import';
export {
	answerSplit,
	mergeSentences,
	splitSentence,
	type AnswerSentenceRow
} from './answer-sentences';
export { getQuestionSet, listQuestionSets, type QuestionSetSummary } from './sets';
export { RecordChecks } from './checks';
export { validate, type Check } from './fields';
export { readRecords, type RawRecord } from './records';
