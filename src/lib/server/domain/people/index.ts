// Accounts, roles and invitations: what other features and the routes may use (see README.md).
export { deactivateUser, reactivateUser, type Deactivation, type LeasedWork } from './accounts';
export {
	invitationLinkState,
	listInvitations,
	resendInvitation,
	revokeInvitation,
	type InvitationLinkState
} from './invitations';
export { findPasswordReset, issuePasswordReset, usePasswordReset } from './password-reset';
export {
	acceptInvitation,
	authenticate,
	createInvitation,
	createUser,
	emailSchema,
	findInvitation,
	insertInvitation,
	invitationSchema,
	listUsers,
	passwordSchema,
	physicianSupply,
	redeemInvitation,
	setRoles,
	type SignInResult
} from './users';
