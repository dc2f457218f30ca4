import { expect, it } from 'vitest';
import { parseCsv } from '../../csv';
import { describeEachDb } from '../../db/testing';
import { insertPreferenceJudge, seedJudgedPairwiseStudy } from '../../fixtures/pairwise-report';
import { preferenceRows } from '../studies';
import { cachedPairwiseReport } from './cache';
import { dashboardReports, readDashboardQuery } from './dashboard';
import { agreementBundleFiles } from './export';

/** A CSV file of the bundle as objects by column. */
function table(files: { name: string; content: string }[], name: string) {
	const file = files.find((f) => f.name === name);
	if (!file) throw new Error(`no ${name} in the bundle`);
	const [header, ...rows] = parseCsv(file.content).filter((r) => r.length > 1);
	return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

const Z95 = 1.959963984540054;
/** The Wilson score interval, written out (Wilson 1927). */
function wilson(hits: number, n: number) {
	const p = hits / n;
	const centre = (p + (Z95 * Z95) / (2 * n)) / (1 + (Z95 * Z95) / n);
	const half =
		(Z95 / (1 + (Z95 * Z95) / n)) * Math.sqrt((p * (1 - p)) / n + (Z95 * Z95) / (4 * n * n));
	return [centre - half, centre + half];
}

const query = (studyId: number) =>
	readDashboardQuery(new URLSearchParams({ study: String(studyId), resamples: '60', seed: 'pw' }));

describeEachDb('pairwise studies on the agreement page and in the bundle', (h) => {
	it('shows the pairwise report, cached until a judge arrives, with figures recomputed by hand', async () => {
		const { studyId, judgements } = await seedJudgedPairwiseStudy(h.db);
		// 6 questions × 6 pairs (3 models and the reference) × 2 physicians.
		expect(judgements).toHaveLength(72);
		const page = await dashboardReports(h.db, query(studyId));
		expect(page.pairwiseStudy).toBe(true);
		expect(page.study).toBeNull();
		expect(page.rubric).toBeNull();
		const r = page.pairwise!.result;
		expect(r.judgements).toBe(72);
		expect(r.physicians).toBe(2);
		expect(r.questions).toBe(6);
		const count = (o: string) => judgements.filter((j) => j.outcome === o).length;
		expect(r.outcomes).toEqual({
			left: count('left'),
			right: count('right'),
			tieGood: count('tie_good'),
			tieBad: count('tie_bad')
		});

		// The win matrix, counted from the fixture's own record of each judgement.
		for (const c of r.matrix.cells) {
			const met = judgements.filter(
				(j) => [j.left, j.right].sort().join() === [c.a, c.b].sort().join()
			);
			const won = (m: string) =>
				met.filter(
					(j) => (j.outcome === 'left' ? j.left : j.outcome === 'right' ? j.right : null) === m
				).length;
			expect([c.wins, c.losses, c.n]).toEqual([won(c.a), won(c.b), met.length]);
			expect(c.ties).toBe(met.length - won(c.a) - won(c.b));
		}

		// The fit is the maximum of the likelihood: each model's score (wins + ½ ties) equals the
		// sum of its predicted win probabilities (the score equations of the Bradley–Terry model).
		const rating = Object.fromEntries(r.leaderboard.rows.map((x) => [x.model, x.rating.value!]));
		expect(Object.values(rating).every((v) => Number.isFinite(v))).toBe(true);
		const mean = Object.values(rating).reduce((a, b) => a + b, 0) / 4;
		expect(mean).toBeCloseTo(1000, 6);
		for (const m of Object.keys(rating)) {
			let observed = 0;
			let expected = 0;
			for (const j of judgements) {
				if (j.left !== m && j.right !== m) continue;
				const other = j.left === m ? j.right : j.left;
				const winner = j.outcome === 'left' ? j.left : j.outcome === 'right' ? j.right : null;
				observed += winner === m ? 1 : winner === null ? 0.5 : 0;
				expected += 1 / (1 + 10 ** ((rating[other] - rating[m]) / 400));
			}
			expect(expected).toBeCloseTo(observed, 6);
		}
		// Rank ranges follow from the intervals.
		for (const row of r.leaderboard.rows) {
			const others = r.leaderboard.rows.filter((x) => x.model !== row.model);
			expect(row.rankBest).toBe(
				1 + others.filter((x) => x.interval.low! > row.interval.high!).length
			);
		}

		// Position bias per physician: left chosen among non-ties, with the Wilson interval.
		for (const [p, bias] of r.positionBias.raters.entries()) {
			// Raters are sorted by pseudonym: match them by their counts instead of their order.
			const mine = [0, 1].map((x) =>
				judgements.filter((j) => j.physician === x && j.outcome.startsWith('tie') === false)
			);
			const hits = mine.map((list) => list.filter((j) => j.outcome === 'left').length);
			const at = mine.findIndex((list, x) => list.length === bias.n && hits[x] === bias.hits);
			expect(at, `physician ${p}`).toBeGreaterThanOrEqual(0);
			const [low, high] = wilson(bias.hits, bias.n);
			expect(bias.interval!.low).toBeCloseTo(low, 9);
			expect(bias.interval!.high).toBeCloseTo(high, 9);
			expect(bias.flagged).toBe(low > 0.5 || high < 0.5);
		}

		// Three-way agreement: units are (question, pair of models), outcomes by model, not side.
		const rows = await preferenceRows(h.db, studyId);
		const units = new Map<string, string[]>();
		for (const x of rows) {
			const winner = x.outcome === 'left' ? x.left : x.outcome === 'right' ? x.right : 'tie';
			const key = `${x.question} ${[x.left, x.right].sort().join()}`;
			units.set(key, [...(units.get(key) ?? []), winner]);
		}
		const agreeing = [...units.values()].filter(([a, b]) => a === b).length;
		expect(units.size).toBe(36);
		expect(r.agreement.threeWay.percentAgreement.value).toBeCloseTo(agreeing / 36, 12);

		// The judge prefers the stronger answer everywhere; its agreement counts physician judgements.
		const strength = ['meditron-7b', 'llama-3-70b', 'gpt-4o', 'reference'];
		const stronger = (x: (typeof rows)[number]) =>
			strength.indexOf(x.left) > strength.indexOf(x.right) ? x.left : x.right;
		const hits = rows.filter((x) =>
			x.outcome === 'left'
				? x.left === stronger(x)
				: x.outcome === 'right' && x.right === stronger(x)
		).length;
		expect(r.judges).toHaveLength(1);
		expect(r.judges[0]).toMatchObject({ judge: 'LLM judge', pairs: 36 });
		expect(r.judges[0].agreement.value).toBeCloseTo(hits / 72, 12);

		// The same query is served from the cache until a judge's preferences change.
		expect((await cachedPairwiseReport(h.db, studyId, { resamples: 60, seed: 'pw' }))!.fresh).toBe(
			false
		);
		await insertPreferenceJudge(h.db, studyId, 'Second judge');
		const again = await cachedPairwiseReport(h.db, studyId, { resamples: 60, seed: 'pw' });
		expect(again!.fresh).toBe(true);
		expect(again!.result.judges.map((j) => j.judge)).toEqual(['LLM judge', 'Second judge']);

		// The study's own Bradley–Terry leaderboard in the compared leaderboards is the report's.
		expect(page.leaderboards!.result.own[0]).toMatchObject({
			label: 'Preferences',
			battles: 72,
			questions: 6
		});
		expect(page.leaderboards!.result.own[0].rows.map((x) => x.model)).toEqual(
			r.leaderboard.rows.map((x) => x.model)
		);
	});

	it('puts battles.csv, preferences.csv and the pairwise tables in the bundle, as the page shows them', async () => {
		const { studyId, judgements } = await seedJudgedPairwiseStudy(h.db);
		const page = await dashboardReports(h.db, query(studyId));
		const r = page.pairwise!.result;
		const files = await agreementBundleFiles(h.db, {
			verification: null,
			study: null,
			pairwise: { studyId, report: r },
			leaderboards: page.leaderboards!.result
		});
		const names = files.map((f) => f.name);
		for (const t of [
			'pairwise_leaderboard',
			'pairwise_leaderboard_length_controlled',
			'pairwise_matrix',
			'pairwise_position_bias',
			'pairwise_verbosity_bias',
			'pairwise_agreement',
			'pairwise_judges',
			'compared_leaderboards'
		])
			expect(names).toEqual(expect.arrayContaining([`tables/${t}.csv`, `tables/${t}.json`]));

		// battles.csv is `cliniq stats bt`'s input: one row per judgement, FastChat's labels.
		const battles = table(files, 'battles.csv');
		expect(Object.keys(battles[0])).toEqual([
			'question',
			'model_a',
			'model_b',
			'winner',
			'length_a',
			'length_b'
		]);
		expect(battles).toHaveLength(judgements.length);
		const label = { left: 'model_a', right: 'model_b', tie_good: 'tie', tie_bad: 'tie (bothbad)' };
		expect(battles.map((b) => b.winner).sort()).toEqual(
			judgements.map((j) => label[j.outcome]).sort()
		);
		expect(battles.every((b) => Number(b.length_a) > 0 && Number(b.length_b) > 0)).toBe(true);
		// `cliniq stats bt` reads it back to the page's ratings: src/cli/stats-bt-bundle.test.ts.
		const preferences = table(files, 'preferences.csv');
		expect(new Set(preferences.map((p) => p.physician))).toEqual(
			new Set(['physician-1', 'physician-2'])
		);

		const board = table(files, 'tables/pairwise_leaderboard.csv').filter(
			(x) => x.board === 'overall'
		);
		expect(board.map((x) => x.model)).toEqual(r.leaderboard.rows.map((x) => x.model));
		for (const [i, row] of r.leaderboard.rows.entries()) {
			expect(Number(board[i].value)).toBeCloseTo(row.rating.value!, 9);
			expect(Number(board[i].low)).toBeCloseTo(row.interval.low!, 9);
			expect(Number(board[i].rank_best)).toBe(row.rankBest);
		}
		const styled = table(files, 'tables/pairwise_leaderboard_length_controlled.csv');
		expect(styled).toHaveLength(4);
		expect(Number(styled[0].resamples)).toBe(60);
		const matrix = table(files, 'tables/pairwise_matrix.csv');
		expect(matrix).toHaveLength(12);
		const bias = table(files, 'tables/pairwise_position_bias.csv');
		expect(bias.map((b) => b.physician)[0]).toBe('all');
		expect(Number(bias[0].hits)).toBe(r.positionBias.overall.hits);
		const verbosity = table(files, 'tables/pairwise_verbosity_bias.csv');
		expect(verbosity.map((b) => b.band)).toEqual(['all', '1-1.25', '1.25-1.5', '1.5-2', '>=2']);
		const agreement = table(files, 'tables/pairwise_agreement.csv');
		expect(
			Number(
				agreement.find((a) => a.coding === 'three_way' && a.statistic === 'percent_agreement')!
					.value
			)
		).toBeCloseTo(r.agreement.threeWay.percentAgreement.value!, 12);
		expect(table(files, 'tables/pairwise_judges.csv')[0].judge).toBe('LLM judge');
		expect(table(files, 'tables/compared_leaderboards.csv')[0]).toMatchObject({
			scope: 'this study',
			design: 'pairwise',
			leaderboard: 'Preferences'
		});
		expect(JSON.parse(files.find((f) => f.name === 'settings.json')!.content)).toMatchObject({
			studyId,
			resamples: 60,
			seed: 'pw'
		});
		expect(files.find((f) => f.name === 'definitions.txt')!.content).toMatch(
			/^pairwise position bias: /m
		);
	});

	it('sets the leaderboard of a ranking study of the same questions beside the pairwise one', async () => {
		const { studyId, rankingStudyId } = await seedJudgedPairwiseStudy(h.db, { ranked: true });
		const page = await dashboardReports(h.db, query(studyId));
		const [ranked] = page.leaderboards!.result.others;
		// 6 questions × 2 physicians × 4·3/2 pairs of the four ranked answers.
		expect(ranked).toMatchObject({
			studyId: rankingStudyId,
			design: 'ranking',
			label: 'Rankings',
			questions: 6,
			battles: 72
		});
		// Both physicians rank by strength but for one swap of neighbours per ranking, so every
		// model has a rating and the order is the strength's.
		expect(ranked.rows.map((r) => r.model)).toEqual([
			'reference',
			'gpt-4o',
			'llama-3-70b',
			'meditron-7b'
		]);
		expect(ranked.rows.every((r) => r.rating.value !== null)).toBe(true);
		const files = await agreementBundleFiles(h.db, {
			verification: null,
			study: null,
			leaderboards: page.leaderboards!.result
		});
		const compared = table(files, 'tables/compared_leaderboards.csv');
		expect(compared.filter((r) => r.scope === 'shared questions').map((r) => r.model)).toEqual(
			ranked.rows.map((r) => r.model)
		);
	});

	it('withholds intervals and rank ranges over fewer than five questions, saying why', async () => {
		const { studyId } = await seedJudgedPairwiseStudy(h.db, { questions: 3 });
		const page = await dashboardReports(h.db, query(studyId));
		const files = await agreementBundleFiles(h.db, {
			verification: null,
			study: null,
			pairwise: { studyId, report: page.pairwise!.result },
			leaderboards: page.leaderboards!.result
		});
		for (const row of table(files, 'tables/pairwise_leaderboard.csv')) {
			expect(row.low).toBe('');
			expect(row.rank_best).toBe('');
			expect(row.reason).toMatch(/needs at least 5 judged questions; has 3/);
		}
	});
});
