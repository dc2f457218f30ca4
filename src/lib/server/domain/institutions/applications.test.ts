import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { application, auditEvent, invitation, user } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers } from '../../fixtures/ranking';
import { acceptInvitation, findInvitation } from '../people';
import { approveApplication, declineApplication, submitApplication } from './applications';
import { createInstitution, saveSsoSettings, type Actor } from './institutions';

const refusal = (code: string, message: RegExp) =>
	expect.objectContaining({ name: 'DomainError', code, message: expect.stringMatching(message) });
const ISSUER = 'https://login.stexample.edu';

describeEachDb('applications', (h) => {
	let organiser: Actor;
	let lead: Actor;
	let schoolId: number;
	let hospitalId: number;
	const physician = (over: Record<string, unknown> = {}) => ({
		displayName: 'Dr Ada Doe',
		email: 'Ada@StExample.edu',
		institutionId: schoolId,
		role: 'physician',
		specialty: 'Cardiology',
		yearsOfPractice: '6',
		...over
	});

	beforeEach(async () => {
		const [orgId, leadId] = await insertUsers(h.db, 2, ['organiser']);
		organiser = { id: orgId, roles: ['organiser'], institutionId: 1 };
		schoolId = (
			await createInstitution(h.db, { name: 'St Example', kind: 'medical_school' }, organiser)
		).id;
		hospitalId = (
			await createInstitution(h.db, { name: 'City Hospital', kind: 'hospital' }, organiser)
		).id;
		await h.db
			.update(user)
			.set({ roles: ['institution_lead'], institutionId: hospitalId })
			.where(eq(user.id, leadId));
		lead = { id: leadId, roles: ['institution_lead'], institutionId: hospitalId };
	});

	it('asks physicians for specialty and years, students for their year of study', async () => {
		await expect(submitApplication(h.db, physician({ specialty: '' }))).rejects.toEqual(
			refusal('invalid', /specialty is needed/)
		);
		await expect(submitApplication(h.db, physician({ yearsOfPractice: '71' }))).rejects.toEqual(
			refusal('invalid', /yearsOfPractice/)
		);
		await expect(
			submitApplication(h.db, physician({ role: 'reviewer', yearOfStudy: '' }))
		).rejects.toEqual(refusal('invalid', /yearOfStudy is needed/));
		await expect(submitApplication(h.db, physician({ role: 'organiser' }))).rejects.toEqual(
			refusal('invalid', /role/)
		);
		const student = await submitApplication(
			h.db,
			physician({ role: 'reviewer', yearOfStudy: '3', email: 'sam@stexample.edu' })
		);
		// What a student's form also carried for physicians is not kept.
		expect(student).toMatchObject({
			role: 'reviewer',
			yearOfStudy: 3,
			specialty: null,
			yearsOfPractice: null
		});
		const doc = await submitApplication(h.db, physician());
		expect(doc).toMatchObject({
			email: 'ada@stexample.edu',
			specialty: 'Cardiology',
			yearsOfPractice: 6,
			status: 'pending'
		});
	});

	it('refuses a second pending application, an existing account, and a domain outside the list', async () => {
		await submitApplication(h.db, physician());
		await expect(submitApplication(h.db, physician({ displayName: 'Ada again' }))).rejects.toEqual(
			refusal('conflict', /already waiting/)
		);
		const [existing] = await insertUsers(h.db, 1, ['physician']);
		const [{ email }] = await h.db
			.select({ email: user.email })
			.from(user)
			.where(eq(user.id, existing));
		await expect(submitApplication(h.db, physician({ email }))).rejects.toEqual(
			refusal('conflict', /already exists/)
		);
		await saveSsoSettings(
			h.db,
			schoolId,
			{ issuer: ISSUER, clientId: 'portal', clientSecret: 's3cret', domains: 'stexample.edu' },
			organiser
		);
		await expect(submitApplication(h.db, physician({ email: 'ada@gmail.com' }))).rejects.toEqual(
			refusal('invalid', /stexample\.edu only/)
		);
		expect(await h.db.select().from(application)).toHaveLength(1);
	});

	it('approves in one transaction: an invitation into the right institution, the status, the audit event', async () => {
		const app = await submitApplication(
			h.db,
			physician({ institutionId: hospitalId, email: 'ada@city.example.org' })
		);
		const done = await approveApplication(h.db, lead, app.id);
		const [row] = await h.db.select().from(application).where(eq(application.id, app.id));
		expect(row).toMatchObject({ status: 'approved', decidedBy: lead.id });
		const inv = await findInvitation(h.db, done.token);
		expect(inv).toMatchObject({
			id: row.invitationId,
			institutionId: hospitalId,
			roles: ['physician'],
			email: 'ada@city.example.org'
		});
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'application.approve'));
		expect(event).toMatchObject({
			actorId: lead.id,
			objectId: String(app.id),
			after: { invitationId: inv!.id, institutionId: hospitalId }
		});
		await expect(approveApplication(h.db, lead, app.id)).rejects.toEqual(
			refusal('conflict', /already approved/)
		);
		// The link makes the account in the institution with the role applied for.
		const created = await acceptInvitation(h.db, done.token, 'violet tractor harbour nine');
		expect(created).toMatchObject({ institutionId: hospitalId, roles: ['physician'] });
	});

	it('rolls the approval back when the invitation cannot be made (an account took the address)', async () => {
		const app = await submitApplication(h.db, physician());
		await h.db.insert(user).values({
			id: 'x'.repeat(24),
			email: 'ada@stexample.edu',
			displayName: 'Ada',
			pseudonym: 'P-ADA'
		});
		await expect(approveApplication(h.db, organiser, app.id)).rejects.toEqual(
			refusal('conflict', /already exists/)
		);
		const [row] = await h.db.select().from(application).where(eq(application.id, app.id));
		expect(row).toMatchObject({ status: 'pending', invitationId: null, decidedBy: null });
		expect(await h.db.select().from(invitation)).toEqual([]);
		expect(
			await h.db.select().from(auditEvent).where(eq(auditEvent.action, 'application.approve'))
		).toEqual([]);
	});

	it("keeps a lead to their own institution's applications; declines need a note", async () => {
		const app = await submitApplication(h.db, physician());
		await expect(approveApplication(h.db, lead, app.id)).rejects.toEqual(
			refusal('forbidden', /lead/)
		);
		await expect(declineApplication(h.db, lead, app.id, 'No')).rejects.toEqual(
			refusal('forbidden', /lead/)
		);
		await expect(declineApplication(h.db, organiser, app.id, '  ')).rejects.toEqual(
			refusal('invalid', /note/)
		);
		expect((await h.db.select().from(application))[0].status).toBe('pending');
		await declineApplication(h.db, organiser, app.id, 'Not a physician at St Example.');
		const [row] = await h.db.select().from(application);
		expect(row).toMatchObject({
			status: 'declined',
			decisionNote: 'Not a physician at St Example.'
		});
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'application.decline'));
		expect(event).toMatchObject({
			actorId: organiser.id,
			after: { note: 'Not a physician at St Example.' }
		});
		// Declined, the person may apply again.
		await submitApplication(h.db, physician());
	});
});
