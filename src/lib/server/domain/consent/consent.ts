import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { APPLICABLE_ROLES, WITHDRAWAL_POLICIES, type WithdrawalPolicy } from '../../../constants';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { consentAcceptance, consentText, study, studyWithdrawal, user } from '../../db/schema';
import { DomainError, parseInput } from '../../errors';
import { recordAudit } from '../audit';

/** What a rater reads and accepts: one version of the portal's text or of a study's. */
export interface ConsentVersion {
	id: number;
	studyId: number | null;
	version: number;
	title: string;
	body: string;
	withdrawnJudgements: WithdrawalPolicy;
	publishedAt: Date;
}

const versionColumns = {
	id: consentText.id,
	studyId: consentText.studyId,
	version: consentText.version,
	title: consentText.title,
	body: consentText.body,
	withdrawnJudgements: consentText.withdrawnJudgements,
	publishedAt: consentText.publishedAt
};

/** The longest consent text accepted (characters of Markdown). */
export const MAX_CONSENT_BODY = 50_000;

export const consentInputSchema = z.object({
	studyId: z.number().int().positive().nullable(),
	title: z
		.string()
		.trim()
		.min(1, 'Give the text a title')
		.max(200, 'Keep the title under 200 characters'),
	body: z
		.string()
		.trim()
		.min(1, 'Write the text raters will read')
		.max(MAX_CONSENT_BODY, `Keep the text under ${MAX_CONSENT_BODY} characters`),
	withdrawnJudgements: z.enum(WITHDRAWAL_POLICIES, {
		message: 'Choose what happens to a withdrawing rater’s judgements'
	})
});
export type ConsentInput = z.input<typeof consentInputSchema>;

/** SQL: the consent text `c` is the newest version of its scope. */
const isNewest = sql`c.version = (select max(c2.version) from consent_text c2 where c2.study_id is not distinct from c.study_id)`;

/** The newest version of a scope (the portal's when `studyId` is null), or null when none. */
export async function newestConsent(
	db: Db | Tx,
	studyId: number | null
): Promise<ConsentVersion | null> {
	const [row] = await db
		.select(versionColumns)
		.from(consentText)
		.where(studyId === null ? isNull(consentText.studyId) : eq(consentText.studyId, studyId))
		.orderBy(desc(consentText.version))
		.limit(1);
	return row ?? null;
}

/**
 * Publishes the next version of the portal's consent text (or of a study's): version 1, 2, … per
 * scope. Every rater is asked to accept it before their next piece of work. Audited.
 */
export async function publishConsent(
	db: Db,
	input: ConsentInput,
	actorId: string
): Promise<ConsentVersion> {
	const data = parseInput(consentInputSchema, input);
	return db.transaction(async (tx) => {
		if (data.studyId !== null) {
			const [found] = await tx
				.select({ id: study.id })
				.from(study)
				.where(eq(study.id, data.studyId));
			if (!found) throw new DomainError('not_found', `There is no study ${data.studyId}.`);
		}
		// Two organisers publishing at once queue up here rather than racing for one version.
		await tx.execute(
			sql`select pg_advisory_xact_lock(hashtext(${`consent:${data.studyId ?? 'portal'}`}))`
		);
		const previous = await newestConsent(tx, data.studyId);
		const [created] = await tx
			.insert(consentText)
			.values({ ...data, version: (previous?.version ?? 0) + 1, createdBy: actorId })
			.returning(versionColumns);
		await recordAudit(tx, {
			actorId,
			action: 'consent.publish',
			objectType: 'consent',
			objectId: created.id,
			before: previous ? { version: previous.version } : null,
			after: {
				studyId: created.studyId,
				version: created.version,
				title: created.title,
				withdrawnJudgements: created.withdrawnJudgements
			}
		});
		return created;
	});
}

/**
 * The texts a rater still has to accept: the newest version of the portal's text and, when a
 * study is given, of the study's own, each unless they accepted that very version (portal first).
 * Empty when nothing was ever published.
 */
export async function pendingConsents(
	db: Db | Tx,
	userId: string,
	studyId: number | null = null
): Promise<ConsentVersion[]> {
	const rows = await db
		.select(versionColumns)
		.from(consentText)
		.where(
			and(
				studyId === null
					? isNull(consentText.studyId)
					: sql`(${consentText.studyId} is null or ${consentText.studyId} = ${studyId})`,
				sql`${consentText.version} = (select max(c2.version) from consent_text c2 where c2.study_id is not distinct from ${consentText.studyId})`,
				sql`not exists (select 1 from ${consentAcceptance} a where a.consent_text_id = ${consentText.id} and a.user_id = ${userId})`
			)
		);
	return rows.sort((a, b) => (a.studyId === null ? -1 : b.studyId === null ? 1 : 0));
}

/**
 * What a rater page must ask first, in one query: the portal's newest text if not accepted, else
 * the newest text of a study in which the rater holds a live lease (a version published while
 * they work asks again at their next page). Null when nothing is pending.
 */
export async function consentGate(
	db: Db | Tx,
	userId: string,
	now = new Date()
): Promise<{ consentTextId: number; studyId: number | null } | null> {
	const rows = rowsOf<{ id: number; study_id: number | null }>(
		await db.execute(sql`
			select c.id, c.study_id from consent_text c
			where ${isNewest}
				and (c.study_id is null or c.study_id in (
					select q.study_id from assignment a join study_question q on q.id = a.study_question_id
					where a.physician_id = ${userId} and a.state = 'leased'
						and a.lease_expires_at > ${now.toISOString()}::timestamptz))
				and not exists (select 1 from consent_acceptance a
					where a.consent_text_id = c.id and a.user_id = ${userId})
			order by c.study_id nulls first
			limit 1`)
	);
	return rows[0] ? { consentTextId: rows[0].id, studyId: rows[0].study_id } : null;
}

/** Why a rater may not claim work in a study now, or null: withdrawn, or a consent pending. */
export type ConsentRefusal = 'withdrawn' | 'consent_pending';

/**
 * Whether a rater may claim (the claims' defence in depth): with a study, refused once they
 * withdrew from it or while its newest text or the portal's is not accepted; without one (the
 * reviewers' queue), refused while the portal's newest text is not accepted.
 */
export async function claimRefusal(
	db: Db | Tx,
	userId: string,
	studyId: number | null = null
): Promise<ConsentRefusal | null> {
	const rows = rowsOf<{ withdrawn: boolean; pending: boolean }>(
		await db.execute(sql`
			select
				${studyId === null ? sql`false` : sql`exists (select 1 from study_withdrawal w where w.study_id = ${studyId} and w.user_id = ${userId})`} as withdrawn,
				exists (select 1 from consent_text c
					where ${isNewest}
						and (c.study_id is null ${studyId === null ? sql`` : sql`or c.study_id = ${studyId}`})
						and not exists (select 1 from consent_acceptance a
							where a.consent_text_id = c.id and a.user_id = ${userId})) as pending`)
	);
	const [row] = rows;
	if (row?.withdrawn) return 'withdrawn';
	if (row?.pending) return 'consent_pending';
	return null;
}

/** A consent version by id, or null. */
export async function getConsent(
	db: Db | Tx,
	consentTextId: number
): Promise<ConsentVersion | null> {
	const [row] = await db
		.select(versionColumns)
		.from(consentText)
		.where(eq(consentText.id, consentTextId));
	return row ?? null;
}

/**
 * Records that a rater accepted a consent version, with the time. Only the newest version of its
 * scope can be accepted (an older page asks again). Accepting twice changes nothing. Audited.
 */
export async function acceptConsent(
	db: Db,
	userId: string,
	consentTextId: number,
	now = new Date()
): Promise<{ accepted: boolean }> {
	return db.transaction(async (tx) => {
		const text = await getConsent(tx, consentTextId);
		if (!text) throw new DomainError('not_found', 'There is no such consent text.');
		const newest = await newestConsent(tx, text.studyId);
		if (newest!.id !== text.id)
			throw new DomainError(
				'conflict',
				`Version ${newest!.version} of this text has been published since you opened this page: read and accept that one.`
			);
		const inserted = await tx
			.insert(consentAcceptance)
			.values({ userId, consentTextId, acceptedAt: now })
			.onConflictDoNothing()
			.returning({ at: consentAcceptance.acceptedAt });
		if (inserted.length)
			await recordAudit(tx, {
				actorId: userId,
				action: 'consent.accept',
				objectType: 'consent',
				objectId: text.id,
				after: { studyId: text.studyId, version: text.version }
			});
		return { accepted: inserted.length > 0 };
	});
}

/** One scope's versions on the organisers' page, newest first, and who has not accepted the newest. */
export interface ConsentScopeHistory {
	studyId: number | null;
	studyName: string | null;
	versions: (ConsentVersion & { acceptances: number; createdBy: string })[];
	/** Active raters concerned who have not accepted the newest version (at most `limit`). */
	notYetAccepted: { id: string; displayName: string; email: string }[];
	notYetAcceptedCount: number;
}

/**
 * Every scope's consent versions with how many raters accepted each, and the active raters who
 * have not accepted the newest: for the portal's text every reviewer and physician, for a
 * study's text every physician who has not withdrawn from it.
 */
export async function consentHistory(db: Db, limit = 50): Promise<ConsentScopeHistory[]> {
	const versions = await db
		.select({
			...versionColumns,
			studyName: study.name,
			createdBy: user.displayName,
			acceptances: sql<number>`(select count(*)::int from ${consentAcceptance} a where a.consent_text_id = ${consentText.id})`
		})
		.from(consentText)
		.leftJoin(study, eq(study.id, consentText.studyId))
		.innerJoin(user, eq(user.id, consentText.createdBy))
		.orderBy(sql`${consentText.studyId} nulls first`, desc(consentText.version));
	const scopes: ConsentScopeHistory[] = [];
	for (const { studyName, ...v } of versions) {
		let scope = scopes.at(-1);
		if (!scope || scope.studyId !== v.studyId) {
			scope = {
				studyId: v.studyId,
				studyName,
				versions: [],
				notYetAccepted: [],
				notYetAcceptedCount: 0
			};
			scopes.push(scope);
		}
		scope.versions.push(v);
	}
	for (const scope of scopes) {
		const newest = scope.versions[0];
		const concerned = and(
			isNull(user.disabledAt),
			scope.studyId === null
				? sql`(${user.roles} && ${`{${APPLICABLE_ROLES.join(',')}}`}::role[])`
				: sql`'physician' = any(${user.roles})`,
			sql`not exists (select 1 from ${consentAcceptance} a where a.consent_text_id = ${newest.id} and a.user_id = ${user.id})`,
			scope.studyId === null
				? undefined
				: sql`not exists (select 1 from ${studyWithdrawal} w where w.study_id = ${scope.studyId} and w.user_id = ${user.id})`
		);
		const [{ n }] = await db.select({ n: count() }).from(user).where(concerned);
		scope.notYetAcceptedCount = n;
		scope.notYetAccepted = await db
			.select({ id: user.id, displayName: user.displayName, email: user.email })
			.from(user)
			.where(concerned)
			.orderBy(user.displayName)
			.limit(limit);
	}
	return scopes;
}

/** The studies an organiser can give a consent text of their own (every study, newest first). */
export async function consentStudyChoices(db: Db) {
	return db
		.select({ id: study.id, name: study.name, state: study.state })
		.from(study)
		.orderBy(desc(study.id));
}

/** The newest version of a scope that a rater accepted before, or null (a new text asks again). */
export async function lastAcceptedVersion(
	db: Db | Tx,
	userId: string,
	studyId: number | null
): Promise<number | null> {
	const [row] = await db
		.select({ version: consentText.version })
		.from(consentAcceptance)
		.innerJoin(consentText, eq(consentText.id, consentAcceptance.consentTextId))
		.where(
			and(
				eq(consentAcceptance.userId, userId),
				studyId === null ? isNull(consentText.studyId) : eq(consentText.studyId, studyId)
			)
		)
		.orderBy(desc(consentText.version))
		.limit(1);
	return row?.version ?? null;
}
