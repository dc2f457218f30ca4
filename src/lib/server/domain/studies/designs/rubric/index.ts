// The rubric design: rubric definitions, their templates and their immutable versions.
export {
	RATIONALE_RULES,
	rubricDefinitionSchema,
	subAspectsOf,
	type Aspect,
	type RationaleRule,
	type RubricDefinition,
	type RubricDefinitionInput,
	type SubAspect
} from './definition';
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
