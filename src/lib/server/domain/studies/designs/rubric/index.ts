// The rubric design: what the studies entry re-exports from it (see ../../README.md).
export { RATIONALE_RULES, rubricDefinitionSchema, subAspectsOf } from './definition';
export type { Aspect, RationaleRule, RubricDefinition, SubAspect } from './definition';
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
