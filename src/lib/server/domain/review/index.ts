// Reviewers' queue and reviews: what other features and the routes may use (see README.md).
export { applyPassageSetting, releasePassageTasks, tasksAwaitingPassage } from './passage';
export {
	checkDisplay,
	itemDisplay,
	leasedWork,
	renewWork,
	returnWork,
	startWork,
	submitWork,
	workFromItem,
	type ShownVersion,
	type ShownWork
} from './checks';
export {
	claimNext,
	claimWork,
	currentWork,
	mustQualify,
	createPrimaryTasks,
	currentLease,
	leasedItem,
	refreshSortKeys,
	returnLeasedTasks,
	returnTask
} from './queue';
export {
	amendReview,
	judgementSchema,
	newFormKey,
	reviewInputSchema,
	reviewWithRevisions,
	submitAndNext,
	submitReview,
	type JudgementInput
} from './reviews';
export {
	amendWork,
	historyEntry,
	reviewHistory,
	type HistoryEntry,
	type HistoryRow
} from './history';
export { renewLease, reviewerWorkday } from './workday';
