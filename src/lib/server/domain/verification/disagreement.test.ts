import { asc, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import type { Verdict } from '../../../constants';
import { dataset, qaItem, type User } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { reviewItem } from '../../fixtures/review-flow';
import { seedItems, seedUsers } from '../../fixtures/review';

type J = { verdict: Verdict; relevance: number };

describeEachDb('disagreement rules (item outcome of two reviews)', (h) => {
	let alice: User;
	let bob: User;
	let itemId: number;
	beforeEach(async () => {
		await seedItems(h.db, 1);
		[alice, bob] = await seedUsers(h.db, 2);
		[{ id: itemId }] = await h.db
			.select({ id: qaItem.id })
			.from(qaItem)
			.orderBy(asc(qaItem.id))
			.limit(1);
	});

	/** The item after a sampled primary review `a` and a secondary review `b`. */
	async function judged(a: J, b: J, rules?: { disagreeOnVerdict: boolean; relevanceGap: number }) {
		if (rules) await h.db.update(dataset).set(rules);
		await reviewItem(h.db, alice.id, itemId, 'primary', { ...a, sampled: true });
		await reviewItem(h.db, bob.id, itemId, 'secondary', b);
		const [item] = await h.db.select().from(qaItem).where(eq(qaItem.id, itemId));
		return {
			status: item.status,
			provenance: item.provenance,
			verdict: item.finalVerdict,
			relevance: item.finalRelevance
		};
	}

	it.each([
		[{ verdict: 'correct', relevance: 5 }, { verdict: 'correct', relevance: 4 }, false],
		[{ verdict: 'correct', relevance: 5 }, { verdict: 'correct', relevance: 3 }, true],
		[{ verdict: 'correct', relevance: 5 }, { verdict: 'incorrect', relevance: 5 }, true],
		[{ verdict: 'cannot_tell', relevance: 2 }, { verdict: 'correct', relevance: 2 }, true]
	] as const)('with the defaults, %o vs %o disagree: %s', async (a, b, expected) => {
		const item = await judged(a, b);
		expect(item.status).toBe(expected ? 'awaiting_adjudication' : 'done');
	});

	it('follows the dataset rules: verdicts ignored, a gap of 3', async () => {
		const rules = { disagreeOnVerdict: false, relevanceGap: 3 };
		expect(
			(
				await judged(
					{ verdict: 'correct', relevance: 5 },
					{ verdict: 'incorrect', relevance: 3 },
					rules
				)
			).status
		).toBe('done');
	});

	it('follows the dataset rules: a gap of 3 is a disagreement', async () => {
		const rules = { disagreeOnVerdict: false, relevanceGap: 3 };
		expect(
			(
				await judged(
					{ verdict: 'correct', relevance: 5 },
					{ verdict: 'correct', relevance: 2 },
					rules
				)
			).status
		).toBe('awaiting_adjudication');
	});

	it('combines agreeing reviews cautiously: the lower relevance', async () => {
		expect(
			await judged({ verdict: 'correct', relevance: 5 }, { verdict: 'correct', relevance: 4 })
		).toEqual({ status: 'done', provenance: 'agreed', verdict: 'correct', relevance: 4 });
	});

	it('combines agreeing reviews cautiously: the more cautious verdict', async () => {
		const rules = { disagreeOnVerdict: false, relevanceGap: 2 };
		expect(
			await judged(
				{ verdict: 'correct', relevance: 5 },
				{ verdict: 'incorrect', relevance: 5 },
				rules
			)
		).toEqual({ status: 'done', provenance: 'agreed', verdict: 'incorrect', relevance: 5 });
	});

	it('combines agreeing reviews cautiously: cannot tell over correct', async () => {
		const rules = { disagreeOnVerdict: false, relevanceGap: 2 };
		expect(
			await judged(
				{ verdict: 'correct', relevance: 3 },
				{ verdict: 'cannot_tell', relevance: 3 },
				rules
			)
		).toEqual({ status: 'done', provenance: 'agreed', verdict: 'cannot_tell', relevance: 3 });
	});
});
