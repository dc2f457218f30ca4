import { eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import type { RequestEvent } from '@sveltejs/kit';
import { createSession, SESSION_COOKIE, SESSION_LIFETIME_MS } from '../auth/session';
import { setDatabase } from '../db';
import { session } from '../db/schema';
import { describeEachDb } from '../db/testing';
import { createUser } from '../domain/people/users';
import { authHandle } from './auth';

const DAY = 86_400_000;

/** A request carrying `token` as its session cookie; records what the hook writes back. */
function requestWith(token: string | undefined) {
	const written: { name: string; value: string; expires?: Date }[] = [];
	const deleted: string[] = [];
	const event = {
		cookies: {
			get: (name: string) => (name === SESSION_COOKIE ? token : undefined),
			set: (name: string, value: string, options: { expires?: Date }) =>
				written.push({ name, value, expires: options.expires }),
			delete: (name: string) => deleted.push(name)
		},
		locals: {}
	} as unknown as RequestEvent;
	return { event, written, deleted };
}

async function handle(event: RequestEvent) {
	return authHandle({ event, resolve: async () => new Response('ok') });
}

describeEachDb('the session hook', (h) => {
	let userId: string;
	beforeEach(async () => {
		setDatabase(h);
		const u = await createUser(h.db, {
			email: 'rita@example.org',
			displayName: 'Rita',
			roles: ['reviewer'],
			password: 'correct horse battery'
		});
		userId = u.id;
	});

	it('signs the request in without writing the session or its cookie in the first week', async () => {
		const { token, session: created } = await createSession(h.db, userId);
		for (let i = 0; i < 3; i++) {
			const { event, written, deleted } = requestWith(token);
			await handle(event);
			expect(event.locals.user).toMatchObject({ id: userId, roles: ['reviewer'] });
			expect(event.locals.session?.id).toBe(created.id);
			expect(written).toEqual([]);
			expect(deleted).toEqual([]);
		}
		const [row] = await h.db.select().from(session).where(eq(session.id, created.id));
		expect(row.expiresAt.getTime()).toBe(created.expiresAt.getTime());
	});

	it('slides a session used in its second week forward, in the database and in the cookie', async () => {
		const start = new Date(Date.now() - 10 * DAY);
		const { token, session: created } = await createSession(h.db, userId, start);
		const { event, written } = requestWith(token);
		const before = Date.now();
		await handle(event);
		expect(event.locals.user?.id).toBe(userId);
		expect(written).toHaveLength(1);
		expect(written[0]).toMatchObject({ name: SESSION_COOKIE, value: token });
		const [row] = await h.db.select().from(session).where(eq(session.id, created.id));
		expect(row.expiresAt.getTime()).toBe(written[0].expires!.getTime());
		expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_LIFETIME_MS);
	});

	it('treats a forged or ended session as signed out and clears its cookie', async () => {
		const { token } = await createSession(h.db, userId);
		const forged = requestWith(`${token.split('.')[0]}.forgedsecret`);
		await handle(forged.event);
		expect(forged.event.locals.user).toBeNull();
		expect(forged.deleted).toEqual([SESSION_COOKIE]);

		await h.db.delete(session);
		const ended = requestWith(token);
		await handle(ended.event);
		expect(ended.event.locals.user).toBeNull();
		expect(ended.event.locals.session).toBeNull();
		expect(ended.deleted).toEqual([SESSION_COOKIE]);
	});

	it('leaves a request without a cookie signed out', async () => {
		const { event, written, deleted } = requestWith(undefined);
		await handle(event);
		expect(event.locals.user).toBeNull();
		expect([written, deleted]).toEqual([[], []]);
	});
});
