// Question sets: their imports (questions, and models' responses to them) and their listing.
export { importQuestions, type QuestionImportOptions } from './question-import';
export { importSetResponses } from './response-import';
export { getQuestionSet, listQuestionSets, type QuestionSetSummary } from './sets';
