// The rubric design: rubric definitions, their templates and immutable versions, the score sheet
// and its export. The studies entry (../../index.ts) re-exports what routes and the CLI use.
export {
	RATIONALE_RULES,
	rubricDefinitionSchema,
	subAspectsOf,
	type Aspect,
	type RationaleRule,
	type RubricDefinition,
	type RubricDefinitionInput,
	type SubAspect
} from '../../../../../schemas/rubric';
export { BLANK_RUBRIC, HDCEVAL_TEMPLATE } from './hdceval';
export {
	createRubric,
	getRubric,
	getRubricVersion,
	listRubrics,
	parseRubricDefinition,
	RUBRIC_TEMPLATES,
	saveRubricVersion,
	type NewRubricInput,
	type RubricDetail,
	type RubricSummary,
	type RubricTemplate
} from './rubrics';
export {
	LAYOUTS,
	MAX_RATIONALE,
	frozenRubric,
	scoreFormSchema,
	sheetProblems,
	submitScores,
	type FrozenRubric,
	type Layout,
	type ScoreSheet
} from './submit';
export { RUBRIC_EXPORT_COLUMNS, exportRubricScores, rubricScoresCsv } from './export';
export {
	REPORT_BOOTSTRAP,
	rubricReport,
	rubricScoreRows,
	rubricShape,
	scoringRunJudges,
	studyJudgeInput,
	type JudgeInput,
	type RubricReport
} from './statistics';
export { studyRubric } from './design';
