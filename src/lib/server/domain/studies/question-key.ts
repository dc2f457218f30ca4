// A study question's key across studies: the QA item (`item:<id>`, whatever its version) or the
// set question (`set:<id>`) it comes from, so judgements of different studies (and designs) on the
// same question can be compared.
import { sql, type SQL } from 'drizzle-orm';
import { studyQuestion } from '../../db/schema';

/** `questionKey` of a `study_question` row, in SQL. */
export const questionKeySql = (): SQL<string> =>
	sql<string>`case when ${studyQuestion.itemId} is not null then 'item:' || ${studyQuestion.itemId} else 'set:' || ${studyQuestion.setQuestionId} end`;
