import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { application, auditEvent, ssoIdentity, user } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers } from '../../fixtures/ranking';
import { createInvitation } from '../people';
import { approveApplication, submitApplication } from './applications';
import { createInstitution, saveSsoSettings, type Actor } from './institutions';
import { resolveSsoSignIn } from './sso';

const ISSUER = 'https://login.stexample.edu';

describeEachDb('what a sign-in at the institution leads to', (h) => {
	let organiser: Actor;
	let schoolId: number;
	const claims = (over: Record<string, unknown> = {}) => ({
		issuer: ISSUER,
		subject: 'sub-ada',
		email: 'ada@stexample.edu',
		emailVerified: true,
		name: 'Ada Doe',
		...over
	});

	beforeEach(async () => {
		const [orgId] = await insertUsers(h.db, 1, ['organiser']);
		organiser = { id: orgId, roles: ['organiser'], institutionId: 1 };
		schoolId = (
			await createInstitution(h.db, { name: 'St Example', kind: 'medical_school' }, organiser)
		).id;
		await saveSsoSettings(
			h.db,
			schoolId,
			{ issuer: ISSUER, clientId: 'portal', clientSecret: 's3cret', domains: 'stexample.edu' },
			organiser
		);
	});

	it('goes from application to approval to an account linked to the identity, never a role by itself', async () => {
		const first = await resolveSsoSignIn(h.db, schoolId, claims(), null);
		expect(first).toEqual({
			kind: 'apply',
			identity: {
				institutionId: schoolId,
				issuer: ISSUER,
				subject: 'sub-ada',
				email: 'ada@stexample.edu',
				name: 'Ada Doe'
			}
		});
		expect(await h.db.select().from(user).where(eq(user.email, 'ada@stexample.edu'))).toEqual([]);
		const app = await submitApplication(
			h.db,
			{
				displayName: 'Ada Doe',
				email: 'ada@stexample.edu',
				institutionId: schoolId,
				role: 'physician',
				specialty: 'Oncology',
				yearsOfPractice: 3
			},
			{ issuer: ISSUER, subject: 'sub-ada' }
		);
		expect(await resolveSsoSignIn(h.db, schoolId, claims(), null)).toEqual({
			kind: 'pending',
			institution: 'St Example'
		});
		await approveApplication(h.db, organiser, app.id);
		const signedIn = await resolveSsoSignIn(h.db, schoolId, claims(), null);
		expect(signedIn).toMatchObject({ kind: 'signed_in', linked: true });
		const [account] = await h.db.select().from(user).where(eq(user.email, 'ada@stexample.edu'));
		expect(account).toMatchObject({
			roles: ['physician'],
			institutionId: schoolId,
			passwordHash: null
		});
		expect(await h.db.select().from(ssoIdentity)).toMatchObject([
			{ issuer: ISSUER, subject: 'sub-ada', userId: account.id }
		]);
		// Next time the identity alone signs in; a deactivated account is refused.
		expect(await resolveSsoSignIn(h.db, schoolId, claims(), null)).toEqual({
			kind: 'signed_in',
			userId: account.id,
			linked: false
		});
		await h.db.update(user).set({ disabledAt: new Date() }).where(eq(user.id, account.id));
		expect(await resolveSsoSignIn(h.db, schoolId, claims(), null)).toMatchObject({
			kind: 'refused',
			message: expect.stringMatching(/deactivated/)
		});
		const [link] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'user.sso_link'));
		expect(link).toMatchObject({ objectId: account.id, after: { via: 'application' } });
	});

	it('refuses an unverified address or a domain outside the list, and applies nothing', async () => {
		expect(
			await resolveSsoSignIn(h.db, schoolId, claims({ emailVerified: false }), null)
		).toMatchObject({
			kind: 'refused',
			message: expect.stringMatching(/not verified/)
		});
		expect(
			await resolveSsoSignIn(h.db, schoolId, claims({ email: 'ada@gmail.com' }), null)
		).toMatchObject({
			kind: 'refused',
			message: expect.stringMatching(/gmail\.com cannot sign in/)
		});
		expect(
			await resolveSsoSignIn(h.db, schoolId, claims({ email: undefined }), null)
		).toMatchObject({ kind: 'refused' });
		// The issuer must be the institution's own.
		expect(
			await resolveSsoSignIn(h.db, schoolId, claims({ issuer: 'https://evil.example' }), null)
		).toMatchObject({ kind: 'refused' });
		expect(await h.db.select().from(application)).toEqual([]);
	});

	it("accepts an invitation with the institution's sign-in, only an invitation into that institution", async () => {
		const { token } = await createInvitation(
			h.db,
			{
				email: 'ben@stexample.edu',
				displayName: 'Ben',
				roles: ['reviewer'],
				institutionId: schoolId
			},
			organiser.id
		);
		const home = await createInvitation(
			h.db,
			{ email: 'cy@stexample.edu', displayName: 'Cy', roles: ['reviewer'] },
			organiser.id
		);
		expect(
			await resolveSsoSignIn(
				h.db,
				schoolId,
				claims({ subject: 'sub-cy', email: 'cy@stexample.edu' }),
				home.token
			)
		).toMatchObject({
			kind: 'refused',
			message: expect.stringMatching(/not for St Example/)
		});
		expect(await h.db.select().from(ssoIdentity)).toEqual([]);
		const done = await resolveSsoSignIn(
			h.db,
			schoolId,
			claims({ subject: 'sub-ben', email: 'ben@stexample.edu' }),
			token
		);
		expect(done).toMatchObject({ kind: 'signed_in', linked: true });
		const [ben] = await h.db.select().from(user).where(eq(user.email, 'ben@stexample.edu'));
		expect(ben).toMatchObject({ roles: ['reviewer'], institutionId: schoolId });
	});
});
