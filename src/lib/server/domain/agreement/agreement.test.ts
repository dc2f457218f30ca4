import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../db/testing';
import {
	assignment,
	qaItem,
	rankingEntry,
	ranking,
	statsCache,
	study as studyTable,
	studyQuestion,
	user
} from '../../db/schema';
import { MIN_INTERVAL_UNITS } from '../../../stats/bootstrap';
import { addReview, PAIRS, seedStudy } from '../../fixtures/agreement-known';
import { seedItems, seedUsers } from '../../fixtures/review';
import { cachedStudyAgreement, cachedVerificationAgreement, METHOD } from './cache';
import { inBackground, isPending, reportsInBackground } from './background';
import {
	dashboardReports,
	dashboardReportsOrProgress,
	DEFAULT_RESAMPLES,
	DEFAULT_SEED,
	readDashboardQuery
} from './dashboard';
import { studyAgreement } from './study';
import { verificationAgreement } from './verification';

const options = { resamples: 200, seed: 'test' };

describeEachDb('verification agreement', (h) => {
	it('computes kappa, the matrix and per-reviewer rows from the latest revisions', async () => {
		await seedItems(h.db, 1);
		const items = await h.db.select().from(qaItem).orderBy(asc(qaItem.id));
		const [a, b] = await seedUsers(h.db, 2);
		for (const [i, [va, vb, ra, rb]] of PAIRS.entries()) {
			await addReview(h.db, items[i].id, 'primary', a.id, va, ra);
			// Item 0's secondary review is amended: only its second revision counts.
			if (i === 0) await addReview(h.db, items[i].id, 'secondary', b.id, 'incorrect', 1);
			await addReview(h.db, items[i].id, 'secondary', b.id, vb, rb, i === 0 ? 2 : 1);
		}
		// A single review: counted, but pairs with nothing.
		await addReview(h.db, items[6].id, 'primary', a.id, 'correct', 5);
		const result = await verificationAgreement(h.db, items[0].datasetId, options);
		expect(result.inputs).toEqual({ reviews: 13, items: 7, doubleReviewed: 6 });
		expect(result.overall.verdict.cohen_kappa.stat.value).toBeCloseTo(0.25, 10);
		expect(result.overall.verdict.percent_agreement.stat.value).toBeCloseTo(4 / 6, 10);
		const interval = result.overall.verdict.cohen_kappa.interval;
		expect(interval.low).not.toBeNull();
		expect(result.matrix.counts).toEqual([
			[3, 1, 0],
			[1, 1, 0],
			[0, 0, 0]
		]);
		// Each reviewer against the other: one reviewer each side, so the same kappa.
		expect(result.byReviewer.map((r) => r.reviewer).sort()).toEqual(
			[a.pseudonym, b.pseudonym].sort()
		);
		expect(result.byReviewer[0].verdict.cohen_kappa.stat.value).toBeCloseTo(0.25, 10);
		// One item of each of six types: a single pair cannot give a kappa, and says why.
		const t = result.byType[0];
		expect(t.items).toBe(1);
		expect(t.verdict.cohen_kappa.stat.value).toBeNull();
		expect(t.verdict.cohen_kappa.stat.reason).toBeTruthy();
		// Over one item no statistic or interval means anything: each says so.
		const few = `needs at least ${MIN_INTERVAL_UNITS} double-reviewed items; has 1`;
		expect(t.verdict.percent_agreement.stat).toEqual({ value: null, reason: few });
		expect(t.verdict.cohen_kappa.stat).toEqual({ value: null, reason: few });
		expect(t.verdict.percent_agreement.interval).toEqual({
			low: null,
			high: null,
			reason: `needs at least ${MIN_INTERVAL_UNITS} double-reviewed items; has 1`
		});
	});

	it('recomputes when a review arrives and serves the stored report otherwise', async () => {
		await seedItems(h.db, 1);
		const items = await h.db.select().from(qaItem).orderBy(asc(qaItem.id));
		const [a, b] = await seedUsers(h.db, 2);
		for (const [i, [va, vb, ra, rb]] of PAIRS.slice(0, 4).entries()) {
			await addReview(h.db, items[i].id, 'primary', a.id, va, ra);
			await addReview(h.db, items[i].id, 'secondary', b.id, vb, rb);
		}
		const datasetId = items[0].datasetId;
		const first = await cachedVerificationAgreement(h.db, datasetId, options);
		expect(first.fresh).toBe(true);
		const again = await cachedVerificationAgreement(h.db, datasetId, options);
		expect(again.fresh).toBe(false);
		expect(again.result).toEqual(first.result);
		// Other options are another report.
		const other = await cachedVerificationAgreement(h.db, datasetId, { ...options, seed: 'x' });
		expect(other.fresh).toBe(true);
		await addReview(h.db, items[4].id, 'primary', a.id, 'correct', 5);
		await addReview(h.db, items[4].id, 'secondary', b.id, 'correct', 4);
		const after = await cachedVerificationAgreement(h.db, datasetId, options);
		expect(after.fresh).toBe(true);
		expect(after.result.inputs.doubleReviewed).toBe(5);
	});
});

describeEachDb('study agreement', (h) => {
	it("computes Kendall's W, the reference check, position bias and the metric board", async () => {
		const { study, run } = await seedStudy(h.db);
		const result = await studyAgreement(h.db, study.id, options);
		expect(result.run?.id).toBe(run.id);
		expect(result.inputs).toMatchObject({ rankings: 6, questions: 2, physicians: 3 });
		expect(result.ranking.wByQuestion.map((q) => q.w.value)).toEqual([
			1,
			expect.closeTo(4 / 9, 10)
		]);
		expect(result.ranking.wMean.stat.value).toBeCloseTo((1 + 4 / 9) / 2, 10);
		expect(result.ranking.wHistogram[4].count + result.ranking.wHistogram[9].count).toBe(2);
		// The reference is never first; its mean rank is 3, 3 and 2.5.
		expect(result.referenceCheck.map((r) => r.firstShare.value)).toEqual([0, 0, 0]);
		expect(result.referenceCheck.map((r) => r.meanRank.value).sort()).toEqual([2.5, 3, 3]);
		// Position A held m1 everywhere: ranks 1,1,1,1,2,1 → mean 7/6.
		expect(result.positionBias[0]).toMatchObject({ letter: 'A', n: 6 });
		expect(result.positionBias[0].meanRank.value).toBeCloseTo(7 / 6, 10);
		const value = result.metrics.find((m) => m.metric === 'value')!;
		expect(value.pairwise).toEqual({ pairs: 2, concordant: 1, discordant: 1, metric_ties: 0 });
		expect(value.accuracy.stat.value).toBe(0.5);
		expect(result.metrics.map((m) => m.metric).sort()).toEqual(['semantic', 'value']);
		expect(result.leaderboards.automatic.map((a) => a.model)).toEqual(['m2', 'm1']);
		expect(result.leaderboards.automatic[0].mean.value).toBeCloseTo(0.65, 10);
		expect(result.leaderboards.expert[0].model).toBe('m1');
		expect(result.leaderboards.good.find((g) => g.model === 'm1')!.share.value).toBeCloseTo(
			5 / 6,
			10
		);
	});

	it('gives no interval over fewer questions than the minimum, and says why', async () => {
		const { study } = await seedStudy(h.db);
		expect(MIN_INTERVAL_UNITS).toBeGreaterThan(2);
		const result = await studyAgreement(h.db, study.id, options);
		// Two questions ranked by three physicians: the means exist, their intervals do not.
		expect(result.ranking.wMean.stat.value).not.toBeNull();
		expect(result.ranking.wMean.interval).toEqual({
			low: null,
			high: null,
			reason: `needs at least ${MIN_INTERVAL_UNITS} questions ranked by 2+ physicians; has 2`
		});
		expect(result.ranking.tauMean.interval.low).toBeNull();
		const value = result.metrics.find((m) => m.metric === 'value')!;
		expect(value.accuracy.interval).toMatchObject({
			low: null,
			reason: `needs at least ${MIN_INTERVAL_UNITS} questions with differently ranked scored answers; has 2`
		});
		for (const a of result.leaderboards.automatic)
			expect(a.interval).toMatchObject({
				low: null,
				reason: `needs at least ${MIN_INTERVAL_UNITS} scored questions; has 2`
			});
		for (const e of result.leaderboards.expert)
			expect(e.interval).toMatchObject({
				low: null,
				reason: `needs at least ${MIN_INTERVAL_UNITS} ranked questions; has 2`
			});
	});

	it('recomputes when a ranking arrives and not otherwise', async () => {
		const { study } = await seedStudy(h.db);
		const first = await cachedStudyAgreement(h.db, study.id, options);
		expect(first.fresh).toBe(true);
		expect((await cachedStudyAgreement(h.db, study.id, options)).fresh).toBe(false);
		await h.db.update(user).set({ displayName: 'renamed' });
		expect((await cachedStudyAgreement(h.db, study.id, options)).fresh).toBe(false);
		const [entry] = await h.db.select().from(rankingEntry).limit(1);
		const [old] = await h.db.select().from(ranking).where(eq(ranking.id, entry.rankingId));
		await h.db.delete(rankingEntry).where(eq(rankingEntry.rankingId, old.id));
		await h.db.delete(ranking).where(eq(ranking.id, old.id));
		const after = await cachedStudyAgreement(h.db, study.id, options);
		expect(after.fresh).toBe(true);
		expect(after.result.inputs.rankings).toBe(5);
	});

	it('recomputes a report stored by an earlier method of computing it', async () => {
		const { study } = await seedStudy(h.db);
		expect((await cachedStudyAgreement(h.db, study.id, options)).fresh).toBe(true);
		const [stored] = await h.db.select().from(statsCache).where(eq(statsCache.kind, 'study'));
		expect(stored.fingerprint).toMatch(new RegExp(`;method ${METHOD.study}$`));
		// As the method before stored it: the data's fingerprint alone.
		await h.db
			.update(statsCache)
			.set({ fingerprint: stored.fingerprint.replace(/;method \d+$/, '') })
			.where(eq(statsCache.id, stored.id));
		expect((await cachedStudyAgreement(h.db, study.id, options)).fresh).toBe(true);
		expect((await cachedStudyAgreement(h.db, study.id, options)).fresh).toBe(false);
	});
});

describeEachDb('agreement dashboard', (h) => {
	it('opens on the newest study with rankings, with default options and a bad seed ignored', async () => {
		const { study } = await seedStudy(h.db);
		await h.db.insert(studyTable).values({ name: 'Empty, newer', createdBy: study.createdBy });
		const query = readDashboardQuery(new URLSearchParams('resamples=abc&seed='));
		expect(query).toMatchObject({ resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED });
		const reports = await dashboardReports(h.db, { ...query, resamples: 20 });
		expect(reports.choices.studies).toHaveLength(2);
		expect(reports.query.study).toBe(study.id);
		expect(reports.study?.result.inputs.rankings).toBe(6);
		expect(reports.verification?.result.inputs.reviews).toBe(0);
		expect(reports.studyPick).toEqual({ how: 'judged', newerWithout: 1 });
	});

	it('prefers a study that two physicians ranked to a newer one ranked by one', async () => {
		const { study, physicians } = await seedStudy(h.db);
		const [single] = await h.db
			.insert(studyTable)
			.values({ name: 'One physician so far', createdBy: study.createdBy, state: 'open' })
			.returning();
		const [question] = await h.db.select().from(studyQuestion).limit(1);
		const [sq] = await h.db
			.insert(studyQuestion)
			.values({
				studyId: single.id,
				itemId: question.itemId,
				itemVersionId: question.itemVersionId,
				openSlots: 2
			})
			.returning();
		await h.db.insert(assignment).values({
			studyQuestionId: sq.id,
			physicianId: physicians[0],
			publicId: 'single-1',
			seed: 's',
			state: 'submitted'
		});
		const reports = await dashboardReports(h.db, readDashboardQuery(new URLSearchParams()));
		expect(reports.query.study).toBe(study.id);
		expect(reports.studyPick).toEqual({ how: 'judged', newerWithout: 1 });
		// Each study's submitted rankings, and questions ranked by two physicians or more.
		const counted = (id: number) => reports.choices.studies.find((s) => s.id === id);
		expect(counted(single.id)).toMatchObject({ rankings: 1, judged: 0 });
		expect(counted(study.id)).toMatchObject({ rankings: 6, judged: 2 });
		// Asked for by id, the other study is shown as asked.
		const asked = await dashboardReports(
			h.db,
			readDashboardQuery(new URLSearchParams(`study=${single.id}`))
		);
		expect(asked.query.study).toBe(single.id);
		expect(asked.studyPick).toEqual({ how: 'asked', newerWithout: 0 });
	});

	it('shows the progress of reports not ready in time, and then the same reports', async () => {
		const { study } = await seedStudy(h.db);
		const query = { ...readDashboardQuery(new URLSearchParams()), resamples: 400 };
		const first = await dashboardReportsOrProgress(h.db, query, 0);
		expect(isPending(first.study)).toBe(true);
		if (!isPending(first.study)) return;
		expect(first.study.pending.report).toBe("the study's agreement report");
		const { step, steps } = first.study.pending;
		expect(step).toBeLessThanOrEqual(steps);
		// Asked again with time to wait, the page gets the reports computed in the background…
		let page = await dashboardReportsOrProgress(h.db, query, 60_000);
		while (isPending(page.study) || isPending(page.verification) || isPending(page.leaderboards))
			page = await dashboardReportsOrProgress(h.db, query, 60_000);
		expect(page.query.study).toBe(study.id);
		// … read from the cache they were stored in, and the numbers computed in one go.
		const direct = await dashboardReports(h.db, query);
		expect(direct.study?.fresh).toBe(false);
		expect(page.study?.result).toEqual(direct.study?.result);
		const inTurn = await studyAgreement(h.db, study.id, page.study!.result.options);
		expect(page.study?.result).toEqual(JSON.parse(JSON.stringify(inTurn)));
		expect(page.study?.result.inputs.rankings).toBe(6);
		expect(page.verification?.result).toEqual(direct.verification?.result);
	});

	it('a page asking again while its reports are computed joins them without reading their data', async () => {
		const { study } = await seedStudy(h.db);
		const ended = async () => {
			while (reportsInBackground() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
		};
		await ended(); // nothing left of an earlier test
		// Another report computed first holds the queue: this page's reports wait behind it.
		let release!: () => void;
		const holding = new Promise<void>((resolve) => (release = resolve));
		void inBackground('holding the queue', 'another report', () => holding, 0);
		const query = { ...readDashboardQuery(new URLSearchParams()), resamples: 50 };
		const first = await dashboardReportsOrProgress(h.db, query, 0);
		expect(isPending(first.study)).toBe(true);
		const computing = reportsInBackground();
		// A ranking taken back meanwhile: asked again, the page joins the computation under way
		// instead of starting another for the changed data.
		const [entry] = await h.db.select().from(rankingEntry).limit(1);
		await h.db.delete(rankingEntry).where(eq(rankingEntry.rankingId, entry.rankingId));
		await h.db.delete(ranking).where(eq(ranking.id, entry.rankingId));
		const again = await dashboardReportsOrProgress(h.db, query, 0);
		expect(isPending(again.study)).toBe(true);
		expect(reportsInBackground()).toBe(computing);
		release();
		await ended();
		// Once it has ended, the page reads the state of the data again: the report is computed
		// anew from the rankings left.
		const after = await dashboardReportsOrProgress(h.db, query, 60_000);
		expect(after.query.study).toBe(study.id);
		expect(isPending(after.study)).toBe(false);
		if (isPending(after.study)) return;
		expect(after.study?.fresh).toBe(true);
		expect(after.study?.result.inputs.rankings).toBe(5);
	});

	it('says when no study has a submitted ranking', async () => {
		const [organiser] = await seedUsers(h.db, 1, ['organiser']);
		await h.db.insert(studyTable).values({ name: 'Nothing yet', createdBy: organiser.id });
		const reports = await dashboardReports(h.db, readDashboardQuery(new URLSearchParams()));
		expect(reports.studyPick).toEqual({ how: 'none ranked', newerWithout: 0 });
	});
});
