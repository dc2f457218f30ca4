import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { study } from '../db/schema';
import { describeEachDb } from '../db/testing';
import { insertUsers } from '../fixtures/ranking';
import {
	goldAccuracy,
	listReviewGold,
	qualificationStatus,
	reviewerRoundSettings
} from '../domain/quality';
import { importDemoContent } from './seed';
import { DEMO_GOLD_STUDY, DEMO_ROUND, seedQualityStudies } from './quality-study';

describeEachDb('the demo qualification round and gold checks', (h) => {
	it('qualifies every physician (the hasty one at the second attempt) and flags the hasty one', async () => {
		await importDemoContent(h.db);
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const physicians = await insertUsers(h.db, 3, ['physician']);
		await seedQualityStudies(h.db, { organiser, physicians });
		const [round] = await h.db.select().from(study).where(eq(study.name, DEMO_ROUND));
		const [live] = await h.db.select().from(study).where(eq(study.name, DEMO_GOLD_STUDY));
		const attempts = [];
		for (const p of physicians) {
			const status = (await qualificationStatus(h.db, round.id, p))!;
			attempts.push(status.attempts.map((a) => a.passed));
		}
		expect(attempts).toEqual([[true], [true], [false, true]]);
		const accuracy = await goldAccuracy(h.db, live.id);
		const flagged = accuracy.filter((a) => a.flagged).map((a) => a.raterId);
		expect(flagged).toEqual([physicians[2]]);
		// One gold check in every four claims: 21 live questions and gold among them.
		for (const a of accuracy) expect(a.checks).toBeGreaterThanOrEqual(3);
		// The reviewers' round: seven pairs, every verdict among them, not required.
		const pairs = await listReviewGold(h.db);
		expect(pairs).toHaveLength(7);
		expect(new Set(pairs.map((p) => p.verdict))).toEqual(
			new Set(['correct', 'incorrect', 'cannot_tell'])
		);
		expect(await reviewerRoundSettings(h.db)).toMatchObject({ required: false });
	});
});
