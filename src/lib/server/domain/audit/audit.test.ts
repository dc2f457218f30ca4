import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditEvent } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers } from '../../fixtures/ranking';
import { authenticate, createUser } from '../people/users';
import { FREE_FAILURES } from '../../auth/throttle';
import { recordAudit } from './audit';
import { allAuditEvents, auditFilterSchema, listAuditEvents, type AuditFilter } from './query';
import { AUDIT_CSV_HEADER, auditCsvLine, auditDiff, csvCell, objectHref } from './present';

describe('audit presentation', () => {
	it('neutralises spreadsheet formulas and quotes separators in CSV cells', () => {
		expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
		expect(csvCell('+1')).toBe("'+1");
		expect(csvCell('-2')).toBe("'-2");
		expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
		expect(csvCell('\tx')).toBe("'\tx");
		expect(csvCell('a,b')).toBe('"a,b"');
		expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
		expect(csvCell('plain')).toBe('plain');
		expect(csvCell(null)).toBe('');
		expect(csvCell({ roles: ['reviewer'] })).toBe('"{""roles"":[""reviewer""]}"');
	});

	it('diffs only the fields that changed, and links objects to their pages', () => {
		expect(auditDiff({ roles: ['reviewer'], n: 1 }, { roles: ['organiser'], n: 1 })).toEqual([
			{ key: 'roles', before: '["reviewer"]', after: '["organiser"]' }
		]);
		expect(auditDiff(null, { email: 'a@b.c' })).toEqual([
			{ key: 'email', before: null, after: 'a@b.c' }
		]);
		expect(objectHref({ objectType: 'qa_item', objectId: '12', after: null })).toBe(
			'/admin/items/12'
		);
		expect(objectHref({ objectType: 'review', objectId: '3', after: { itemId: 9 } })).toBe(
			'/admin/items/9'
		);
		expect(objectHref({ objectType: 'sign_in', objectId: 'a@b.c', after: null })).toBeNull();
	});

	it('reads filters from the URL and refuses malformed ones', () => {
		expect(auditFilterSchema.safeParse({ action: 'user.*', from: '', to: '' }).data).toEqual({
			action: 'user.*'
		});
		expect(auditFilterSchema.safeParse({ action: "x'; drop" }).success).toBe(false);
		expect(auditFilterSchema.safeParse({ from: '2030-02-02', to: '2030-01-01' }).success).toBe(
			false
		);
	});
});

describeEachDb('audit log', (h) => {
	let alice: string;
	let bob: string;
	beforeEach(async () => {
		[alice, bob] = await insertUsers(h.db, 2, ['organiser']);
	});

	/** The database's own message when a statement fails (drizzle wraps it as the cause). */
	async function refusal(statement: PromiseLike<unknown>): Promise<string> {
		try {
			await statement;
		} catch (e) {
			return String((e as { cause?: Error }).cause?.message ?? e);
		}
		return 'accepted';
	}

	it('refuses to update or delete an event (append-only in the database)', async () => {
		await recordAudit(h.db, {
			actorId: alice,
			action: 'user.roles',
			objectType: 'user',
			objectId: bob
		});
		expect(
			await refusal(
				h.db.update(auditEvent).set({ action: 'user.create' }).where(eq(auditEvent.objectId, bob))
			)
		).toMatch(/append-only: UPDATE/);
		expect(await refusal(h.db.delete(auditEvent).where(eq(auditEvent.objectId, bob)))).toMatch(
			/append-only: DELETE/
		);
		expect(await refusal(h.db.execute(sql`truncate audit_event`))).toMatch(/append-only: TRUNCATE/);
		const rows = await h.db.select().from(auditEvent).where(eq(auditEvent.objectId, bob));
		expect(rows).toHaveLength(1);
		expect(rows[0].action).toBe('user.roles');
	});

	it('filters by action, family, actor, object and dates, newest first, keyset-paged', async () => {
		const at = (d: string) => new Date(d);
		const rows = [
			{
				actorId: alice,
				action: 'user.roles',
				objectId: 'u1',
				createdAt: at('2030-01-01T10:00:00Z')
			},
			{
				actorId: bob,
				action: 'user.deactivate',
				objectId: 'u2',
				createdAt: at('2030-01-02T10:00:00Z')
			},
			{
				actorId: alice,
				action: 'invitation.revoke',
				objectId: 'i1',
				createdAt: at('2030-01-03T23:59:00Z')
			},
			{
				actorId: null,
				action: 'auth.sign_in_burst',
				objectId: 'x@y.z',
				createdAt: at('2030-01-04T00:00:00Z')
			},
			{ actorId: bob, action: 'user.roles', objectId: 'u1', createdAt: at('2030-01-05T10:00:00Z') }
		];
		await h.db.insert(auditEvent).values(rows.map((r) => ({ ...r, objectType: 'user' })));
		const ids = async (f: Partial<AuditFilter>) =>
			(await listAuditEvents(h.db, f as AuditFilter)).events
				.filter((e) => e.createdAt.getUTCFullYear() === 2030)
				.map((e) => `${e.action}:${e.objectId}`);

		expect(await ids({ action: 'user.roles' })).toEqual(['user.roles:u1', 'user.roles:u1']);
		expect(await ids({ action: 'user.*' })).toEqual([
			'user.roles:u1',
			'user.deactivate:u2',
			'user.roles:u1'
		]);
		expect(await ids({ action: 'invitation' })).toEqual(['invitation.revoke:i1']);
		expect(await ids({ actor: bob })).toEqual(['user.roles:u1', 'user.deactivate:u2']);
		expect(await ids({ actor: 'system' })).toEqual(['auth.sign_in_burst:x@y.z']);
		expect(await ids({ objectType: 'user', objectId: 'u1' })).toEqual([
			'user.roles:u1',
			'user.roles:u1'
		]);
		// Whole UTC days, both ends included.
		expect(await ids({ from: '2030-01-02', to: '2030-01-03' })).toEqual([
			'invitation.revoke:i1',
			'user.deactivate:u2'
		]);

		const first = await listAuditEvents(h.db, { from: '2030-01-01' }, null, 2);
		expect(first.events.map((e) => e.objectId)).toEqual(['u1', 'x@y.z']);
		expect(first).toMatchObject({ hasOlder: true, hasNewer: false });
		const second = await listAuditEvents(
			h.db,
			{ from: '2030-01-01' },
			{ older: first.events[1].id },
			2
		);
		expect(second.events.map((e) => e.objectId)).toEqual(['i1', 'u2']);
		expect(second).toMatchObject({ hasOlder: true, hasNewer: true });
		const back = await listAuditEvents(
			h.db,
			{ from: '2030-01-01' },
			{ newer: second.events[0].id },
			2
		);
		expect(back.events.map((e) => e.objectId)).toEqual(['u1', 'x@y.z']);
		expect(back).toMatchObject({ hasOlder: true, hasNewer: false });
		const last = await listAuditEvents(
			h.db,
			{ from: '2030-01-01' },
			{ older: second.events[1].id },
			2
		);
		expect(last.events.map((e) => e.objectId)).toEqual(['u1']);
		expect(last).toMatchObject({ hasOlder: false, hasNewer: true });
		expect(last.events[0].actor?.id).toBe(alice);
	});

	it('exports exactly the filtered events as injection-safe CSV, in batches', async () => {
		await h.db.insert(auditEvent).values(
			Array.from({ length: 5 }, (_, i) => ({
				actorId: alice,
				action: 'user.roles',
				objectType: 'user',
				objectId: i === 0 ? '=cmd|calc' : `u${i}`,
				after: { roles: ['reviewer'] },
				createdAt: new Date(`2030-01-0${i + 1}T12:00:00Z`)
			}))
		);
		await recordAudit(h.db, {
			actorId: bob,
			action: 'user.create',
			objectType: 'user',
			objectId: 'other'
		});
		const lines: string[] = [];
		for await (const batch of allAuditEvents(h.db, { actor: alice }, 2))
			lines.push(...batch.map(auditCsvLine));
		expect(lines).toHaveLength(5);
		expect(AUDIT_CSV_HEADER[1]).toBe('time_utc');
		const cells = lines[4].trimEnd().split(',');
		expect(cells[1]).toBe('2030-01-01T12:00:00.000Z');
		expect(cells[5]).toBe('user.roles');
		expect(cells[6]).toBe('Roles changed');
		expect(cells[8]).toBe("'=cmd|calc");
		expect(lines[4]).toContain('"{""roles"":[""reviewer""]}"');
		expect(lines.every((l) => !l.includes(',other,'))).toBe(true);
	});

	it('writes one event for a burst of failed sign-ins, with the email and count, never the password', async () => {
		await createUser(h.db, {
			email: 'ana@example.org',
			displayName: 'Ana',
			roles: ['reviewer'],
			password: 'correct horse battery'
		});
		for (let i = 0; i < FREE_FAILURES + 4; i++)
			await authenticate(h.db, ' ANA@example.org', `guess-${i}-secret`, '10.0.0.7');
		const events = await h.db
			.select()
			.from(auditEvent)
			.where(eq(auditEvent.action, 'auth.sign_in_burst'));
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({
			actorId: null,
			objectType: 'sign_in',
			objectId: 'ana@example.org',
			after: { scope: 'account_address', email: 'ana@example.org', failures: FREE_FAILURES }
		});
		const text = JSON.stringify(events[0]);
		expect(text).not.toContain('secret');
		expect(text).not.toContain('10.0.0.7');
	});
});
