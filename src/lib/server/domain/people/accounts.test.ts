import { and, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { assignment, auditEvent, reviewTask, session, studyQuestion, user } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { DomainError } from '../../errors';
import { seedItems, seedUsers } from '../../fixtures/review';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { createSession, validateSessionToken } from '../../auth/session';
import { claimNext as claimReview, queueStats, returnLeasedTasks } from '../review/queue';
import { claimNext as claimRanking, releasePhysicianLeases } from '../studies/queue';
import { changeStudyState, createStudy } from '../studies/studies';
import { deactivateUser, reactivateUser, type LeasedWork } from './accounts';
import { authenticate, createUser, setRoles } from './users';

// The work review and ranking lease out, as the users page hands it to a deactivation.
const work: LeasedWork = { reviewTasks: returnLeasedTasks, rankingLeases: releasePhysicianLeases };

const refusal = (code: string, message: RegExp) =>
	expect.objectContaining({ name: 'DomainError', code, message: expect.stringMatching(message) });

describeEachDb('account deactivation and roles', (h) => {
	let organiser: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
	});

	it('ends the sessions and returns the review lease, claimable by another reviewer at once', async () => {
		await seedItems(h.db, 1);
		const [ana, ben] = await seedUsers(h.db, 2);
		const { token } = await createSession(h.db, ana.id);
		const lease = await claimReview(h.db, ana.id);
		expect(lease).toBeTruthy();
		const pendingBefore = (await queueStats(h.db, ben.id)).primary;

		const done = await deactivateUser(h.db, ana.id, organiser, work);
		expect(done).toEqual({
			sessionsEnded: 1,
			reviewTasksReturned: [lease!.taskId],
			assignmentsReleased: []
		});
		expect(await validateSessionToken(h.db, token)).toBeNull();
		expect(await h.db.select().from(session).where(eq(session.userId, ana.id))).toHaveLength(0);
		const [task] = await h.db.select().from(reviewTask).where(eq(reviewTask.id, lease!.taskId));
		expect(task).toMatchObject({ state: 'pending', leasedBy: null, leaseExpiresAt: null });
		expect((await queueStats(h.db, ben.id)).primary).toBe(pendingBefore + 1);
		// The returned item is first in queue order again, so the next reviewer gets that very one.
		expect((await claimReview(h.db, ben.id))?.taskId).toBe(lease!.taskId);

		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'user.deactivate'));
		expect(event).toMatchObject({ actorId: organiser, objectType: 'user', objectId: ana.id });
		expect(event.after).toMatchObject({ active: false, reviewTasksReturned: [lease!.taskId] });
	});

	it('releases a ranking lease: the slot reopens and another physician can take the question', async () => {
		const [first, second] = await insertUsers(h.db, 2, ['physician']);
		const { modelIds } = await seedRankingContent(h.db, { count: 1, models: ['a-1b', 'b-2b'] });
		const study = await createStudy(
			h.db,
			{ name: 'One question', selection: { types: [] }, modelIds, ratersPerQuestion: 1 },
			organiser,
			{ confirm: true }
		);
		await changeStudyState(h.db, study.id, 'open', organiser, { confirm: true });
		const held = await claimRanking(h.db, study.id, first);
		expect(held.status).toBe('assigned');
		// k = 1: the only slot is taken, so nobody else gets work while the lease lasts.
		expect((await claimRanking(h.db, study.id, second)).status).toBe('none');

		const done = await deactivateUser(h.db, first, organiser, work);
		expect(done.assignmentsReleased).toHaveLength(1);
		const [released] = await h.db
			.select()
			.from(assignment)
			.where(eq(assignment.physicianId, first));
		expect(released.state).toBe('expired');
		const [q] = await h.db.select().from(studyQuestion);
		expect(q.openSlots).toBe(1);
		const taken = await claimRanking(h.db, study.id, second);
		expect(taken.status).toBe('assigned');
		const [theirs] = await h.db
			.select()
			.from(assignment)
			.where(and(eq(assignment.physicianId, second), eq(assignment.state, 'leased')));
		expect(theirs.studyQuestionId).toBe(released.studyQuestionId);
	});

	it('refuses sign-in to a deactivated account, and lets it back in once reactivated', async () => {
		const ana = await createUser(h.db, {
			email: 'ana@example.org',
			displayName: 'Ana',
			roles: ['reviewer'],
			password: 'correct horse battery'
		});
		await deactivateUser(h.db, ana.id, organiser, work);
		expect(
			await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.1')
		).toEqual({ ok: false, reason: 'disabled' });
		// A wrong password learns nothing more than for any other account.
		expect(await authenticate(h.db, 'ana@example.org', 'wrong', '10.0.0.1')).toEqual({
			ok: false,
			reason: 'invalid'
		});
		await expect(deactivateUser(h.db, ana.id, organiser, work)).rejects.toEqual(
			refusal('conflict', /already deactivated/)
		);
		await reactivateUser(h.db, ana.id, organiser);
		expect(
			await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.1')
		).toMatchObject({ ok: true });
		await expect(reactivateUser(h.db, ana.id, organiser)).rejects.toEqual(
			refusal('conflict', /already active/)
		);
		const actions = await h.db
			.select({ action: auditEvent.action })
			.from(auditEvent)
			.where(eq(auditEvent.objectId, ana.id))
			.orderBy(auditEvent.id);
		expect(actions.map((a) => a.action)).toEqual([
			'user.create',
			'user.deactivate',
			'user.reactivate'
		]);
	});

	it('gives back leased work inside its transaction: a failing step leaves the account active', async () => {
		const [ana] = await insertUsers(h.db, 1, ['physician']);
		const failing: LeasedWork = {
			...work,
			rankingLeases: async () => {
				throw new Error('step failed');
			}
		};
		await expect(deactivateUser(h.db, ana, organiser, failing)).rejects.toThrow('step failed');
		const [row] = await h.db.select().from(user).where(eq(user.id, ana));
		expect(row.disabledAt).toBeNull();
		expect(await h.db.select().from(auditEvent).where(eq(auditEvent.objectId, ana))).toEqual([]);
	});

	it('keeps the last active organiser: no self-deactivation, no dropping the role', async () => {
		await expect(deactivateUser(h.db, organiser, organiser, work)).rejects.toEqual(
			refusal('forbidden', /last active organiser/)
		);
		await expect(setRoles(h.db, organiser, ['reviewer'], organiser)).rejects.toEqual(
			refusal('forbidden', /last active organiser/)
		);
		// With a second organiser, the first may step down.
		const [other] = await insertUsers(h.db, 1, ['organiser']);
		await setRoles(h.db, organiser, ['reviewer'], organiser);
		await expect(deactivateUser(h.db, other, other, work)).rejects.toBeInstanceOf(DomainError);
	});

	it('audits a role change with the roles before and after, and nothing when nothing changed', async () => {
		const [ana] = await seedUsers(h.db, 1);
		await setRoles(h.db, ana.id, ['reviewer', 'adjudicator'], organiser);
		await setRoles(h.db, ana.id, ['adjudicator', 'reviewer'], organiser);
		const events = await h.db.select().from(auditEvent).where(eq(auditEvent.action, 'user.roles'));
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({
			actorId: organiser,
			objectId: ana.id,
			before: { roles: ['reviewer'] },
			after: { roles: ['reviewer', 'adjudicator'] }
		});
	});
});
