import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { auditEvent, passwordReset, session, user } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers } from '../../fixtures/ranking';
import { createSession, validateSessionToken } from '../../auth/session';
import {
	invitationLinkState,
	listInvitations,
	resendInvitation,
	revokeInvitation
} from './invitations';
import { findPasswordReset, issuePasswordReset, usePasswordReset } from './password-reset';
import { returnLeasedTasks } from '../review/queue';
import { releasePhysicianLeases } from '../studies/queue';
import { deactivateUser } from './accounts';
import {
	acceptInvitation,
	authenticate,
	createInvitation,
	createUser,
	findInvitation
} from './users';

const HOUR = 3_600_000;
const STRONG = 'violet tractor harbour nine';

const refusal = (code: string, message: RegExp) =>
	expect.objectContaining({ name: 'DomainError', code, message: expect.stringMatching(message) });

describeEachDb('invitations', (h) => {
	let organiser: string;
	const t0 = new Date('2030-03-01T09:00:00Z');
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
	});
	const invite = (email = 'new@example.org', validHours = 48) =>
		createInvitation(
			h.db,
			{ email, displayName: 'New', roles: ['reviewer'], validHours },
			organiser,
			t0
		);

	it('lists open invitations with who invited and the expiry, marking the expired ones', async () => {
		await invite('a@example.org', 1);
		await invite('b@example.org', 48);
		const later = new Date(t0.getTime() + 2 * HOUR);
		const rows = await listInvitations(h.db, later);
		expect(rows.map((r) => [r.email, r.expired])).toEqual(
			expect.arrayContaining([
				['a@example.org', true],
				['b@example.org', false]
			])
		);
		expect(rows[0].invitedBy.pseudonym).toMatch(/^P-/);
		expect(rows.find((r) => r.email === 'b@example.org')!.expiresAt).toEqual(
			new Date(t0.getTime() + 48 * HOUR)
		);
		expect(await invitationLinkState(h.db, 'no-such-token', later)).toBe('unknown');
	});

	it('revokes: the link stops working at once and says it was revoked', async () => {
		const { token } = await invite();
		const [row] = await listInvitations(h.db, t0);
		await revokeInvitation(h.db, row.id, organiser, t0);
		expect(await findInvitation(h.db, token, t0)).toBeNull();
		expect(await invitationLinkState(h.db, token, t0)).toBe('revoked');
		await expect(acceptInvitation(h.db, token, STRONG, t0)).rejects.toEqual(
			refusal('not_found', /invalid, used or expired/)
		);
		expect(await listInvitations(h.db, t0)).toHaveLength(0);
		await expect(revokeInvitation(h.db, row.id, organiser, t0)).rejects.toEqual(
			refusal('conflict', /revoked/)
		);
		const [event] = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'invitation.revoke'));
		expect(event).toMatchObject({ actorId: organiser, objectId: row.id });
	});

	it('resends: a fresh link with a fresh expiry; the old link stops working', async () => {
		const { token: old } = await invite('x@example.org', 1);
		const [row] = await listInvitations(h.db, t0);
		const later = new Date(t0.getTime() + 5 * HOUR);
		expect(await invitationLinkState(h.db, old, later)).toBe('expired');
		const fresh = await resendInvitation(h.db, row.id, organiser, later);
		expect(fresh.token).not.toBe(old);
		expect(fresh.expiresAt).toEqual(new Date(later.getTime() + HOUR));
		expect(await invitationLinkState(h.db, old, later)).toBe('unknown');
		expect(await findInvitation(h.db, fresh.token, later)).toMatchObject({ id: row.id });
		const created = await acceptInvitation(h.db, fresh.token, STRONG, later);
		expect(created.email).toBe('x@example.org');
		expect(await invitationLinkState(h.db, fresh.token, later)).toBe('used');
		await expect(resendInvitation(h.db, row.id, organiser, later)).rejects.toEqual(
			refusal('conflict', /already accepted/)
		);
		const actions = await h.db
			.select({ action: auditEvent.action })
			.from(auditEvent)
			.where(eq(auditEvent.objectId, row.id))
			.orderBy(auditEvent.id);
		expect(actions.map((a) => a.action)).toEqual([
			'invitation.create',
			'invitation.resend',
			'invitation.accept'
		]);
	});
});

describeEachDb('password-reset links', (h) => {
	let organiser: string;
	let anaId: string;
	beforeEach(async () => {
		[organiser] = await insertUsers(h.db, 1, ['organiser']);
		anaId = (
			await createUser(h.db, {
				email: 'ana@example.org',
				displayName: 'Ana',
				roles: ['reviewer'],
				password: 'correct horse battery'
			})
		).id;
	});

	it('sets a new password once, ends every session, and stores only a hash', async () => {
		const s1 = await createSession(h.db, anaId);
		const s2 = await createSession(h.db, anaId);
		const { token } = await issuePasswordReset(h.db, anaId, organiser);
		const [stored] = await h.db.select().from(passwordReset);
		expect(stored.tokenHash).not.toContain(token);
		expect(await findPasswordReset(h.db, token)).toMatchObject({ email: 'ana@example.org' });

		await expect(usePasswordReset(h.db, token, 'password1234')).rejects.toEqual(
			refusal('invalid', /too easy to guess/)
		);
		await usePasswordReset(h.db, token, STRONG);
		expect(await validateSessionToken(h.db, s1.token)).toBeNull();
		expect(await validateSessionToken(h.db, s2.token)).toBeNull();
		expect(await h.db.select().from(session).where(eq(session.userId, anaId))).toHaveLength(0);
		expect(await authenticate(h.db, 'ana@example.org', STRONG, '10.0.0.1')).toMatchObject({
			ok: true
		});
		expect(
			await authenticate(h.db, 'ana@example.org', 'correct horse battery', '10.0.0.2')
		).toMatchObject({ ok: false });
		// Single use.
		expect(await findPasswordReset(h.db, token)).toBeNull();
		await expect(usePasswordReset(h.db, token, 'another violet tractor')).rejects.toEqual(
			refusal('not_found', /invalid, used or expired/)
		);
		const events = await h.db
			.select({ action: auditEvent.action, actorId: auditEvent.actorId, after: auditEvent.after })
			.from(auditEvent)
			.where(eq(auditEvent.objectId, anaId))
			.orderBy(auditEvent.id);
		expect(events.map((e) => e.action)).toEqual([
			'user.create',
			'user.password_reset',
			'user.password_reset_use'
		]);
		expect(events[2]).toMatchObject({ actorId: anaId, after: { sessionsEnded: 2 } });
		expect(JSON.stringify(events)).not.toContain(STRONG);
	});

	it('expires, is replaced by a newer link, and is refused for a deactivated account', async () => {
		const t0 = new Date('2030-03-01T09:00:00Z');
		const first = await issuePasswordReset(h.db, anaId, organiser, t0);
		expect(
			await findPasswordReset(h.db, first.token, new Date(t0.getTime() + 25 * HOUR))
		).toBeNull();
		const second = await issuePasswordReset(h.db, anaId, organiser, t0);
		expect(await findPasswordReset(h.db, first.token, t0)).toBeNull();
		expect(await findPasswordReset(h.db, second.token, t0)).not.toBeNull();
		await deactivateUser(
			h.db,
			anaId,
			organiser,
			{ reviewTasks: returnLeasedTasks, rankingLeases: releasePhysicianLeases },
			t0
		);
		expect(await findPasswordReset(h.db, second.token, t0)).toBeNull();
		await expect(issuePasswordReset(h.db, anaId, organiser, t0)).rejects.toEqual(
			refusal('conflict', /deactivated/)
		);
		const [row] = await h.db
			.select({ hash: user.passwordHash })
			.from(user)
			.where(eq(user.id, anaId));
		expect(row.hash).toMatch(/^\$argon2id\$/);
	});
});
