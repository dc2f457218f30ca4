/** Accounts the e2e server creates before it starts; tests sign in with these. */
export const E2E_PASSWORD = 'e2e-password-0123';

export const E2E_ACCOUNTS = {
	organiser: {
		email: 'e2e-organiser@test.local',
		displayName: 'Eve Organiser',
		roles: ['organiser']
	},
	reviewer: { email: 'e2e-reviewer@test.local', displayName: 'Rob Reviewer', roles: ['reviewer'] },
	reviewer2: {
		email: 'e2e-reviewer2@test.local',
		displayName: 'Rita Reviewer',
		roles: ['reviewer']
	},
	reviewer3: {
		email: 'e2e-reviewer3@test.local',
		displayName: 'Ravi Reviewer',
		roles: ['reviewer']
	},
	physician: {
		email: 'e2e-physician@test.local',
		displayName: 'Dr Pat Physician',
		roles: ['physician']
	},
	physician2: {
		email: 'e2e-physician2@test.local',
		displayName: 'Dr Phil Physician',
		roles: ['physician']
	}
} as const;

export type E2eAccount = keyof typeof E2E_ACCOUNTS;
