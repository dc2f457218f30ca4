// Institutions, their leads' scope, single sign-on settings and outcomes, and applications: what
// other features and the routes may use (see README.md).
export {
	APPROVAL_VALID_HOURS,
	applicationSchema,
	approveApplication,
	declineApplication,
	emailDomain,
	listApplications,
	submitApplication,
	type SsoIdentityRef
} from './applications';
export {
	assertScope,
	createInstitution,
	getInstitution,
	HOME_INSTITUTION_ID,
	institutionSchema,
	issuerProblem,
	listInstitutions,
	mayManage,
	saveSsoSettings,
	ssoConfig,
	ssoInstitutions,
	ssoSettingsSchema,
	updateInstitution,
	type Actor,
	type Application,
	type InstitutionView,
	type SsoConfig
} from './institutions';
export {
	deactivateMember,
	inviteMember,
	institutionMembers,
	reactivateMember,
	type Member
} from './people';
export {
	resolveSsoSignIn,
	ssoEmailProblem,
	type ApplyIdentity,
	type SsoClaims,
	type SsoOutcome
} from './sso';
