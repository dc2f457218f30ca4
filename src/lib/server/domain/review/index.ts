// Reviewers' queue and reviews: what other features and the routes may use (see README.md).
export { applyPassageSetting, releasePassageTasks, tasksAwaitingPassage } from './passage';
export {
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
	reviewHistory,
	reviewInputSchema,
	reviewWithRevisions,
	submitAndNext,
	submitReview,
	type JudgementInput
} from './reviews';
export { renewLease, reviewerWorkday } from './workday';
