import { and, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import {
	assignment,
	auditEvent,
	consentAcceptance,
	exclusion,
	studyWithdrawal
} from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { seedUsers } from '../../fixtures/review';
import { DomainError } from '../../errors';
import { claimNext as claimReview } from '../review/queue';
import { claimNext, releaseStudyLeases } from '../studies/queue';
import { changeStudyState, createStudy } from '../studies/studies';
import {
	acceptConsent,
	consentGate,
	consentHistory,
	pendingConsents,
	publishConsent
} from './consent';
import {
	withdrawalPreview,
	withdrawalSentence,
	withdrawalSummary,
	withdrawFromStudy
} from './withdrawal';

const text = (withdrawnJudgements: 'keep' | 'exclude', studyId: number | null = null) => ({
	studyId,
	title: 'Information and consent',
	body: 'You take part **voluntarily**.\n\n- You may withdraw at any time',
	withdrawnJudgements
});

describeEachDb('consent and withdrawal', (h) => {
	let organiser: string;
	let doctors: string[];
	let studyId: number;

	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		doctors = await insertUsers(h.db, 2, ['physician']);
		const { modelIds } = await seedRankingContent(h.db, {
			count: 3,
			models: ['alpha-7b', 'beta-13b']
		});
		const study = await createStudy(
			h.db,
			{ name: 'Consent study', selection: { types: [] }, modelIds, ratersPerQuestion: 2 },
			organiser
		);
		await changeStudyState(h.db, study.id, 'open', organiser);
		studyId = study.id;
	});

	it('asks nothing and refuses no claim when no text was ever published', async () => {
		expect(await pendingConsents(h.db, doctors[0], studyId)).toEqual([]);
		expect(await consentGate(h.db, doctors[0])).toBeNull();
		expect((await claimNext(h.db, studyId, doctors[0])).status).toBe('assigned');
		expect(await consentHistory(h.db)).toEqual([]);
	});

	it('numbers versions per scope and asks again for each new version', async () => {
		const v1 = await publishConsent(h.db, text('keep'), organiser);
		const s1 = await publishConsent(h.db, text('exclude', studyId), organiser);
		const v2 = await publishConsent(h.db, text('exclude'), organiser);
		expect([v1.version, s1.version, v2.version]).toEqual([1, 1, 2]);

		// Portal first, then the study's own text; only the newest portal version is asked.
		expect((await pendingConsents(h.db, doctors[0], studyId)).map((c) => c.id)).toEqual([
			v2.id,
			s1.id
		]);
		expect((await pendingConsents(h.db, doctors[0])).map((c) => c.id)).toEqual([v2.id]);
		expect(await consentGate(h.db, doctors[0])).toEqual({ consentTextId: v2.id, studyId: null });

		await acceptConsent(h.db, doctors[0], v2.id);
		expect((await pendingConsents(h.db, doctors[0], studyId)).map((c) => c.id)).toEqual([s1.id]);
		// The study's text is asked before the first claim in it, not on every rater page.
		expect(await consentGate(h.db, doctors[0])).toBeNull();
		expect(await claimNext(h.db, studyId, doctors[0])).toEqual({
			status: 'none',
			reason: 'consent_pending'
		});
		await acceptConsent(h.db, doctors[0], s1.id);
		expect((await claimNext(h.db, studyId, doctors[0])).status).toBe('assigned');

		// A new study version while they hold a lease: every rater page asks again.
		const s2 = await publishConsent(h.db, text('keep', studyId), organiser);
		expect(s2.version).toBe(2);
		expect(await consentGate(h.db, doctors[0])).toEqual({ consentTextId: s2.id, studyId });

		// A third portal version asks again, and the acceptance of v2 stays on record.
		const v3 = await publishConsent(h.db, text('keep'), organiser);
		expect((await pendingConsents(h.db, doctors[0])).map((c) => c.version)).toEqual([3]);
		const accepted = await h.db
			.select()
			.from(consentAcceptance)
			.where(eq(consentAcceptance.userId, doctors[0]));
		expect(accepted.map((a) => a.consentTextId).sort()).toEqual([v2.id, s1.id].sort());
		expect(accepted.every((a) => a.acceptedAt instanceof Date)).toBe(true);

		const history = await consentHistory(h.db);
		expect(history.map((s) => [s.studyId, s.versions.map((v) => v.version)])).toEqual([
			[null, [3, 2, 1]],
			[studyId, [2, 1]]
		]);
		expect(history[0].versions.map((v) => v.acceptances)).toEqual([0, 1, 0]);
		expect(history[0].notYetAcceptedCount).toBe(2);
		expect(v3.withdrawnJudgements).toBe('keep');
	});

	it('accepts only the newest version, once, and audits it', async () => {
		const v1 = await publishConsent(h.db, text('keep'), organiser);
		const v2 = await publishConsent(h.db, text('keep'), organiser);
		await expect(acceptConsent(h.db, doctors[0], v1.id)).rejects.toThrow(/Version 2/);
		expect(await acceptConsent(h.db, doctors[0], v2.id)).toEqual({ accepted: true });
		expect(await acceptConsent(h.db, doctors[0], v2.id)).toEqual({ accepted: false });
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'consent.accept'));
		expect(events).toHaveLength(1);
		expect(await pendingConsents(h.db, doctors[0])).toEqual([]);
	});

	it('refuses a reviewer’s claim while the portal text is pending', async () => {
		const [reviewer] = await seedUsers(h.db, 1, ['reviewer']);
		const v1 = await publishConsent(h.db, text('keep'), organiser);
		await expect(claimReview(h.db, reviewer.id)).rejects.toBeInstanceOf(DomainError);
		await acceptConsent(h.db, reviewer.id, v1.id);
		// Nothing to review in this database: the claim runs and finds no task.
		expect(await claimReview(h.db, reviewer.id)).toBeNull();
	});

	it('under "exclude" adds the exclusion and releases the lease in one transaction', async () => {
		const v1 = await publishConsent(h.db, text('exclude'), organiser);
		await acceptConsent(h.db, doctors[0], v1.id);
		// One judgement made (its assignment marked submitted, as a submission leaves it) and a
		// second question leased.
		const first = await claimNext(h.db, studyId, doctors[0]);
		if (first.status !== 'assigned') throw new Error('no claim');
		await h.db
			.update(assignment)
			.set({ state: 'submitted', submittedAt: new Date(), leaseExpiresAt: null })
			.where(eq(assignment.publicId, first.publicId));
		expect((await claimNext(h.db, studyId, doctors[0])).status).toBe('assigned');
		const preview = await withdrawalPreview(h.db, doctors[0], studyId);
		expect(preview).toMatchObject({
			policy: 'exclude',
			consent: { version: 1 },
			withdrawnAt: null,
			judgements: 1
		});

		const done = await withdrawFromStudy(h.db, doctors[0], studyId, releaseStudyLeases);
		expect(done).toMatchObject({ policy: 'exclude', consentVersion: 1, judgements: 1 });
		expect(done.assignmentsReleased).toHaveLength(1);
		const [excluded] = await h.db.select().from(exclusion).where(eq(exclusion.raterId, doctors[0]));
		expect(excluded).toMatchObject({
			id: done.exclusionId,
			studyId,
			source: 'withdrawal',
			fromAt: null,
			untilAt: null,
			revokedAt: null
		});
		expect(excluded.reason).toContain('version 1 excludes withdrawn judgements');
		const states = await h.db
			.select({ state: assignment.state })
			.from(assignment)
			.where(eq(assignment.physicianId, doctors[0]));
		// The lease ended now and the study's sweep gave the question back.
		expect(states.map((a) => a.state).sort()).toEqual(['expired', 'submitted']);

		// Withdrawn: no more claims in this study, and no second withdrawal.
		expect(await claimNext(h.db, studyId, doctors[0])).toEqual({
			status: 'none',
			reason: 'withdrawn'
		});
		await expect(withdrawFromStudy(h.db, doctors[0], studyId, releaseStudyLeases)).rejects.toThrow(
			/already withdrawn/
		);
		expect(await h.db.select().from(exclusion)).toHaveLength(1);

		const summary = await withdrawalSummary(h.db, studyId);
		expect(summary).toMatchObject({ raters: 1, excludedJudgements: 1, keptJudgements: 0 });
		expect(withdrawalSentence(summary)).toBe(
			'1 rater withdrew: 1 judgement excluded from every figure, as the portal’s consent version 1 says.'
		);
	});

	it('under "keep" records the withdrawal without an exclusion; a failing step undoes it all', async () => {
		const v1 = await publishConsent(h.db, text('keep'), organiser);
		for (const d of doctors) await acceptConsent(h.db, d, v1.id);
		await claimNext(h.db, studyId, doctors[1]);
		await expect(
			withdrawFromStudy(h.db, doctors[1], studyId, async () => {
				throw new Error('release failed');
			})
		).rejects.toThrow('release failed');
		expect(await h.db.select().from(studyWithdrawal)).toEqual([]);

		const done = await withdrawFromStudy(h.db, doctors[1], studyId, releaseStudyLeases);
		expect(done).toMatchObject({ policy: 'keep', exclusionId: null, consentVersion: 1 });
		expect(await h.db.select().from(exclusion)).toEqual([]);
		const [row] = await h.db
			.select()
			.from(studyWithdrawal)
			.where(and(eq(studyWithdrawal.studyId, studyId), eq(studyWithdrawal.userId, doctors[1])));
		expect(row).toMatchObject({ policy: 'keep', consentTextId: v1.id, exclusionId: null });
		expect(withdrawalSentence(await withdrawalSummary(h.db, studyId))).toBe(
			'1 rater withdrew: 0 judgements kept, as the portal’s consent version 1 says.'
		);
	});

	it('follows the study’s own text over the portal’s, and keeps with no text at all', async () => {
		await withdrawFromStudy(h.db, doctors[0], studyId, releaseStudyLeases);
		await publishConsent(h.db, text('keep'), organiser);
		await publishConsent(h.db, text('exclude', studyId), organiser);
		const done = await withdrawFromStudy(h.db, doctors[1], studyId, releaseStudyLeases);
		expect(done).toMatchObject({ policy: 'exclude', consentVersion: 1 });
		const summary = await withdrawalSummary(h.db, studyId);
		expect(summary.raters).toBe(2);
		expect(withdrawalSentence(summary)).toBe(
			'2 raters withdrew: 0 judgements excluded from every figure, as the study’s consent version 1 says; 0 judgements kept (no consent text was published).'
		);
	});
});
