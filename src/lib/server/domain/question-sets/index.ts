// Question sets: their imports (questions, and models' responses to them) and their listing. The
// reader and record checks are shared with the documents import.
export { importQuestions, type QuestionImportOptions } from './question-import';
export { importSetResponses } from './response-import';
export { getQuestionSet, listQuestionSets, type QuestionSetSummary } from './sets';
export { RecordChecks } from './checks';
export { validate, type Check } from './fields';
export { readRecords, type RawRecord } from './records';
