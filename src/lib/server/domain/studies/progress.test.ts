import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assignment, ranking, study as studyTable, studyQuestion } from '../../db/schema';
import { describeEachDb } from '../../db/testing';
import { insertUsers, seedRankingContent } from '../../fixtures/ranking';
import { estimateFinish, studyProgress } from './progress';
import { claimNext, getAssignmentView } from './queue';
import { submitRanking } from './designs/ranking/rankings';
import { changeStudyState, createStudy } from './studies';

const NOW = new Date('2026-11-25T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const open = { state: 'open' as const, openedAt: hoursAgo(100), now: NOW };

describe('estimated finish', () => {
	it('divides the remaining rankings by the rate of the last 24 hours', () => {
		// 12 rankings in 24 h is 0.5 per hour: 30 remaining take 60 hours.
		const recent = Array.from({ length: 12 }, (_, i) => hoursAgo(i * 2 + 1));
		const e = estimateFinish({ ...open, remaining: 30, inWindow: 12, recent });
		expect(e).toEqual({
			at: new Date(NOW.getTime() + 60 * 3_600_000),
			remaining: 30,
			perHour: 0.5,
			basis: 'the 12 rankings submitted in the last 24 hours'
		});
	});

	it('uses the latest 50 rankings when the last 24 hours hold at least 50', () => {
		// The 50th latest ranking is 5 hours old: 10 per hour, so 200 remaining take 20 hours.
		const recent = Array.from({ length: 50 }, (_, i) => hoursAgo((5 * (i + 1)) / 50));
		const e = estimateFinish({ ...open, remaining: 200, inWindow: 80, recent });
		expect(e.at).toEqual(new Date(NOW.getTime() + 20 * 3_600_000));
		expect(e).toMatchObject({
			perHour: 10,
			basis: 'the latest 50 rankings, submitted in the last 5 h'
		});
	});

	it('measures a study opened less than 24 hours ago from its opening', () => {
		// 6 rankings in the 3 hours since opening: 2 per hour, 10 remaining take 5 hours.
		const e = estimateFinish({
			...open,
			openedAt: hoursAgo(3),
			remaining: 10,
			inWindow: 6,
			recent: Array.from({ length: 6 }, (_, i) => hoursAgo(i / 3))
		});
		expect(e).toMatchObject({
			at: new Date(NOW.getTime() + 5 * 3_600_000),
			perHour: 2,
			basis: 'the 6 rankings submitted since the study opened 3 h ago'
		});
	});

	it('says why there is no estimate', () => {
		const none = { ...open, remaining: 5, inWindow: 0, recent: [] };
		expect(estimateFinish(none)).toEqual({
			at: null,
			reason: 'no estimate: no rankings in the last 24 hours'
		});
		expect(estimateFinish({ ...none, state: 'paused' }).at).toBeNull();
		expect(estimateFinish({ ...none, state: 'paused' })).toMatchObject({
			reason: 'no estimate: the study is paused'
		});
		expect(estimateFinish({ ...none, state: 'draft', openedAt: null })).toMatchObject({
			reason: 'no estimate: the study has not opened'
		});
		expect(estimateFinish({ ...none, remaining: 0 })).toMatchObject({
			reason: 'no estimate needed: every ranking is in'
		});
	});
});

describeEachDb('study progress estimate', (h) => {
	it('estimates from stored submission times; none without recent rankings', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const doctors = await insertUsers(h.db, 2, ['physician']);
		const { modelIds } = await seedRankingContent(h.db, { count: 4, models: ['m1'] });
		const study = await createStudy(
			h.db,
			{ name: 'Pace', selection: { types: [] }, modelIds, ratersPerQuestion: 2 },
			organiser
		);
		await changeStudyState(h.db, study.id, 'open', organiser);
		await h.db
			.update(studyTable)
			.set({ openedAt: hoursAgo(48) })
			.where(eq(studyTable.id, study.id));
		expect((await studyProgress(h.db, study.id, NOW)).estimate).toEqual({
			at: null,
			reason: 'no estimate: no rankings in the last 24 hours'
		});
		// Two rankings: one 6 hours ago, one 30 hours ago (outside the window).
		for (const [d, at] of [
			[doctors[0], hoursAgo(6)],
			[doctors[1], hoursAgo(30)]
		] as const) {
			const claim = await claimNext(h.db, study.id, d);
			if (claim.status !== 'assigned') throw new Error('expected an assignment');
			const view = (await getAssignmentView(h.db, claim.publicId, d))!;
			await submitRanking(h.db, d, {
				assignmentId: claim.publicId,
				idempotencyKey: claim.publicId,
				entries: view.candidates.map((c, i) => ({ candidateId: c.id, rank: i + 1, tag: 'okay' }))
			});
			// The engine reads the assignment's submission time (every design sets it); the ranking
			// keeps the same time.
			await h.db
				.update(assignment)
				.set({ submittedAt: at })
				.where(eq(assignment.publicId, claim.publicId));
			await h.db
				.update(ranking)
				.set({ submittedAt: at })
				.where(
					eq(
						ranking.assignmentId,
						sql`(select ${assignment.id} from ${assignment} where ${assignment.publicId} = ${claim.publicId})`
					)
				);
		}
		const progress = await studyProgress(h.db, study.id, NOW);
		expect(progress).toMatchObject({ submitted: 2, target: 8 });
		// 1 ranking in 24 hours; 6 remaining take 144 hours.
		expect(progress.estimate).toEqual({
			at: new Date(NOW.getTime() + 144 * 3_600_000),
			remaining: 6,
			perHour: 1 / 24,
			basis: 'the ranking submitted in the last 24 hours'
		});
		expect(await h.db.select().from(studyQuestion)).toHaveLength(4);
	});
});
