// Consent texts, their acceptance and withdrawal from a study: what other features and the
// routes may use (see README.md).
export {
	acceptConsent,
	claimRefusal,
	consentGate,
	consentHistory,
	consentInputSchema,
	consentStudyChoices,
	getConsent,
	lastAcceptedVersion,
	MAX_CONSENT_BODY,
	newestConsent,
	pendingConsents,
	publishConsent,
	type ConsentRefusal,
	type ConsentInput,
	type ConsentScopeHistory,
	type ConsentVersion
} from './consent';
export {
	applicableConsent,
	withdrawalPreview,
	withdrawalSentence,
	withdrawalSummary,
	withdrawFromStudy,
	withdrawnStudies,
	type ReleaseStudyLeases,
	type Withdrawal,
	type WithdrawalGroup,
	type WithdrawalPreview,
	type WithdrawalSummary
} from './withdrawal';
