import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { WithdrawalPolicy } from '../../../constants';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { study, studyWithdrawal } from '../../db/schema';
import { DomainError } from '../../errors';
import { recordAudit } from '../audit';
import { getConsent, newestConsent, type ConsentVersion } from './consent';
import { excludeJudgements } from '../exclusions';

/**
 * Gives back the rater's live leases in one study inside the withdrawal's transaction, returning
 * the assignments' ids. The studies feature owns leases and sits above this one, so the caller
 * hands the step in (studies' `releasePhysicianLeases` with the study).
 */
export type ReleaseStudyLeases = (
	tx: Tx,
	userId: string,
	studyId: number,
	now: Date
) => Promise<number[]>;

/** The consent version that decides a withdrawal from a study: the study's newest, else the portal's. */
export async function applicableConsent(
	db: Db | Tx,
	studyId: number
): Promise<ConsentVersion | null> {
	return (await newestConsent(db, studyId)) ?? (await newestConsent(db, null));
}

/** SQL: a rater's judgements in a study (submitted assignments of non-gold questions). */
const judgementCount = (userId: string | SQL, studyId: number) => sql`(
	select count(*)::int from assignment a join study_question q on q.id = a.study_question_id
	where q.study_id = ${studyId} and a.physician_id = ${userId} and a.state = 'submitted' and not q.gold)`;

/** What a withdrawal from a study would do, for the rater's confirmation page. */
export interface WithdrawalPreview {
	studyId: number;
	studyName: string;
	/** Set when the rater already withdrew (then the rest describes what was done). */
	withdrawnAt: Date | null;
	policy: WithdrawalPolicy;
	/** The consent version whose policy applies, or null when no text was ever published. */
	consent: { version: number; studyId: number | null; title: string } | null;
	/** The rater's judgements in the study so far. */
	judgements: number;
}

/** What withdrawing from a study means for this rater now (or what it meant, once withdrawn). */
export async function withdrawalPreview(
	db: Db,
	userId: string,
	studyId: number
): Promise<WithdrawalPreview | null> {
	const [found] = await db
		.select({
			name: study.name,
			judgements: judgementCount(userId, studyId).mapWith(Number)
		})
		.from(study)
		.where(eq(study.id, studyId));
	if (!found) return null;
	const [done] = await db
		.select()
		.from(studyWithdrawal)
		.where(and(eq(studyWithdrawal.studyId, studyId), eq(studyWithdrawal.userId, userId)));
	const text = done
		? done.consentTextId === null
			? null
			: await getConsent(db, done.consentTextId)
		: await applicableConsent(db, studyId);
	return {
		studyId,
		studyName: found.name,
		withdrawnAt: done?.withdrawnAt ?? null,
		policy: done?.policy ?? text?.withdrawnJudgements ?? 'keep',
		consent: text ? { version: text.version, studyId: text.studyId, title: text.title } : null,
		judgements: found.judgements
	};
}

/** What a withdrawal did. */
export interface Withdrawal {
	policy: WithdrawalPolicy;
	consentTextId: number | null;
	consentVersion: number | null;
	exclusionId: number | null;
	judgements: number;
	assignmentsReleased: number[];
}

/** The exclusion's reason, naming the consent version that asked for it. */
function exclusionReason(text: ConsentVersion): string {
	const whose = text.studyId === null ? 'the portal’s consent' : 'the study’s consent';
	return `Withdrew from the study; ${whose} version ${text.version} excludes withdrawn judgements`;
}

/**
 * Withdraws a rater from a study in one transaction: records the withdrawal with the policy of
 * the consent version that applies (the study's newest text, else the portal's, else `keep`);
 * under `exclude` adds an exclusion (source `withdrawal`, the whole study, its reason naming the
 * version) so every figure drops the rater's judgements; gives back their live leases in the
 * study; audits it. A withdrawn rater can no longer claim in the study (`claimRefusal`).
 */
export async function withdrawFromStudy(
	db: Db,
	userId: string,
	studyId: number,
	releaseLeases: ReleaseStudyLeases,
	now = new Date()
): Promise<Withdrawal> {
	return db.transaction(async (tx) => {
		const [found] = await tx
			.select({ id: study.id, judgements: judgementCount(userId, studyId).mapWith(Number) })
			.from(study)
			.where(eq(study.id, studyId))
			.for('share');
		if (!found) throw new DomainError('not_found', `There is no study ${studyId}.`);
		const text = await applicableConsent(tx, studyId);
		const policy: WithdrawalPolicy = text?.withdrawnJudgements ?? 'keep';
		let exclusionId: number | null = null;
		if (policy === 'exclude' && text) {
			// The same exclusion an organiser makes: audited, and the questions the rater leaves
			// below k raters reopen for others.
			const made = await excludeJudgements(
				tx,
				{ raterId: userId, studyId, from: null, until: null, reason: exclusionReason(text) },
				userId,
				{ source: 'withdrawal', now, tx }
			);
			exclusionId = made.exclusion.id;
		}
		const recorded = await tx
			.insert(studyWithdrawal)
			.values({
				studyId,
				userId,
				withdrawnAt: now,
				policy,
				consentTextId: text?.id ?? null,
				exclusionId
			})
			.onConflictDoNothing()
			.returning({ at: studyWithdrawal.withdrawnAt });
		// Rolls back the exclusion above too: a second withdrawal changes nothing.
		if (!recorded.length)
			throw new DomainError('conflict', 'You have already withdrawn from this study.');
		const released = await releaseLeases(tx, userId, studyId, now);
		const result: Withdrawal = {
			policy,
			consentTextId: text?.id ?? null,
			consentVersion: text?.version ?? null,
			exclusionId,
			judgements: found.judgements,
			assignmentsReleased: released.sort((a, b) => a - b)
		};
		await recordAudit(tx, {
			actorId: userId,
			action: 'study.withdraw',
			objectType: 'study',
			objectId: studyId,
			after: { rater: userId, ...result }
		});
		return result;
	});
}

/** The studies a rater withdrew from (the physician's list marks them). */
export async function withdrawnStudies(db: Db, userId: string): Promise<Set<number>> {
	const rows = await db
		.select({ studyId: studyWithdrawal.studyId })
		.from(studyWithdrawal)
		.where(eq(studyWithdrawal.userId, userId));
	return new Set(rows.map((r) => r.studyId));
}

/** One group of withdrawals that the figures treat alike: same outcome, same consent version. */
export interface WithdrawalGroup {
	/** `excluded`: the judgements are out of every figure; `kept`: they count. */
	outcome: 'excluded' | 'kept';
	/** The consent version that decided it (null: no text was published, so kept). */
	version: number | null;
	/** Whether that version was the study's own text (else the portal's). */
	studyText: boolean;
	/** An exclusion an organiser revoked afterwards puts the judgements back: kept. */
	revoked: boolean;
	raters: number;
	judgements: number;
}

/** What a study's reports say about withdrawn raters. */
export interface WithdrawalSummary {
	raters: number;
	excludedJudgements: number;
	keptJudgements: number;
	groups: WithdrawalGroup[];
}

/**
 * The withdrawals from a study and what the figures did with their judgements: how many raters
 * withdrew, how many judgements were excluded (the policy `exclude`, its exclusion standing) and
 * how many kept, grouped by the consent version that decided it.
 */
export async function withdrawalSummary(db: Db | Tx, studyId: number): Promise<WithdrawalSummary> {
	const rows = rowsOf<{
		policy: WithdrawalPolicy;
		version: number | null;
		study_text: boolean;
		revoked: boolean;
		raters: number;
		judgements: number;
	}>(
		await db.execute(sql`
			select w.policy, c.version, coalesce(c.study_id is not null, false) as study_text,
				coalesce(e.revoked_at is not null, false) as revoked,
				count(*)::int as raters,
				coalesce(sum(${judgementCount(sql`w.user_id`, studyId)}), 0)::int as judgements
			from study_withdrawal w
			left join consent_text c on c.id = w.consent_text_id
			left join exclusion e on e.id = w.exclusion_id
			where w.study_id = ${studyId}
			group by 1, 2, 3, 4
			order by 2 desc nulls last, 1, 4`)
	);
	const groups: WithdrawalGroup[] = rows.map((r) => ({
		outcome: r.policy === 'exclude' && !r.revoked ? 'excluded' : 'kept',
		version: r.version,
		studyText: r.study_text,
		revoked: r.revoked,
		raters: r.raters,
		judgements: r.judgements
	}));
	const sum = (outcome: WithdrawalGroup['outcome']) =>
		groups.filter((g) => g.outcome === outcome).reduce((n, g) => n + g.judgements, 0);
	return {
		raters: groups.reduce((n, g) => n + g.raters, 0),
		excludedJudgements: sum('excluded'),
		keptJudgements: sum('kept'),
		groups
	};
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The one line a report shows, e.g. "2 raters withdrew; 14 judgements excluded as consent
 * version 2 says; 5 kept as version 1 said." Null when nobody withdrew.
 */
export function withdrawalSentence(summary: WithdrawalSummary): string | null {
	if (!summary.raters) return null;
	const parts = summary.groups.map((g) => {
		const which =
			g.version === null
				? null
				: `${g.studyText ? 'the study’s' : 'the portal’s'} consent version ${g.version}`;
		const what = plural(g.judgements, 'judgement');
		if (g.outcome === 'excluded') return `${what} excluded from every figure, as ${which} says`;
		if (g.revoked) return `${what} kept (their exclusion under ${which} was revoked)`;
		return which
			? `${what} kept, as ${which} says`
			: `${what} kept (no consent text was published)`;
	});
	return `${plural(summary.raters, 'rater')} withdrew: ${parts.join('; ')}.`;
}
