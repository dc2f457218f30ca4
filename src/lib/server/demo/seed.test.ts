import { expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import {
	application,
	consentAcceptance,
	consentText,
	institution,
	qaItem,
	study,
	review,
	user
} from '../db/schema';
import { describeEachDb } from '../db/testing';
import { DEMO_ACCOUNTS, DEMO_INSTITUTION, ensureDemoData } from './seed';

describeEachDb('first-start demo seed', (h) => {
	it('creates the demo accounts and judgements once, printing each password once', async () => {
		const lines: string[] = [];
		expect(await ensureDemoData(h.db, { print: (l) => lines.push(l) })).toBe(true);
		for (const a of DEMO_ACCOUNTS)
			expect(lines.filter((l) => l.includes(a.email) && /demo-\w{12}/.test(l))).toHaveLength(1);
		expect(DEMO_ACCOUNTS.filter((a) => a.roles.includes('physician'))).toHaveLength(3);
		const [{ reviews }] = await h.db.select({ reviews: count() }).from(review);
		expect(reviews).toBeGreaterThan(0);
		expect(await h.db.select({ state: study.state }).from(study)).toHaveLength(7);
		// Consent version 1 is published and every demo rater has accepted it, so the demo's
		// queues open without a detour.
		const texts = await h.db.select().from(consentText);
		expect(texts.map((t) => [t.studyId, t.version])).toEqual([[null, 1]]);
		const [{ accepted }] = await h.db.select({ accepted: count() }).from(consentAcceptance);
		expect(accepted).toBe(DEMO_ACCOUNTS.filter((a) => !a.roles.includes('organiser')).length);
		// A database that has accounts is left alone.
		expect(await ensureDemoData(h.db, { print: (l) => lines.push(l) })).toBe(false);
		const [{ users }] = await h.db.select({ users: count() }).from(user);
		expect(users).toBe(DEMO_ACCOUNTS.length);
		// The demo institution: its lead, and one application waiting for them.
		const [lead] = await h.db
			.select({ institution: institution.name, roles: user.roles })
			.from(user)
			.innerJoin(institution, eq(institution.id, user.institutionId))
			.where(eq(user.email, 'lead@demo.test'));
		expect(lead).toEqual({ institution: DEMO_INSTITUTION.name, roles: ['institution_lead'] });
		const pending = await h.db.select().from(application);
		expect(pending).toMatchObject([
			{ status: 'pending', role: 'physician', specialty: 'Cardiology' }
		]);
	});

	it('imports only the content and accounts when judgements are not wanted', async () => {
		await ensureDemoData(h.db, { print: () => {} }, { judgements: false });
		const [{ items }] = await h.db.select({ items: count() }).from(qaItem);
		const [{ reviews }] = await h.db.select({ reviews: count() }).from(review);
		expect({ items, reviews }).toEqual({ items: 21, reviews: 0 });
		expect(await h.db.select().from(study)).toEqual([]);
	});
});
