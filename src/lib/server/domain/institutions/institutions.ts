import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { INSTITUTION_KINDS, type Role } from '../../../constants';
import { allowsInsecure } from '../../auth/oidc';
import type { Db, Tx } from '../../db/client';
import {
	application,
	HOME_INSTITUTION_ID,
	institution,
	user,
	type Application
} from '../../db/schema';
import { DomainError, parseInput } from '../../errors';
import { recordAudit } from '../audit';

/** The home institution (the portal's own people) and an application, for the routes. */
export { HOME_INSTITUTION_ID, type Application };

/** Who acts on an institution: organisers act on every one, a lead only on their own. */
export interface Actor {
	id: string;
	roles: readonly Role[];
	institutionId: number;
}

/** Whether the actor may manage the institution's people and applications. */
export function mayManage(actor: Actor, institutionId: number): boolean {
	if (actor.roles.includes('organiser')) return true;
	return actor.roles.includes('institution_lead') && actor.institutionId === institutionId;
}

/** Refuses an actor outside the institution's scope (checked again in every domain call). */
export function assertScope(actor: Actor, institutionId: number): void {
	if (!mayManage(actor, institutionId))
		throw new DomainError('forbidden', "Only organisers and this institution's lead may do this.");
}

export const institutionSchema = z.object({
	name: z.string().trim().min(1, 'must not be empty').max(200),
	kind: z.enum(INSTITUTION_KINDS)
});

/** Why an issuer URL cannot be used, or null: https, or http only on a loopback host. */
export function issuerProblem(value: string): string | null {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return 'must be a URL such as https://login.example.edu';
	}
	if (url.username || url.password || url.search || url.hash)
		return 'must not hold credentials, a query or a fragment';
	if (url.protocol === 'https:' || allowsInsecure(value)) return null;
	return 'must use https (plain http only on 127.0.0.1, localhost or [::1])';
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** SSO settings: a blank secret keeps the one saved; a blank issuer turns single sign-on off. */
export const ssoSettingsSchema = z
	.object({
		issuer: z.string().trim().max(500),
		clientId: z.string().trim().max(500),
		clientSecret: z.string().max(2000).optional(),
		domains: z
			.union([z.string(), z.array(z.string())])
			.transform((v) =>
				[
					...new Set(
						(Array.isArray(v) ? v : v.split(/[\s,;]+/))
							.map((d) => d.trim().toLowerCase().replace(/^@/, ''))
							.filter(Boolean)
					)
				].sort()
			)
			.pipe(z.array(z.string().regex(DOMAIN, 'must be email domains such as example.edu')).max(50))
	})
	.superRefine((v, ctx) => {
		if (!v.issuer) return;
		const problem = issuerProblem(v.issuer);
		if (problem) ctx.addIssue({ code: 'custom', path: ['issuer'], message: problem });
		if (!v.clientId)
			ctx.addIssue({ code: 'custom', path: ['clientId'], message: 'must not be empty' });
		if (!v.domains.length)
			ctx.addIssue({
				code: 'custom',
				path: ['domains'],
				message: 'must list at least one email domain'
			});
	});

/** The institutions with how many people, pending applications and whether SSO is set up. */
export async function listInstitutions(db: Db) {
	return db
		.select({
			id: institution.id,
			name: institution.name,
			kind: institution.kind,
			sso: sql<boolean>`${institution.ssoIssuer} is not null`,
			people: sql<number>`(select count(*)::int from ${user} u where u.institution_id = "institution"."id")`,
			pending: sql<number>`(select count(*)::int from ${application} a where a.institution_id = "institution"."id" and a.status = 'pending')`
		})
		.from(institution)
		.orderBy(asc(institution.name));
}

/** One institution as pages show it: the client secret only as whether one is saved. */
export async function getInstitution(db: Db | Tx, id: number) {
	const [row] = await db.select().from(institution).where(eq(institution.id, id));
	if (!row) return null;
	const { ssoClientSecret, ...rest } = row;
	return { ...rest, secretSet: Boolean(ssoClientSecret) };
}
export type InstitutionView = NonNullable<Awaited<ReturnType<typeof getInstitution>>>;

/** The institutions people can sign in through (issuer, client id and secret all saved). */
export function ssoInstitutions(db: Db) {
	return db
		.select({ id: institution.id, name: institution.name })
		.from(institution)
		.where(
			and(
				isNotNull(institution.ssoIssuer),
				isNotNull(institution.ssoClientId),
				isNotNull(institution.ssoClientSecret)
			)
		)
		.orderBy(asc(institution.name));
}

/** The full SSO configuration of an institution, secret included: for the server's OIDC client. */
export async function ssoConfig(db: Db | Tx, id: number) {
	const [row] = await db.select().from(institution).where(eq(institution.id, id));
	if (!row?.ssoIssuer || !row.ssoClientId || !row.ssoClientSecret) return null;
	return {
		id: row.id,
		name: row.name,
		issuer: row.ssoIssuer,
		clientId: row.ssoClientId,
		clientSecret: row.ssoClientSecret,
		domains: row.ssoDomains
	};
}
export type SsoConfig = NonNullable<Awaited<ReturnType<typeof ssoConfig>>>;

async function nameTaken(tx: Tx, name: string, except?: number) {
	const [row] = await tx
		.select({ id: institution.id })
		.from(institution)
		.where(sql`lower(${institution.name}) = lower(${name})`);
	return row && row.id !== except;
}

/** Creates an institution (organisers only). */
export async function createInstitution(db: Db, input: unknown, actor: Actor) {
	if (!actor.roles.includes('organiser'))
		throw new DomainError('forbidden', 'Only organisers create institutions.');
	const data = parseInput(institutionSchema, input);
	return db.transaction(async (tx) => {
		if (await nameTaken(tx, data.name))
			throw new DomainError('conflict', `An institution named ${data.name} already exists.`, {
				field: 'name'
			});
		const [created] = await tx.insert(institution).values(data).returning();
		await recordAudit(tx, {
			actorId: actor.id,
			action: 'institution.create',
			objectType: 'institution',
			objectId: created.id,
			after: data
		});
		return created;
	});
}

/** Renames an institution or changes its kind (organisers only), audited before and after. */
export async function updateInstitution(db: Db, id: number, input: unknown, actor: Actor) {
	if (!actor.roles.includes('organiser'))
		throw new DomainError('forbidden', 'Only organisers rename institutions.');
	const data = parseInput(institutionSchema, input);
	await db.transaction(async (tx) => {
		const [before] = await tx
			.select({ name: institution.name, kind: institution.kind })
			.from(institution)
			.where(eq(institution.id, id))
			.for('update');
		if (!before) throw new DomainError('not_found', 'No such institution.');
		if (await nameTaken(tx, data.name, id))
			throw new DomainError('conflict', `An institution named ${data.name} already exists.`, {
				field: 'name'
			});
		if (before.name === data.name && before.kind === data.kind) return;
		await tx.update(institution).set(data).where(eq(institution.id, id));
		await recordAudit(tx, {
			actorId: actor.id,
			action: 'institution.update',
			objectType: 'institution',
			objectId: id,
			before,
			after: data
		});
	});
}

/**
 * Saves an institution's single sign-on settings (organisers only). The secret is write-only: a
 * blank one keeps what is saved, and neither the audit event nor any page ever shows it. A blank
 * issuer turns single sign-on off and forgets the client and the secret.
 */
export async function saveSsoSettings(db: Db, id: number, input: unknown, actor: Actor) {
	if (!actor.roles.includes('organiser'))
		throw new DomainError('forbidden', 'Only organisers change single sign-on settings.');
	const data = parseInput(ssoSettingsSchema, input);
	await db.transaction(async (tx) => {
		const [before] = await tx
			.select()
			.from(institution)
			.where(eq(institution.id, id))
			.for('update');
		if (!before) throw new DomainError('not_found', 'No such institution.');
		const off = !data.issuer;
		const secret = off ? null : data.clientSecret?.trim() || before.ssoClientSecret;
		if (!off && !secret)
			throw new DomainError('invalid', 'clientSecret must not be empty.', {
				field: 'clientSecret'
			});
		const next = {
			ssoIssuer: off ? null : data.issuer,
			ssoClientId: off ? null : data.clientId,
			ssoClientSecret: secret,
			ssoDomains: off ? [] : data.domains
		};
		await tx.update(institution).set(next).where(eq(institution.id, id));
		const shown = (r: typeof next) => ({
			issuer: r.ssoIssuer,
			clientId: r.ssoClientId,
			domains: r.ssoDomains,
			secretSet: Boolean(r.ssoClientSecret)
		});
		await recordAudit(tx, {
			actorId: actor.id,
			action: 'institution.sso',
			objectType: 'institution',
			objectId: id,
			before: shown(before),
			after: { ...shown(next), secretChanged: secret !== before.ssoClientSecret }
		});
	});
}
