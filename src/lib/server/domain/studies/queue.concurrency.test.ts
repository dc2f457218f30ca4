import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { rowsOf } from '../../db/client';
import { createTestDb, hasPostgres, postgresUnmet } from '../../db/testing';
import { skippedTitle } from '$scoring/testing/skip';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { claimNext } from './queue';
import { changeStudyState, createStudy } from './studies';
import { submitRanking } from './designs/ranking/rankings';

// Real row locks and SKIP LOCKED only matter with several connections: PostgreSQL only (CI has it).
describe.skipIf(!hasPostgres())(
	skippedTitle('ranking queue under concurrency (PostgreSQL)', postgresUnmet()),
	() => {
		let h: DatabaseHandle;
		beforeEach(async () => {
			h = await createTestDb('postgres', { max: 20 });
		});
		afterEach(async () => {
			await h.close();
		});

		it('many physicians claiming and submitting at once: at most k per question, none twice', async () => {
			const [organiser] = await insertUsers(h.db, 1, ['organiser']);
			const { modelIds } = await seedRankingContent(h.db, { count: 12, models: ['m1', 'm2'] });
			const doctors = await insertUsers(h.db, 24, ['physician']);
			const k = 3;
			const study = await createStudy(
				h.db,
				{
					name: 'Concurrent',
					selection: { types: [] },
					modelIds,
					ratersPerQuestion: k,
					includeReference: false
				},
				organiser
			);
			await changeStudyState(h.db, study.id, 'open', organiser);

			async function work(physician: string) {
				for (let round = 0; round < 20; round++) {
					const claim = await claimNext(h.db, study.id, physician);
					if (claim.status !== 'assigned') return;
					const view = await h.db.execute(
						sql`select ac.public_id from assignment_candidate ac join assignment a on a.id = ac.assignment_id where a.public_id = ${claim.publicId} order by ac.position`
					);
					const ids = rowsOf<{ public_id: string }>(view).map((r) => r.public_id);
					const result = await submitRanking(h.db, physician, {
						assignmentId: claim.publicId,
						idempotencyKey: `${claim.publicId}-key`,
						entries: ids.map((id, i) => ({ candidateId: id, rank: i + 1, tag: 'okay' }))
					});
					expect(result.duplicate).toBe(false);
				}
			}
			await Promise.all(doctors.map(work));

			const perQuestion = rowsOf<{ n: number; distinct_doctors: number }>(
				await h.db.execute(
					sql`select count(*)::int as n, count(distinct physician_id)::int as distinct_doctors from assignment group by study_question_id`
				)
			);
			expect(perQuestion).toHaveLength(12);
			for (const q of perQuestion) {
				expect(q.n).toBe(k);
				expect(q.distinct_doctors).toBe(k);
			}
			const [{ rankings }] = rowsOf<{ rankings: number }>(
				await h.db.execute(sql`select count(*)::int as rankings from ranking`)
			);
			expect(rankings).toBe(12 * k);
			const [{ bad }] = rowsOf<{ bad: number }>(
				await h.db.execute(
					sql`select count(*)::int as bad from study_question where open_slots <> 0 or completed <> ${k}`
				)
			);
			expect(bad).toBe(0);
		});
	}
);
