import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditEvent, institution, invitation, session, user } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers } from '../../fixtures/ranking';
import { returnLeasedTasks } from '../review';
import { releasePhysicianLeases } from '../studies';
import { createSession } from '../../auth/session';
import {
	createInstitution,
	getInstitution,
	issuerProblem,
	listInstitutions,
	saveSsoSettings,
	ssoSettingsSchema,
	type Actor
} from './institutions';
import { submitApplication } from './applications';
import { deactivateMember, institutionMembers, inviteMember, reactivateMember } from './people';

const work = { reviewTasks: returnLeasedTasks, rankingLeases: releasePhysicianLeases };
const refusal = (code: string, message: RegExp) =>
	expect.objectContaining({ name: 'DomainError', code, message: expect.stringMatching(message) });

describe('single sign-on settings', () => {
	it('accepts an https issuer, and plain http only on a loopback host', () => {
		expect(issuerProblem('https://login.example.edu/realms/med')).toBeNull();
		expect(issuerProblem('http://127.0.0.1:4000')).toBeNull();
		expect(issuerProblem('http://localhost:8080/oidc')).toBeNull();
		expect(issuerProblem('http://[::1]:4000')).toBeNull();
		expect(issuerProblem('http://login.example.edu')).toMatch(/https/);
		expect(issuerProblem('http://127.0.0.1.example.com')).toMatch(/https/);
		expect(issuerProblem('ftp://login.example.edu')).toMatch(/https/);
		expect(issuerProblem('login.example.edu')).toMatch(/URL/);
		expect(issuerProblem('https://user:pw@login.example.edu')).toMatch(/credentials/);
	});

	it('lower-cases, de-duplicates and checks the allowed domains; needs a client and a domain', () => {
		const ok = ssoSettingsSchema.parse({
			issuer: 'https://login.example.edu',
			clientId: 'portal',
			domains: 'Example.EDU, @student.example.edu  example.edu'
		});
		expect(ok.domains).toEqual(['example.edu', 'student.example.edu']);
		const bad = ssoSettingsSchema.safeParse({
			issuer: 'https://login.example.edu',
			clientId: '',
			domains: 'not a domain'
		});
		expect(bad.success).toBe(false);
		expect(bad.error?.issues.map((i) => i.path[0])).toEqual(expect.arrayContaining(['domains']));
		const noClient = ssoSettingsSchema.safeParse({
			issuer: 'https://login.example.edu',
			clientId: '',
			domains: 'example.edu'
		});
		expect(noClient.error?.issues.map((i) => i.path[0])).toEqual(['clientId']);
		// Turning single sign-on off needs nothing else.
		expect(ssoSettingsSchema.safeParse({ issuer: '', clientId: '', domains: '' }).success).toBe(
			true
		);
	});
});

describeEachDb('institutions and their leads', (h) => {
	let organiser: Actor;
	let lead: Actor;
	let schoolId: number;
	let hospitalId: number;

	beforeEach(async () => {
		const [orgId] = await insertUsers(h.db, 1, ['organiser']);
		organiser = { id: orgId, roles: ['organiser'], institutionId: 1 };
		schoolId = (
			await createInstitution(h.db, { name: 'St Example', kind: 'medical_school' }, organiser)
		).id;
		hospitalId = (
			await createInstitution(h.db, { name: 'City Hospital', kind: 'hospital' }, organiser)
		).id;
		const [leadId] = await insertUsers(h.db, 1, ['physician']);
		await h.db
			.update(user)
			.set({ roles: ['institution_lead'], institutionId: schoolId })
			.where(eq(user.id, leadId));
		lead = { id: leadId, roles: ['institution_lead'], institutionId: schoolId };
	});

	it('keeps the client secret write-only: saved, kept when blank, never shown or audited', async () => {
		await saveSsoSettings(
			h.db,
			schoolId,
			{
				issuer: 'https://login.example.edu',
				clientId: 'portal',
				clientSecret: 'very-secret-value',
				domains: 'example.edu'
			},
			organiser
		);
		await saveSsoSettings(
			h.db,
			schoolId,
			{
				issuer: 'https://login.example.edu',
				clientId: 'portal-2',
				clientSecret: '',
				domains: 'EXAMPLE.edu'
			},
			organiser
		);
		const [row] = await h.db.select().from(institution).where(eq(institution.id, schoolId));
		expect(row).toMatchObject({
			ssoClientId: 'portal-2',
			ssoClientSecret: 'very-secret-value',
			ssoDomains: ['example.edu']
		});
		const view = await getInstitution(h.db, schoolId);
		expect(view).toMatchObject({ secretSet: true });
		expect(JSON.stringify(view)).not.toContain('very-secret-value');
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'institution.sso'));
		expect(events).toHaveLength(2);
		expect(JSON.stringify(events)).not.toContain('very-secret-value');
		// Without a saved secret, a blank one is refused; leads do not change the settings.
		await expect(
			saveSsoSettings(
				h.db,
				hospitalId,
				{ issuer: 'https://h.example.org', clientId: 'x', domains: 'h.example.org' },
				organiser
			)
		).rejects.toEqual(refusal('invalid', /clientSecret/));
		await expect(
			saveSsoSettings(h.db, schoolId, { issuer: '', clientId: '', domains: '' }, lead)
		).rejects.toEqual(refusal('forbidden', /organisers/));
		await expect(
			saveSsoSettings(
				h.db,
				schoolId,
				{ issuer: 'http://login.example.edu', clientId: 'x', domains: 'example.edu' },
				organiser
			)
		).rejects.toEqual(refusal('invalid', /https/));
	});

	it("lets a lead deactivate and reactivate their own raters, never another institution's", async () => {
		const [mine, theirs, fellowLead] = await insertUsers(h.db, 3, ['physician']);
		await h.db.update(user).set({ institutionId: schoolId }).where(eq(user.id, mine));
		await h.db.update(user).set({ institutionId: hospitalId }).where(eq(user.id, theirs));
		await h.db
			.update(user)
			.set({ institutionId: schoolId, roles: ['institution_lead'] })
			.where(eq(user.id, fellowLead));
		await createSession(h.db, mine);

		await expect(deactivateMember(h.db, lead, theirs, work)).rejects.toEqual(
			refusal('forbidden', /lead/)
		);
		await expect(deactivateMember(h.db, lead, fellowLead, work)).rejects.toEqual(
			refusal('forbidden', /organisers/)
		);
		await expect(deactivateMember(h.db, lead, lead.id, work)).rejects.toEqual(
			refusal('forbidden', /your own/)
		);
		const [untouched] = await h.db.select().from(user).where(eq(user.id, theirs));
		expect(untouched.disabledAt).toBeNull();

		const done = await deactivateMember(h.db, lead, mine, work);
		expect(done.sessionsEnded).toBe(1);
		expect(await h.db.select().from(session).where(eq(session.userId, mine))).toEqual([]);
		await reactivateMember(h.db, lead, mine);
		// An organiser acts on every institution.
		await deactivateMember(h.db, organiser, theirs, work);
		const actions = await h.db
			.select({ action: auditEvent.action, actor: auditEvent.actorId })
			.from(auditEvent)
			.where(eq(auditEvent.objectType, 'user'))
			.orderBy(auditEvent.id);
		expect(actions).toEqual([
			{ action: 'user.deactivate', actor: lead.id },
			{ action: 'user.reactivate', actor: lead.id },
			{ action: 'user.deactivate', actor: organiser.id }
		]);
	});

	it('lets a lead invite raters into their own institution only', async () => {
		const { token } = await inviteMember(h.db, lead, schoolId, {
			email: 'New.Student@example.edu',
			displayName: 'New Student',
			roles: ['reviewer']
		});
		expect(token).toHaveLength(32);
		const [row] = await h.db.select().from(invitation);
		expect(row).toMatchObject({
			email: 'new.student@example.edu',
			institutionId: schoolId,
			createdBy: lead.id
		});
		await expect(
			inviteMember(h.db, lead, schoolId, {
				email: 'boss@example.edu',
				displayName: 'Boss',
				roles: ['organiser']
			})
		).rejects.toEqual(refusal('forbidden', /reviewers and physicians/));
		await expect(
			inviteMember(h.db, lead, hospitalId, {
				email: 'x@example.org',
				displayName: 'X',
				roles: ['physician']
			})
		).rejects.toEqual(refusal('forbidden', /lead/));
		expect(await h.db.select().from(invitation)).toHaveLength(1);
	});

	it('lists the institutions with their people, pending applications and single sign-on', async () => {
		await submitApplication(h.db, {
			displayName: 'Ada',
			email: 'ada@example.edu',
			institutionId: schoolId,
			role: 'reviewer',
			yearOfStudy: 2
		});
		const rows = await listInstitutions(h.db);
		expect(rows.map((r) => [r.name, r.people, r.pending, r.sso])).toEqual([
			['City Hospital', 0, 0, false],
			['Portal team', 1, 0, false],
			['St Example', 1, 1, false]
		]);
	});

	it("lists an institution's people only, with their submitted work", async () => {
		const [mine, theirs] = await insertUsers(h.db, 2, ['physician']);
		await h.db.update(user).set({ institutionId: schoolId }).where(eq(user.id, mine));
		await h.db.update(user).set({ institutionId: hospitalId }).where(eq(user.id, theirs));
		const members = await institutionMembers(h.db, schoolId);
		expect(members.map((m) => m.id).sort()).toEqual([lead.id, mine].sort());
		expect(members.find((m) => m.id === mine)).toMatchObject({
			roles: ['physician'],
			reviews: 0,
			judgements: 0,
			lastWorkAt: null,
			sso: false
		});
	});
});
