import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
	assignmentCandidate,
	candidate,
	judge,
	judgePreference,
	model
} from '../../../../db/schema';
import type { DatabaseHandle } from '../../../../db/client';
import { describeEachDb } from '../../../../db/testing';
import { insertUsers, seedRankingContent } from '../../../../fixtures/ranking';
import { bradleyTerry } from '../../../../../stats/bradley-terry';
import { compareLeaderboards } from '../../battles';
import { claimNext, getAssignmentView } from '../../queue';
import { changeStudyState, createStudy } from '../../studies';
import { submitRanking } from '../ranking/rankings';
import { pairwiseReport, preferenceRows } from './statistics';
import { submitPreference } from './submit';

/** The model of each shown answer (opaque id → model name), read as an organiser could. */
async function modelsOf(h: DatabaseHandle, publicIds: string[]) {
	const out: string[] = [];
	for (const id of publicIds) {
		const [row] = await h.db
			.select({ name: model.name })
			.from(assignmentCandidate)
			.innerJoin(candidate, eq(candidate.id, assignmentCandidate.candidateId))
			.innerJoin(model, eq(model.id, candidate.modelId))
			.where(eq(assignmentCandidate.publicId, id));
		out.push(row.name);
	}
	return out;
}

describeEachDb('pairwise statistics', (h) => {
	it('reads each preference with its sides, lengths and models; reports leaderboard, matrix, biases, agreement and judges; compares with the ranking study of the same questions', async () => {
		const [organiser] = await insertUsers(h.db, 1, ['organiser']);
		const raters = await insertUsers(h.db, 2, ['physician']);
		const { modelIds } = await seedRankingContent(h.db, { count: 3, models: ['m1', 'm2', 'm3'] });
		// Rater 0 orders m1 > m2 > m3 everywhere; rater 1 does too except where listed.
		const exceptions: Record<string, string[]> = {
			'0': ['m2', 'm1', 'm3'],
			'1': ['m3', 'm1', 'm2']
		};
		const orderOf = (rater: number, q: number) =>
			(rater === 1 && exceptions[String(q)]) || ['m1', 'm2', 'm3'];

		const ranking = await createStudy(
			h.db,
			{
				name: 'Ranked',
				selection: { types: [] },
				modelIds,
				includeReference: false,
				ratersPerQuestion: 2
			},
			organiser
		);
		await changeStudyState(h.db, ranking.id, 'open', organiser, { confirm: true });
		const itemIndex = new Map<number, number>();
		for (const [r, rater] of raters.entries())
			for (;;) {
				const c = await claimNext(h.db, ranking.id, rater);
				if (c.status !== 'assigned') break;
				const view = (await getAssignmentView(h.db, c.publicId, rater))!;
				const text = view.question.text;
				if (!itemIndex.has(text.length)) itemIndex.set(text.length, itemIndex.size);
				const q = [...itemIndex.keys()].indexOf(text.length);
				const names = await modelsOf(
					h,
					view.candidates.map((x) => x.id)
				);
				const order = orderOf(r, q);
				await submitRanking(h.db, rater, {
					assignmentId: c.publicId,
					idempotencyKey: `rank-${c.publicId}`,
					entries: view.candidates.map((x, i) => ({
						candidateId: x.id,
						rank: order.indexOf(names[i]) + 1,
						tag: 'good',
						comment: ''
					}))
				});
			}

		const pairwise = await createStudy(
			h.db,
			{
				name: 'Paired',
				design: 'pairwise',
				selection: { types: [] },
				modelIds,
				includeReference: false,
				ratersPerQuestion: 2
			},
			organiser
		);
		await changeStudyState(h.db, pairwise.id, 'open', organiser, { confirm: true });
		let n = 0;
		for (const [r, rater] of raters.entries())
			for (;;) {
				const c = await claimNext(h.db, pairwise.id, rater, new Date(), { view: true });
				if (c.status !== 'assigned') break;
				const [left, right] = await modelsOf(
					h,
					c.view!.candidates.map((x) => x.id)
				);
				const order = ['m1', 'm2', 'm3'];
				// Both prefer m1 > m2 > m3, but rater 1 calls m2 vs m3 a tie (both bad); otherwise the better-ordered model wins.
				const tie = r === 1 && [left, right].sort().join() === 'm2,m3';
				await submitPreference(h.db, rater, pairwise.id, {
					assignmentId: c.publicId,
					idempotencyKey: `pair-${c.publicId}`,
					outcome: tie ? 'tie_bad' : order.indexOf(left) < order.indexOf(right) ? 'left' : 'right',
					strength: null,
					aspects: {},
					reason: ''
				});
				n++;
			}
		// 3 questions × 3 pairs × 2 raters.
		expect(n).toBe(18);

		const rows = await preferenceRows(h.db, pairwise.id);
		expect(rows).toHaveLength(18);
		for (const r of rows) {
			expect(r.rater).toMatch(/^P-/);
			expect(r.left).not.toBe(r.right);
			expect(r.leftLength).toBeGreaterThan(0);
		}

		const report = (await pairwiseReport(h.db, pairwise.id, { resamples: 50, seed: 's' }))!;
		expect(report.judgements).toBe(18);
		expect(report.outcomes.tieBad).toBe(3);
		// The report's ratings are bradleyTerry's on the same battles.
		const direct = bradleyTerry(
			rows.map((r) => ({
				question: r.question,
				modelA: r.left,
				modelB: r.right,
				winner:
					r.outcome === 'left'
						? 'model_a'
						: r.outcome === 'right'
							? 'model_b'
							: r.outcome === 'tie_good'
								? 'tie'
								: 'tie (bothbad)'
			}))
		);
		for (const row of report.leaderboard.rows)
			expect(row.rating).toEqual(direct.ratings[row.model]);
		const m2m3 = report.matrix.cells.find((c) => c.a === 'm2' && c.b === 'm3');
		expect(m2m3).toMatchObject({ wins: 3, ties: 3, losses: 0, n: 6 });
		const lefts = rows.filter((r) => r.outcome === 'left').length;
		expect(report.positionBias.overall).toMatchObject({ hits: lefts, n: 15, ties: 3 });
		expect(report.positionBias.raters).toHaveLength(2);
		// Both raters agree on every m1–m2 and m1–m3 pair (by model, whatever the sides) and differ
		// on m2–m3 (m2 vs tie): 6 of 9 pairs.
		expect(report.agreement.threeWay.percentAgreement.value).toBeCloseTo(6 / 9, 12);

		// A judge that always prefers the alphabetically first model agrees with rater 0 everywhere.
		const [j] = await h.db
			.insert(judge)
			.values({ studyId: pairwise.id, name: 'First wins' })
			.returning();
		const answers = await h.db
			.select({ id: candidate.id, q: candidate.studyQuestionId, name: model.name })
			.from(candidate)
			.innerJoin(model, eq(model.id, candidate.modelId));
		const units = new Map<number, { id: number; name: string }[]>();
		for (const a of answers) units.set(a.q, [...(units.get(a.q) ?? []), a]);
		const pairwiseUnits = [...units.values()].filter((u) => u.length === 2);
		expect(pairwiseUnits).toHaveLength(9);
		await h.db.insert(judgePreference).values(
			pairwiseUnits.map(([a, b]) => ({
				judgeId: j.id,
				candidateAId: a.id,
				candidateBId: b.id,
				criterion: 'overall',
				preferred: (a.name < b.name ? 'A' : 'B') as 'A' | 'B'
			}))
		);
		const judged = (await pairwiseReport(h.db, pairwise.id, { resamples: 20, seed: 's' }))!;
		expect(judged.judges).toHaveLength(1);
		expect(judged.judges[0]).toMatchObject({ judge: 'First wins', pairs: 9 });
		// Rater 0: 9 of 9; rater 1: m1 wins its pairs (6 of 6), m2–m3 tie (0 of 3): 15 of 18.
		expect(judged.judges[0].agreement.value).toBeCloseTo(15 / 18, 12);

		const compared = await compareLeaderboards(h.db, pairwise.id, { resamples: 20, seed: 's' });
		expect(compared.own.map((b) => b.label)).toEqual(['Preferences']);
		const ranked = compared.others.find((b) => b.studyId === ranking.id)!;
		expect(ranked).toMatchObject({
			label: 'Rankings',
			design: 'ranking',
			questions: 3,
			battles: 18
		});
		expect(ranked.rows[0].model).toBe('m1');
	});
});
