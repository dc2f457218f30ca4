// The agreement reports' exact output on a fixed, seeded fixture: every statistic and every
// bootstrap interval, to the last bit. The expected digests and values were computed by the
// implementation before the per-resample work was made cheaper (commit "Agreement reports: the
// computation apart from the queries, and its exact output pinned"); a faster implementation
// must reproduce them exactly (same seed → the same resamples → the same intervals). One change
// was made on purpose since: each resample of the experts' leaderboard is refitted by Newton
// steps (the chord method) instead of MM, converging to the same maximum more closely (MM stopped
// up to ~1e-6 from it, the chord method within ~1e-8). The leaderboard's intervals are therefore
// pinned twice: the new ones to the last bit (the digest), the previous ones to within 1e-6,
// and all of the report but those intervals still to the previous implementation's last bit.
// The independent-value tests beside this file (agreement, pairwise, rubric, evidence) still
// check the numbers themselves against values computed another way.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { QA_TYPES, TAGS, VERDICTS } from '../../../constants';
import { seededRandom } from '../../../stats/bootstrap';
import type { MetricKey, RankingJudgement, ReviewJudgement } from './extract';
import { studyReport, type StudyInput } from './study';
import { verificationReport, type VerificationInput } from './verification';

/** JSON with -0 told apart from 0: equal digests mean equal numbers, bit for bit. */
function digest(value: unknown): string {
	const text = JSON.stringify(value, (_, v) => (Object.is(v, -0) ? '-0' : v));
	return createHash('sha256').update(text).digest('hex');
}

const MODELS = ['alpha', 'beta', 'gamma', 'delta'];
const PHYSICIANS = ['P-ANN', 'P-BEN', 'P-CAL'];

/** Questions ranked by 3 physicians (a few by 2 or 1), with ties, tags and a run's scores. */
function studyFixture(questions: number): StudyInput {
	const random = seededRandom('pinned study');
	const rows: RankingJudgement[] = [];
	const scores: StudyInput['scores'] = new Map();
	let candidate = 1000;
	for (let q = 1; q <= questions; q++) {
		const labels = [null, ...MODELS];
		const candidates = labels.map((model) => ({
			id: candidate++,
			model,
			responseId: model === null && q % 3 ? null : candidate + 50_000,
			quality: random()
		}));
		for (const c of candidates) {
			if (c.responseId === null || q % 11 === 0) continue;
			const own: Partial<Record<MetricKey, number>> = {
				value: Math.round(c.quality * 10) / 10,
				semantic: c.quality + random() * 0.3,
				bleu: random() < 0.2 ? 0 : c.quality * random()
			};
			if (q % 4) own.rouge = c.quality * 0.5 + random() * 0.5;
			scores.set(c.responseId, own);
		}
		const raters =
			q % 13 === 0 ? PHYSICIANS.slice(0, 1) : q % 7 === 0 ? PHYSICIANS.slice(1) : PHYSICIANS;
		for (const rater of raters) {
			const noisy = candidates.map((c) => ({ c, score: c.quality + random() * 0.6 }));
			noisy.sort((a, b) => b.score - a.score);
			let rank = 0;
			noisy.forEach(({ c, score }, i) => {
				// Some ties: a candidate close to the one above shares its rank.
				if (i === 0 || noisy[i - 1].score - score > 0.05) rank = i + 1;
				rows.push({
					question: q,
					item: 500 + q,
					rater,
					candidate: c.id,
					model: c.model,
					responseId: c.responseId,
					rank,
					tag: TAGS[Math.min(2, Math.floor((1 - c.quality) * 3 + random() * 0.7))],
					position: 1 + ((c.id + rater.length + q) % labels.length)
				});
			});
		}
	}
	rows.sort(
		(a, b) => a.question - b.question || a.rater.localeCompare(b.rater) || a.position - b.position
	);
	const run = {
		id: 7,
		mode: 'official',
		embedder: 'pinned',
		scorerVersion: '1',
		finishedAt: new Date('2026-01-02T03:04:05Z'),
		scored: scores.size
	};
	const excluded = { judgements: 0, raters: 0, bySource: {} } as StudyInput['excluded'];
	return { studyId: 3, rows, run, scores, excluded };
}

/** Items reviewed once or twice by five reviewers, verdicts and relevance loosely agreeing. */
function verificationFixture(items: number): VerificationInput {
	const random = seededRandom('pinned verification');
	const reviewers = ['R-1', 'R-2', 'R-3', 'R-4', 'R-5'];
	const judgements: ReviewJudgement[] = [];
	for (let item = 1; item <= items; item++) {
		const type = QA_TYPES[item % QA_TYPES.length];
		const truth = Math.floor(random() * 3);
		const relevance = 1 + Math.floor(random() * 5);
		const first = Math.floor(random() * reviewers.length);
		const rounds = random() < 0.6 ? (['primary', 'secondary'] as const) : (['primary'] as const);
		rounds.forEach((round, k) => {
			judgements.push({
				item,
				type,
				round,
				reviewer: reviewers[(first + k * (1 + (item % 4))) % reviewers.length],
				verdict: VERDICTS[random() < 0.75 ? truth : Math.floor(random() * 3)],
				relevance: Math.max(1, Math.min(5, relevance + Math.round((random() - 0.5) * 2.4)))
			});
		});
	}
	return {
		datasetId: 4,
		judgements,
		outcomes: { agreed: 1, adjudicated: 2, pending: 3 },
		excluded: { judgements: 0, raters: 0, reasons: [] }
	};
}

describe('agreement reports, pinned to the previous implementation', () => {
	const options = { resamples: 300, seed: 'pinned' };

	it('gives the study report exactly', () => {
		const report = studyReport(studyFixture(60), options);
		expect(report.inputs).toEqual(PINNED.study.inputs);
		expect(report.ranking.wMean).toEqual(PINNED.study.wMean);
		expect(report.ranking.tagsAlpha).toEqual(PINNED.study.tagsAlpha);
		expect(report.metrics[0].accuracy).toEqual(PINNED.study.firstAccuracy);
		const expert = report.leaderboards.expert;
		expect(expert.map((e) => [e.model, e.strength])).toEqual(
			PINNED.study.experts.map((e) => [e.model, e.strength])
		);
		PINNED.study.experts.forEach(({ interval }, i) => {
			const now = expert[i].interval as typeof interval;
			expect(now).toMatchObject({ level: 0.95, resamples: 300, valid: interval.valid });
			expect(Math.abs(now.low / interval.low - 1)).toBeLessThan(1e-6);
			expect(Math.abs(now.high / interval.high - 1)).toBeLessThan(1e-6);
		});
		const withoutIntervals = {
			...report,
			leaderboards: {
				...report.leaderboards,
				expert: expert.map((e) => ({ model: e.model, strength: e.strength }))
			}
		};
		expect(digest(withoutIntervals)).toBe(PINNED.study.digestWithoutExpertIntervals);
		expect(digest(report)).toBe(PINNED.study.digest);
		expect(digest(studyReport(studyFixture(60), { ...options, resamples: 0 }))).toBe(
			PINNED.study.digestPlain
		);
	});

	it('gives the verification report exactly', () => {
		const report = verificationReport(verificationFixture(400), options);
		expect(report.inputs).toEqual(PINNED.verification.inputs);
		expect(report.overall.verdict.cohen_kappa).toEqual(PINNED.verification.kappa);
		expect(report.overall.relevance.icc2_1).toEqual(PINNED.verification.icc);
		expect(digest(report)).toBe(PINNED.verification.digest);
		expect(digest(verificationReport(verificationFixture(400), { ...options, resamples: 0 }))).toBe(
			PINNED.verification.digestPlain
		);
	});
});

// Computed by the implementation before the faster per-resample computation (see the top).
const PINNED = {
	study: {
		inputs: { rankings: 164, questions: 60, physicians: 3, entries: 820 },
		wMean: {
			stat: { value: 0.7759474492502022 },
			interval: {
				low: 0.7369669785019844,
				high: 0.8154152849695963,
				level: 0.95,
				resamples: 300,
				valid: 300
			}
		},
		tagsAlpha: {
			stat: { value: 0.87268271661492 },
			interval: {
				low: 0.8394514122678335,
				high: 0.9000616881244133,
				level: 0.95,
				resamples: 300,
				valid: 300
			}
		},
		firstAccuracy: {
			stat: { value: 0.9090909090909091 },
			interval: {
				low: 0.8824800777914809,
				high: 0.933475935828877,
				level: 0.95,
				resamples: 300,
				valid: 300
			}
		},
		// The previous implementation's leaderboard (MM refits): intervals to within 1e-6 now.
		experts: [
			{
				model: 'alpha',
				strength: 0.2385345316735905,
				interval: {
					low: 0.1873348714071418,
					high: 0.2984896426056047,
					level: 0.95,
					resamples: 300,
					valid: 300
				}
			},
			{
				model: 'gamma',
				strength: 0.23328486226529843,
				interval: {
					low: 0.18117717730079386,
					high: 0.2881826692144415,
					level: 0.95,
					resamples: 300,
					valid: 300
				}
			},
			{
				model: 'delta',
				strength: 0.18679330783366593,
				interval: {
					low: 0.14793519374895378,
					high: 0.23002463598314452,
					level: 0.95,
					resamples: 300,
					valid: 300
				}
			},
			{
				model: 'beta',
				strength: 0.17933715485436086,
				interval: {
					low: 0.13532646818064045,
					high: 0.23599044789876195,
					level: 0.95,
					resamples: 300,
					valid: 300
				}
			},
			{
				model: 'Reference',
				strength: 0.16205014337308438,
				interval: {
					low: 0.12512932149929223,
					high: 0.20817202768708526,
					level: 0.95,
					resamples: 300,
					valid: 300
				}
			}
		],
		// All of the report but those intervals, by the previous implementation: unchanged.
		digestWithoutExpertIntervals:
			'1160a03839b885e9ee26a5501c65689dfb2adbf72f0367014e0a06fcc4bf3b09',
		// The report with the chord method's intervals.
		digest: 'e5855811f8fa0bca225a9d367b485b51978a355fba982a800667febda8e277e4',
		digestPlain: 'f99db4be1fff946cdf1f125db16abe1f76ec5143b6520b84cc0da576d1d16b97'
	},
	verification: {
		inputs: { reviews: 656, items: 400, doubleReviewed: 256 },
		kappa: {
			stat: { value: 0.5247633671762199 },
			interval: {
				low: 0.44330174040480747,
				high: 0.6001002215850314,
				level: 0.95,
				resamples: 300,
				valid: 300
			}
		},
		icc: {
			stat: { value: 0.7625831721392397 },
			interval: {
				low: 0.7139997979950448,
				high: 0.8105081192543281,
				level: 0.95,
				resamples: 300,
				valid: 300
			}
		},
		digest: 'c0960845c898d37e6308ffbe6a1ca5b114d97adb4347227d5e65606d2e060522',
		digestPlain: '8c778ece5f31300caae3616ad27dc2b15e7bd6d28949b966e53db60ba4fccf97'
	}
};
