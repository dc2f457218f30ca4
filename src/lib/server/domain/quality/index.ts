// Gold questions, qualification rounds and gold accuracy: how the portal measures its raters.
export { studyLabels, type JudgementLabel, type LabelOptions } from './labels';
export {
	goldShare,
	scoreAgainstGold,
	type GoldAnswer,
	type GoldLine,
	type GoldScore
} from './gold-compare';
export {
	goldAnswers,
	goldTemplate,
	importGold,
	listGold,
	removeGold,
	type GoldTemplateRecord
} from './gold';
export {
	MIN_CHECKS_TO_FLAG,
	assignmentFeedback,
	feedbackPath,
	goldAccuracy,
	grantedAttempts,
	qualificationStatus,
	roundResults,
	scoreAttempts,
	type AssignmentFeedback,
	type AttemptResult,
	type GoldAccuracy,
	type QualificationStatus,
	type RoundResult
} from './qualification';
export {
	holdInputSchema,
	holdRater,
	liftHold,
	listHolds,
	retraining,
	reviewerHold,
	reviewRetraining,
	standingHolds,
	type HoldInput,
	type HoldRow,
	type MissedCheck,
	type MissedReviewCheck,
	type Retraining,
	type ReviewRetraining
} from './holds';
export {
	MAX_GRANTED_ATTEMPTS,
	grantAttempts,
	grantInputSchema,
	listGrants,
	type GrantInput
} from './grants';
export {
	MAX_REVIEW_GOLD_RECORDS,
	answerReviewGold,
	grantReviewerAttempts,
	grantedReviewerAttempts,
	importReviewGold,
	listReviewGold,
	retireReviewGold,
	reviewCheckResults,
	reviewCheckScores,
	reviewGoldAnswerSchema,
	reviewGoldFeedback,
	reviewerGrantSchema,
	reviewerRoundResults,
	reviewerRoundSettings,
	reviewerRoundSettingsSchema,
	reviewerRoundStatus,
	updateReviewerRound,
	type GoldQuestion,
	type GoldShown,
	type ReviewAttempt,
	type ReviewCheckResult,
	type ReviewGoldFeedback,
	type ReviewerRoundSettings,
	type ReviewerRoundStatus
} from './review-round';
