import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { APPLICABLE_ROLES } from '../../../constants';
import type { Db } from '../../db/client';
import { application, institution, user, type Application } from '../../db/schema';
import { DomainError, parseInput } from '../../errors';
import { recordAudit } from '../audit';
import { emailSchema, insertInvitation, invitationSchema } from '../people';
import { assertScope, type Actor } from './institutions';

/** How long the invitation an approval issues stays valid, in hours (as an organiser's default). */
export const APPROVAL_VALID_HOURS = 72;

/** An identity at an institution's provider, as the server read it from a verified ID token. */
export interface SsoIdentityRef {
	issuer: string;
	subject: string;
}

const blankToUndefined = (v: unknown) =>
	v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** The application form: physicians give specialty and years of practice, students their year. */
export const applicationSchema = z
	.object({
		displayName: z.string().trim().min(1, 'must not be empty').max(100),
		email: emailSchema,
		institutionId: z.coerce.number().int().positive('choose an institution'),
		role: z.enum(APPLICABLE_ROLES, 'choose reviewer (medical student) or physician'),
		specialty: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()),
		yearsOfPractice: z.preprocess(
			blankToUndefined,
			z.coerce.number().int('must be a whole number').min(0).max(70).optional()
		),
		yearOfStudy: z.preprocess(
			blankToUndefined,
			z.coerce.number().int('must be a whole number').min(1).max(8).optional()
		)
	})
	.superRefine((v, ctx) => {
		if (v.role === 'physician') {
			if (!v.specialty)
				ctx.addIssue({ code: 'custom', path: ['specialty'], message: 'is needed for physicians' });
			if (v.yearsOfPractice === undefined)
				ctx.addIssue({
					code: 'custom',
					path: ['yearsOfPractice'],
					message: 'is needed for physicians (0 to 70)'
				});
		} else if (v.yearOfStudy === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['yearOfStudy'],
				message: 'is needed for medical students (1 to 8)'
			});
	})
	.transform((v) =>
		v.role === 'physician'
			? { ...v, yearOfStudy: undefined }
			: { ...v, specialty: undefined, yearsOfPractice: undefined }
	);

/** The domain of an email address (lower case). */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Records an application to an institution. With `identity` (from a verified SSO sign-in, never
 * from the form) approval later links that identity. Refused: an institution with allowed domains
 * and an address outside them, an address that already has an account, a second pending
 * application of the same person (address or identity) to the same institution.
 */
export async function submitApplication(
	db: Db,
	input: unknown,
	identity: SsoIdentityRef | null = null,
	now = new Date()
): Promise<Application> {
	const data = parseInput(applicationSchema, input);
	return db.transaction(async (tx) => {
		const [inst] = await tx
			.select({ id: institution.id, domains: institution.ssoDomains })
			.from(institution)
			.where(eq(institution.id, data.institutionId));
		if (!inst)
			throw new DomainError('invalid', 'Choose an institution.', { field: 'institutionId' });
		if (inst.domains.length && !inst.domains.includes(emailDomain(data.email)))
			throw new DomainError(
				'invalid',
				`This institution accepts addresses at ${inst.domains.join(', ')} only.`,
				{ field: 'email' }
			);
		const [account] = await tx.select({ id: user.id }).from(user).where(eq(user.email, data.email));
		if (account)
			throw new DomainError(
				'conflict',
				`An account for ${data.email} already exists: sign in instead.`,
				{ field: 'email' }
			);
		// Serialises two submissions of one person (a double click) on the pending check below.
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`application:${data.email}`}))`);
		const [pending] = await tx
			.select({ id: application.id })
			.from(application)
			.where(
				and(
					eq(application.institutionId, data.institutionId),
					eq(application.status, 'pending'),
					identity
						? sql`(${application.email} = ${data.email} or (${application.ssoIssuer} = ${identity.issuer} and ${application.ssoSubject} = ${identity.subject}))`
						: eq(application.email, data.email)
				)
			);
		if (pending)
			throw new DomainError(
				'conflict',
				'An application of yours is already waiting for a decision at this institution.'
			);
		const [created] = await tx
			.insert(application)
			.values({
				institutionId: data.institutionId,
				email: data.email,
				displayName: data.displayName,
				role: data.role,
				specialty: data.specialty ?? null,
				yearsOfPractice: data.yearsOfPractice ?? null,
				yearOfStudy: data.yearOfStudy ?? null,
				ssoIssuer: identity?.issuer ?? null,
				ssoSubject: identity?.subject ?? null,
				createdAt: now
			})
			.returning();
		await recordAudit(tx, {
			actorId: null,
			action: 'application.submit',
			objectType: 'application',
			objectId: created.id,
			after: {
				institutionId: created.institutionId,
				email: created.email,
				role: created.role,
				sso: Boolean(identity)
			}
		});
		return created;
	});
}

/** An institution's applications, pending first, then the newest decisions. */
export async function listApplications(db: Db, institutionId: number) {
	return db
		.select()
		.from(application)
		.where(eq(application.institutionId, institutionId))
		.orderBy(
			sql`${application.status} <> 'pending'`,
			desc(application.createdAt),
			desc(application.id)
		);
}

async function lockPending(
	tx: Parameters<Parameters<Db['transaction']>[0]>[0],
	actor: Actor,
	id: number
) {
	const [row] = await tx.select().from(application).where(eq(application.id, id)).for('update');
	if (!row) throw new DomainError('not_found', 'No such application.');
	assertScope(actor, row.institutionId);
	if (row.status !== 'pending')
		throw new DomainError('conflict', `This application was already ${row.status}.`);
	return row;
}

/**
 * Approves a pending application in one transaction: an invitation into the application's
 * institution with the role applied for, the application marked approved with it, and the audit
 * event. Returns the invitation link's token (shown once, to copy: no email is sent). A person who
 * applied through single sign-on can also just sign in again: the approval links their identity.
 */
export async function approveApplication(db: Db, actor: Actor, id: number, now = new Date()) {
	return db.transaction(async (tx) => {
		const row = await lockPending(tx, actor, id);
		const invitation = await insertInvitation(
			tx,
			invitationSchema.parse({
				email: row.email,
				displayName: row.displayName,
				roles: [row.role],
				institutionId: row.institutionId,
				validHours: APPROVAL_VALID_HOURS
			}),
			actor.id,
			now
		);
		await tx
			.update(application)
			.set({ status: 'approved', decidedBy: actor.id, decidedAt: now, invitationId: invitation.id })
			.where(eq(application.id, id));
		await recordAudit(tx, {
			actorId: actor.id,
			action: 'application.approve',
			objectType: 'application',
			objectId: id,
			before: { status: 'pending' },
			after: {
				status: 'approved',
				institutionId: row.institutionId,
				invitationId: invitation.id,
				role: row.role
			}
		});
		return {
			token: invitation.token,
			expiresAt: invitation.expiresAt,
			email: row.email,
			sso: row.ssoIssuer !== null
		};
	});
}

const noteSchema = z.string().trim().min(1, 'must say why').max(1000);

/** Declines a pending application with a note (kept with it and in the audit event). */
export async function declineApplication(
	db: Db,
	actor: Actor,
	id: number,
	note: string,
	now = new Date()
) {
	const text = parseInput(z.object({ note: noteSchema }), { note }).note;
	return db.transaction(async (tx) => {
		const row = await lockPending(tx, actor, id);
		await tx
			.update(application)
			.set({ status: 'declined', decidedBy: actor.id, decidedAt: now, decisionNote: text })
			.where(eq(application.id, id));
		await recordAudit(tx, {
			actorId: actor.id,
			action: 'application.decline',
			objectType: 'application',
			objectId: id,
			before: { status: 'pending' },
			after: { status: 'declined', institutionId: row.institutionId, note: text }
		});
		return { email: row.email };
	});
}
