import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { application, invitation, ssoIdentity, user } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { redeemInvitation } from '../people';
import { emailDomain } from './applications';
import { ssoConfig } from './institutions';

/** What the institution's provider said about the person, from a verified ID token. */
export interface SsoClaims {
	issuer: string;
	subject: string;
	email?: string;
	/** The `email_verified` claim, when the provider sent one. */
	emailVerified?: boolean;
	name?: string;
}

/** The identity an application form may be prefilled with (carried signed, never from the form). */
export interface ApplyIdentity {
	institutionId: number;
	issuer: string;
	subject: string;
	email: string;
	name: string;
}

/** Where a sign-in through an institution's provider leads. */
export type SsoOutcome =
	| { kind: 'signed_in'; userId: string; linked: boolean }
	| { kind: 'pending'; institution: string }
	| { kind: 'apply'; identity: ApplyIdentity }
	| { kind: 'refused'; message: string };

/** Why the provider's email cannot be used for this institution, or null. */
export function ssoEmailProblem(claims: SsoClaims, domains: readonly string[]): string | null {
	if (!claims.email) return 'Your institution’s sign-in did not share an email address.';
	if (claims.emailVerified === false)
		return `Your institution’s sign-in says the address ${claims.email} is not verified.`;
	if (!domains.includes(emailDomain(claims.email)))
		return `Addresses at ${emailDomain(claims.email)} cannot sign in through this institution (it accepts ${domains.join(', ') || 'none yet'}).`;
	return null;
}

/**
 * Decides what a completed sign-in at an institution's provider does. A known identity signs its
 * account in; otherwise an invitation carried through the sign-in, or an approved application of
 * this identity, creates the account linked to it (one transaction each); a pending application
 * waits; anyone else may apply. Never creates an account with a role by itself.
 */
export async function resolveSsoSignIn(
	db: Db,
	institutionId: number,
	claims: SsoClaims,
	invitationToken: string | null,
	now = new Date()
): Promise<SsoOutcome> {
	const config = await ssoConfig(db, institutionId);
	if (!config || config.issuer !== claims.issuer)
		return { kind: 'refused', message: 'Single sign-on is not set up for this institution.' };
	const [linked] = await db
		.select({ userId: ssoIdentity.userId, disabledAt: user.disabledAt })
		.from(ssoIdentity)
		.innerJoin(user, eq(user.id, ssoIdentity.userId))
		.where(and(eq(ssoIdentity.issuer, claims.issuer), eq(ssoIdentity.subject, claims.subject)));
	if (linked) {
		if (linked.disabledAt)
			return {
				kind: 'refused',
				message: 'This account is deactivated. Ask an organiser or your institution’s lead.'
			};
		await db
			.update(ssoIdentity)
			.set({ lastSignInAt: now })
			.where(and(eq(ssoIdentity.issuer, claims.issuer), eq(ssoIdentity.subject, claims.subject)));
		return { kind: 'signed_in', userId: linked.userId, linked: false };
	}
	const emailProblem = ssoEmailProblem(claims, config.domains);
	if (emailProblem) return { kind: 'refused', message: emailProblem };

	const link = (which: { token: string } | { id: string }, via: string) =>
		db.transaction(async (tx) => {
			const created = await redeemInvitation(tx, which, null, now, (inv) => {
				if (inv.institutionId !== institutionId)
					throw new DomainError(
						'forbidden',
						`This invitation is not for ${config.name}: accept it with a password instead.`
					);
			});
			await tx.insert(ssoIdentity).values({
				issuer: claims.issuer,
				subject: claims.subject,
				userId: created.id,
				institutionId,
				createdAt: now,
				lastSignInAt: now
			});
			await recordAudit(tx, {
				actorId: created.id,
				action: 'user.sso_link',
				objectType: 'user',
				objectId: created.id,
				after: { institutionId, issuer: claims.issuer, via }
			});
			return { kind: 'signed_in' as const, userId: created.id, linked: true };
		});

	const [account] = await db
		.select({ id: user.id })
		.from(user)
		.where(eq(user.email, claims.email!.toLowerCase()));
	if (invitationToken) {
		try {
			return await link({ token: invitationToken }, 'invitation');
		} catch (e) {
			if (e instanceof DomainError) return { kind: 'refused', message: e.message };
			throw e;
		}
	}
	const [approved] = await db
		.select({ invitationId: application.invitationId })
		.from(application)
		.innerJoin(invitation, eq(invitation.id, application.invitationId))
		.where(
			and(
				eq(application.institutionId, institutionId),
				eq(application.ssoIssuer, claims.issuer),
				eq(application.ssoSubject, claims.subject),
				eq(application.status, 'approved'),
				isNull(invitation.usedAt),
				isNull(invitation.revokedAt),
				gt(invitation.expiresAt, now)
			)
		)
		.orderBy(sql`${application.decidedAt} desc`)
		.limit(1);
	if (approved?.invitationId) return link({ id: approved.invitationId }, 'application');
	const [pending] = await db
		.select({ id: application.id })
		.from(application)
		.where(
			and(
				eq(application.institutionId, institutionId),
				eq(application.status, 'pending'),
				sql`((${application.ssoIssuer} = ${claims.issuer} and ${application.ssoSubject} = ${claims.subject}) or ${application.email} = ${claims.email!.toLowerCase()})`
			)
		);
	if (pending) return { kind: 'pending', institution: config.name };
	if (account)
		return {
			kind: 'refused',
			message: `An account for ${claims.email} already exists: sign in with its password. Your institution’s sign-in is not linked to it.`
		};
	return {
		kind: 'apply',
		identity: {
			institutionId,
			issuer: claims.issuer,
			subject: claims.subject,
			email: claims.email!.toLowerCase(),
			name: claims.name?.trim() || ''
		}
	};
}
