// Secondary sample, adjudication, disputes, feedback and snapshots: what other features and the
// routes may use (see README.md).
export {
	adjudicate,
	adjudicationCase,
	adjudicationQueue,
	adjudicationSchema
} from './adjudication';
export {
	commentOnDispute,
	commentSchema,
	getDispute,
	listDisputes,
	transitionDispute,
	transitionSchema
} from './disputes';
export { listFeedback, resolveFeedback, resolveFeedbackSchema } from './feedback';
export { verificationProgress } from './progress';
export { sampleImportedItems, sampleSummaries } from './sampling';
export { datasetSettingsSchema, setSecondaryShare, updateDatasetSettings } from './settings';
export {
	freezeSchema,
	freezeSnapshot,
	listSnapshots,
	previewSnapshot,
	relevanceThreshold,
	snapshotExport
} from './snapshots';
