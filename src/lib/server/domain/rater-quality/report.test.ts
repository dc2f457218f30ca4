import { expect, it } from 'vitest';
import { describeEachDb } from '../../db/testing';
import { seedRaterQualityStudy } from '../../fixtures/rater-quality';
import { qaItem } from '../../db/schema';
import { PAIRS, addReview } from '../../fixtures/agreement-known';
import { seedItems, seedUsers } from '../../fixtures/review';
import { excludeJudgements } from '../exclusions';
import { raterQualityReport, reviewedDatasets, reviewerQualityReport } from './report';

describeEachDb('the rater-quality report', (h) => {
	it('flags exactly the rater who always picks the left answer and the one who is too fast', async () => {
		const { studyId } = await seedRaterQualityStudy(h.db);
		const report = (await raterQualityReport(h.db, { studyId, resamples: 100 }))!;
		const by = Object.fromEntries(report.raters.map((r) => [r.pseudonym, r]));
		expect(Object.keys(by).sort()).toEqual(['R-LEFT', 'R-QUICK', 'R-STEADY']);
		// 6 questions × 6 pairs, every rater judges every pair; the bootstrap resamples the 6 questions.
		for (const r of report.raters) expect(r.judgements).toBe(36);
		for (const r of report.raters) expect([r.peer.pairs, r.peer.questions]).toEqual([72, 6]);

		const left = by['R-LEFT'];
		expect(left.position.kind).toBe('left');
		if (left.position.kind !== 'left') throw new Error('pairwise');
		expect(left.position.share.value).toBe(1);
		expect(left.position.pValue.value).toBeCloseTo(2 / 2 ** 36, 20);
		expect(left.flags).toEqual(['prefers the left answer']);

		// The study median is about 52–64 s, so a fifth of it (> 10 s) is the threshold.
		expect(report.thresholdMs).toBeGreaterThan(10_000);
		const quick = by['R-QUICK'];
		expect(quick.time.fast).toBe(36);
		expect(quick.flags).toEqual([expect.stringMatching(/^36 of 36 judgements faster than/)]);

		expect(by['R-STEADY'].flags).toEqual([]);
		expect(by['R-STEADY'].time.fast).toBe(0);
		// Every rater has peers on every question, so κ is defined for each. (Which answer the
		// left-picker prefers follows the sides each claim draws at random, so how far they agree
		// with the careful raters varies from run to run: 0.30–0.48 pooled over five runs, against
		// 0.36–0.52 for the careful ones — no fixed order to assert.)
		for (const r of report.raters) {
			expect(r.peer.kappa.value).not.toBeNull();
			expect(Math.abs(r.peer.kappa.value!)).toBeLessThanOrEqual(1);
		}
		// Two ISO weeks of work; no gold questions, so gold accuracy says why.
		expect(by['R-STEADY'].weeks.map((w) => w.week)).toEqual(['2026-W46', '2026-W47']);
		expect(by['R-STEADY'].gold.share).toEqual({ value: null, reason: 'no gold check yet' });

		const places = report.institutions.map((i) => [i.institution, i.raters, i.flags]);
		expect(places).toEqual([
			['Northfield Medical School', 2, [expect.stringMatching(/^36 of 72 judgements/)]],
			['St Brigid’s Teaching Hospital', 1, ['prefers the left answer']]
		]);
		// Reproducible to the last digit.
		expect(await raterQualityReport(h.db, { studyId, resamples: 100 })).toEqual(report);
	});
});

describeEachDb('the rater-quality report with gold questions', (h) => {
	it('gives gold accuracy with its Wilson interval, flagging only below the pass mark', async () => {
		const { studyId } = await seedRaterQualityStudy(h.db, { questions: 7, gold: 1 });
		const report = (await raterQualityReport(h.db, { studyId, resamples: 20 }))!;
		const by = Object.fromEntries(report.raters.map((r) => [r.pseudonym, r]));
		// The careful raters are right on all 6 gold pairs; 6 live questions remain.
		for (const p of ['R-STEADY', 'R-QUICK']) {
			expect(by[p].gold).toMatchObject({ hits: 6, n: 6, share: { value: 1 } });
			expect(by[p].gold.low).toBeCloseTo(0.6096657, 6); // Wilson 6 of 6
			expect(by[p].peer.questions).toBe(6);
		}
		expect(by['R-STEADY'].flags).toEqual([]);
		const left = by['R-LEFT'];
		expect(left.gold.n).toBe(6);
		expect(left.flags.includes('gold accuracy below the pass mark (80 %)')).toBe(
			left.gold.share.value! < 0.8
		);
		expect(left.flags).toContain('prefers the left answer');
	});
});

describeEachDb("the reviewers' quality report", (h) => {
	it('gives a reviewer their agreement with the others who reviewed the same QA pairs, and leaves out an excluded reviewer', async () => {
		await seedItems(h.db, 1, 'Reviewed set');
		const items = (await h.db.select({ id: qaItem.id }).from(qaItem).orderBy(qaItem.id)).slice(
			0,
			PAIRS.length
		);
		const [first, second, organiser] = await seedUsers(h.db, 3);
		for (const [i, [v1, v2, r1, r2]] of PAIRS.entries()) {
			await addReview(h.db, items[i].id, 'primary', first.id, v1, r1);
			await addReview(h.db, items[i].id, 'secondary', second.id, v2, r2);
		}
		const [dataset] = await reviewedDatasets(h.db);
		expect(dataset).toMatchObject({ name: 'Reviewed set', reviews: 12 });
		const report = (await reviewerQualityReport(h.db, {
			datasetId: dataset.id,
			resamples: 50
		}))!;
		expect(report).toMatchObject({ studyId: null, datasetId: dataset.id, design: 'verification' });
		const mine = report.raters.find((r) => r.raterId === first.id)!;
		expect(mine.judgements).toBe(6);
		// Computed by hand: the 12 pairs of labels (6 verdicts, 6 relevances) agree 6 times
		// (po = 1/2); the marginals give pe = (4·4 + 2·2 + 2·2 + 1·1 + 1·2 + 1·0 + 1·1)/144 = 28/144;
		// kappa = (72 − 28)/(144 − 28) = 44/116.
		expect(mine.peer.kappa.value).toBeCloseTo(44 / 116, 12);
		expect([mine.peer.pairs, mine.peer.questions]).toEqual([12, 6]);
		expect(mine.gold.share).toEqual({
			value: null,
			reason: 'hidden gold checks are off in the review queue'
		});
		expect(mine.position).toEqual({
			kind: 'none',
			reason: 'a reviewer sees one QA pair at a time'
		});
		expect(mine.flags).toEqual([]);
		// Reproducible to the last digit.
		expect(await reviewerQualityReport(h.db, { datasetId: dataset.id, resamples: 50 })).toEqual(
			report
		);

		// Excluding the second reviewer (every study, so their reviews too) leaves the first
		// without peers, and the report says why.
		await excludeJudgements(
			h.db,
			{ raterId: second.id, studyId: null, from: null, until: null, reason: 'Test' },
			organiser.id
		);
		const after = (await reviewerQualityReport(h.db, { datasetId: dataset.id, resamples: 50 }))!;
		expect(after.raters.map((r) => r.raterId)).toEqual([first.id]);
		expect(after.raters[0].peer.kappa.value).toBeNull();
		expect(after.raters[0].peer.kappa.reason).toBeTruthy();
	});
});
