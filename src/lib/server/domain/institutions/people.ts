import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { APPLICABLE_ROLES } from '../../../constants';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/client';
import { user } from '../../db/schema';
import { DomainError, parseInput } from '../../errors';
import {
	createInvitation,
	deactivateUser,
	invitationSchema,
	reactivateUser,
	type Deactivation,
	type LeasedWork
} from '../people';
import { assertScope, type Actor } from './institutions';

/** One person of an institution and how much work they submitted. */
export interface Member {
	id: string;
	displayName: string;
	email: string;
	pseudonym: string;
	roles: string[];
	disabledAt: Date | null;
	hasPassword: boolean;
	/** Signs in through the institution's provider. */
	sso: boolean;
	/** First-revision reviews submitted (all time). */
	reviews: number;
	/** Study judgements submitted (assignments of every design, all time). */
	judgements: number;
	/** The last submission of either kind. */
	lastWorkAt: Date | null;
}

/**
 * The people of an institution with their submitted work: the counts the workload page shows per
 * person (first-revision reviews, submitted study assignments), here all time. One statement.
 */
export async function institutionMembers(db: Db, institutionId: number): Promise<Member[]> {
	const rows = rowsOf<{
		id: string;
		display_name: string;
		email: string;
		pseudonym: string;
		roles: string[] | string;
		disabled_at: string | Date | null;
		has_password: boolean;
		sso: boolean;
		reviews: number | string;
		judgements: number | string;
		last_review: string | Date | null;
		last_judgement: string | Date | null;
	}>(
		await db.execute(sql`
			select u.id, u.display_name, u.email, u.pseudonym, u.roles::text[] as roles, u.disabled_at,
				u.password_hash is not null as has_password,
				exists (select 1 from sso_identity s where s.user_id = u.id) as sso,
				r.reviews, r.last_review, a.judgements, a.last_judgement
			from "user" u
			cross join lateral (
				select count(*)::int as reviews, max(submitted_at) as last_review
				from review where reviewer_id = u.id and revision = 1
			) r
			cross join lateral (
				select count(*)::int as judgements, max(submitted_at) as last_judgement
				from assignment where physician_id = u.id and state = 'submitted'
			) a
			where u.institution_id = ${institutionId}
			order by u.display_name, u.id`)
	);
	const date = (v: string | Date | null) => (v === null ? null : new Date(v));
	return rows.map((r) => {
		const last = [date(r.last_review), date(r.last_judgement)]
			.filter((d): d is Date => d !== null)
			.sort((a, b) => b.getTime() - a.getTime())[0];
		return {
			id: r.id,
			displayName: r.display_name,
			email: r.email,
			pseudonym: r.pseudonym,
			roles: Array.isArray(r.roles)
				? r.roles
				: r.roles.replace(/[{}]/g, '').split(',').filter(Boolean),
			disabledAt: date(r.disabled_at),
			hasPassword: r.has_password,
			sso: r.sso,
			reviews: Number(r.reviews),
			judgements: Number(r.judgements),
			lastWorkAt: last ?? null
		};
	});
}

/**
 * Checks that the actor may act on an account: it belongs to an institution in their scope, and
 * a lead acts only on raters (never on an organiser, another lead, or themselves).
 */
async function assertMemberScope(db: Db, actor: Actor, userId: string) {
	const [target] = await db
		.select({ institutionId: user.institutionId, roles: user.roles })
		.from(user)
		.where(eq(user.id, userId));
	if (!target) throw new DomainError('not_found', 'No such account.');
	assertScope(actor, target.institutionId);
	if (actor.roles.includes('organiser')) return target;
	if (userId === actor.id)
		throw new DomainError('forbidden', 'Ask an organiser to change your own account.');
	if (target.roles.some((r) => r === 'organiser' || r === 'institution_lead'))
		throw new DomainError('forbidden', 'Only organisers change organiser and lead accounts.');
	return target;
}

/** Deactivates a person of an institution in the actor's scope (see people's deactivateUser). */
export async function deactivateMember(
	db: Db,
	actor: Actor,
	userId: string,
	work: LeasedWork
): Promise<Deactivation> {
	await assertMemberScope(db, actor, userId);
	return deactivateUser(db, userId, actor.id, work);
}

/** Reactivates a person of an institution in the actor's scope. */
export async function reactivateMember(db: Db, actor: Actor, userId: string): Promise<void> {
	await assertMemberScope(db, actor, userId);
	await reactivateUser(db, userId, actor.id);
}

/**
 * Invites someone into an institution in the actor's scope. A lead may invite raters only
 * (reviewers and physicians); organisers any role. Returns the one-time link's token.
 */
export async function inviteMember(
	db: Db,
	actor: Actor,
	institutionId: number,
	input: { [K in keyof z.input<typeof invitationSchema>]?: unknown }
) {
	assertScope(actor, institutionId);
	const data = parseInput(invitationSchema, { ...input, institutionId });
	if (
		!actor.roles.includes('organiser') &&
		!data.roles.every((r) => (APPLICABLE_ROLES as readonly string[]).includes(r))
	)
		throw new DomainError('forbidden', 'A lead invites reviewers and physicians only.', {
			field: 'roles'
		});
	return createInvitation(db, data, actor.id);
}
