// The pairwise design: pairing a study's answers, the preference form and its storage, the
// statistics and the export. The studies entry (../../index.ts) re-exports what routes and the
// CLI use.
export { planPairs, sourceOrder, type PlannedPair, type PlanQuestion } from './pairs';
export {
	ASPECT_OUTCOMES,
	MAX_REASON,
	pairwiseForm,
	preferenceFormSchema,
	preferenceProblems,
	submitPreference,
	type AspectOutcome,
	type PairwiseForm,
	type Preference,
	type PreferenceStored
} from './submit';
export { pairCount, pairedQuestionCount, studyPairing } from './design';
export {
	BATTLE_COLUMNS,
	PAIRWISE_EXPORT_COLUMNS,
	battlesCsv,
	exportPairwiseJudgements,
	pairwiseJudgementsCsv,
	type PairwiseExportRow
} from './export';
export {
	PAIRWISE_BOOTSTRAP,
	STYLE_RESAMPLES,
	judgesVersusPhysicians,
	pairwiseReport,
	preferenceRows,
	type JudgeVersusPhysicians,
	type PairwiseReport,
	type StoredPreference
} from './statistics';
