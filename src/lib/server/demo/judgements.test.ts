import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import {
	adjudication,
	assignment,
	candidate,
	qaItem,
	rankingEntry,
	study as studyTable,
	review,
	score,
	scoringRun,
	studyQuestion,
	type User
} from '../db/schema';
import { rowsOf } from '../db/client';
import { createTestDb, describeEachDb } from '../db/testing';
import { seedUsers } from '../fixtures/review';
import { claimNext as claimReview } from '../domain/review/queue';
import { claimNext as claimRanking } from '../domain/studies/queue';
import { verificationAgreement } from '../domain/agreement/verification';
import { studyAgreement } from '../domain/agreement/study';
import { importDemoContent } from './seed';
import {
	DEMO_ITEMS_LEFT,
	DEMO_OPEN_STUDY,
	DEMO_RANKED_STUDY,
	seedDemoJudgements
} from './judgements';

describeEachDb('demo judgements', (h, kind) => {
	let org: User;
	let reviewers: User[];
	let physicians: User[];
	beforeEach(async () => {
		await importDemoContent(h.db);
		[org] = await seedUsers(h.db, 1, ['organiser']);
		reviewers = await seedUsers(h.db, 2, ['reviewer']);
		physicians = await seedUsers(h.db, 3, ['physician']);
		await seedDemoJudgements(h.db, {
			organiser: org.id,
			reviewers: [reviewers[0].id, reviewers[1].id],
			physicians: [physicians[0].id, physicians[1].id, physicians[2].id]
		});
	});

	it('reviews most items, double-reviews the sample with disagreements, adjudicates two', async () => {
		const items = await h.db
			.select({ id: qaItem.id, status: qaItem.status, sampled: qaItem.inSecondarySample })
			.from(qaItem);
		const reviews = await h.db.select().from(review);
		const primary = reviews.filter((r) => r.round === 'primary');
		const secondary = reviews.filter((r) => r.round === 'secondary');
		expect(items.filter((i) => i.status === 'awaiting_primary')).toHaveLength(DEMO_ITEMS_LEFT);
		expect(primary).toHaveLength(items.length - DEMO_ITEMS_LEFT);
		// Every sampled item with a primary review has its secondary review, by the other reviewer.
		const sampledReviewed = primary.filter((p) => items.find((i) => i.id === p.itemId)!.sampled);
		expect(secondary).toHaveLength(sampledReviewed.length);
		expect(secondary.length).toBeGreaterThanOrEqual(6);
		for (const s of secondary)
			expect(s.reviewerId).not.toBe(primary.find((p) => p.itemId === s.itemId)!.reviewerId);
		// Both reviewers took primary work.
		expect(new Set(primary.map((p) => p.reviewerId)).size).toBe(2);
		// Mostly agreeing: a few verdicts differ, not most.
		const verdictDiffers = secondary.filter(
			(s) => primary.find((p) => p.itemId === s.itemId)!.verdict !== s.verdict
		).length;
		expect(verdictDiffers).toBeGreaterThanOrEqual(2);
		expect(verdictDiffers).toBeLessThan(secondary.length / 2);
		expect(await h.db.select().from(adjudication)).toHaveLength(2);
		expect(items.filter((i) => i.status === 'awaiting_adjudication').length).toBeGreaterThan(0);
		// The demo reviewers still have work: an item is offered to each of them.
		for (const r of reviewers) expect(await claimReview(h.db, r.id)).not.toBeNull();
	});

	it('has a closed study ranked fully by all three physicians and an open one left to rank', async () => {
		const [ranked] = await h.db
			.select()
			.from(studyTable)
			.where(eq(studyTable.name, DEMO_RANKED_STUDY));
		expect(ranked.state).toBe('closed');
		const questions = await h.db
			.select({ id: studyQuestion.id })
			.from(studyQuestion)
			.where(eq(studyQuestion.studyId, ranked.id));
		expect(questions).toHaveLength(21);
		const perPhysician = await h.db
			.select({ physician: assignment.physicianId, n: count() })
			.from(assignment)
			.innerJoin(studyQuestion, eq(studyQuestion.id, assignment.studyQuestionId))
			.where(and(eq(studyQuestion.studyId, ranked.id), eq(assignment.state, 'submitted')))
			.groupBy(assignment.physicianId);
		expect(perPhysician.map((p) => p.n)).toEqual([21, 21, 21]);
		// Every candidate of every question ranked and tagged by all three: 21 × 4 × 3 entries.
		const entries = await h.db
			.select({
				rank: rankingEntry.rank,
				tag: rankingEntry.tag,
				isReference: candidate.isReference
			})
			.from(rankingEntry)
			.innerJoin(candidate, eq(candidate.id, rankingEntry.candidateId))
			.innerJoin(studyQuestion, eq(studyQuestion.id, candidate.studyQuestionId))
			.where(eq(studyQuestion.studyId, ranked.id));
		expect(entries).toHaveLength(21 * 4 * 3);
		expect(new Set(entries.map((e) => e.tag))).toEqual(new Set(['good', 'okay', 'bad']));
		// The reference is usually at the top, not always.
		const refs = entries.filter((e) => e.isReference);
		const refFirst = refs.filter((e) => e.rank === 1).length;
		expect(refFirst).toBeGreaterThan(refs.length / 2);
		expect(refFirst).toBeLessThan(refs.length);

		const [open] = await h.db.select().from(studyTable).where(eq(studyTable.name, DEMO_OPEN_STUDY));
		expect(open.state).toBe('open');
		for (const p of physicians)
			expect((await claimRanking(h.db, open.id, p.id)).status).toBe('assigned');
	});

	it('stores a finished official hash:384 scoring run with a score per demo response', async () => {
		const runs = await h.db.select().from(scoringRun).orderBy(asc(scoringRun.id));
		expect(runs.map((r) => [r.state, r.mode, r.embedder])).toEqual([
			['done', 'official', 'hash:384']
		]);
		const [{ n }] = await h.db
			.select({ n: count() })
			.from(score)
			.where(and(eq(score.runId, runs[0].id), isNotNull(score.value)));
		expect(n).toBe(21 * 3);
	});

	it('gives the agreement pages numbers to show', async () => {
		const [{ datasetId }] = await h.db.select({ datasetId: qaItem.datasetId }).from(qaItem);
		const opts = { resamples: 50, seed: 'demo' };
		const verification = await verificationAgreement(h.db, datasetId, opts);
		expect(verification.overall.items).toBeGreaterThanOrEqual(6);
		expect(verification.overall.verdict.cohen_kappa.stat.value).not.toBeNull();
		expect(verification.overall.relevance.weighted_kappa_quadratic.stat.value).not.toBeNull();
		expect(verification.outcomes.adjudicated).toBe(2);
		const [ranked] = await h.db
			.select({ id: studyTable.id })
			.from(studyTable)
			.where(eq(studyTable.name, DEMO_RANKED_STUDY));
		const study = await studyAgreement(h.db, ranked.id, opts);
		expect(study.inputs).toEqual({ rankings: 63, questions: 21, physicians: 3, entries: 252 });
		// Physicians mostly agree: a clearly positive mean W below perfect agreement.
		expect(study.ranking.wMean.stat.value).toBeGreaterThan(0.4);
		expect(study.ranking.wMean.stat.value).toBeLessThan(1);
		expect(study.run).not.toBeNull();
		expect(study.metrics.length).toBeGreaterThan(0);
		expect(study.leaderboards.expert.map((e) => e.model)).toHaveLength(4);
	});

	it('makes the same judgements on every seed', async () => {
		const judgements = (db: typeof h.db) =>
			db.execute(sql`
				select i.item_key, r.round::text, r.verdict::text, r.relevance, r.submitted_at::text
				from review r join qa_item i on i.id = r.item_id
				union all
				select i.item_key || ' ' || coalesce(m.name, 'reference'), u.pseudonym, e.tag::text, e.rank, null::text
				from ranking_entry e join candidate c on c.id = e.candidate_id
				join study_question q on q.id = c.study_question_id join qa_item i on i.id = q.item_id
				left join model m on m.id = c.model_id
				join ranking k on k.id = e.ranking_id join "user" u on u.id = k.physician_id
				-- The ranked study: every physician ranks every question, whatever their order seed
				-- (in the qualification round and the study with gold checks, which questions a
				-- physician meets follows their order seed, drawn at their first claim).
				where q.study_id = (select id from study where name = ${DEMO_RANKED_STUDY})
				order by 1, 2`);
		const first = rowsOf<Record<string, unknown>>(await judgements(h.db));
		// A second database seeded the same way, with the same judges.
		const again = await createTestDb(kind);
		try {
			await importDemoContent(again.db);
			const { user } = await import('../db/schema');
			const everyone = [org, ...reviewers, ...physicians];
			await again.db.insert(user).values(everyone);
			await seedDemoJudgements(again.db, {
				organiser: org.id,
				reviewers: [reviewers[0].id, reviewers[1].id],
				physicians: [physicians[0].id, physicians[1].id, physicians[2].id]
			});
			const second = rowsOf<Record<string, unknown>>(await judgements(again.db));
			expect(first.length).toBe(primaryAndSecondary(first) + 21 * 4 * 3);
			expect(second).toEqual(first);
		} finally {
			await again.close();
		}
	});
});

const primaryAndSecondary = (rows: Record<string, unknown>[]) =>
	rows.filter((r) => r.round === 'primary' || r.round === 'secondary').length;
