import type { Db } from '../../db/client';
import { QA_TYPES, VERDICTS, type QaType, type Verdict } from '../../../constants';
import {
	cohenKappa,
	icc,
	krippendorffAlpha,
	percentAgreement,
	weightedKappa
} from '../../../stats/ratings';
import { pairedRatingEstimates } from '../../../stats/ratings-bootstrap';
import { tooFewUnits } from '../../../stats/bootstrap';
import {
	defined,
	undefinedStat,
	type Interval,
	type Rating,
	type Stat
} from '../../../stats/types';
import { reviewJudgements, verificationOutcomes, type ReviewJudgement } from './extract';
import { excludedReviewCounts } from '../exclusions';
import { reportPart } from '../../progress';
import { resamplesPart } from './background';

/** Options every agreement computation takes: bootstrap resamples (0: no intervals) and seed. */
export interface AgreementOptions {
	resamples: number;
	seed: string;
}

/** A statistic with its bootstrap interval. */
export interface Estimate {
	stat: Stat;
	interval: Interval;
}

/** The GP relevance scale, in order. */
export const RELEVANCE_ORDER = [1, 2, 3, 4, 5];

export const VERDICT_STATS = ['percent_agreement', 'cohen_kappa', 'alpha_nominal'] as const;
export const RELEVANCE_STATS = [
	'percent_agreement',
	'weighted_kappa_linear',
	'weighted_kappa_quadratic',
	'alpha_ordinal',
	'icc2_1'
] as const;
export type VerdictStat = (typeof VERDICT_STATS)[number];
export type RelevanceStat = (typeof RELEVANCE_STATS)[number];

/** Agreement between two reviews of the same items. */
export interface PairAgreement {
	/** Items with both reviews. */
	items: number;
	verdict: Record<VerdictStat, Estimate>;
	relevance: Record<RelevanceStat, Estimate>;
}

/** Verification agreement of one dataset (see the folder's README for each number's definition). */
export interface VerificationAgreement {
	datasetId: number;
	options: AgreementOptions;
	/** Latest review revisions read, and items with a primary and a secondary review. */
	inputs: { reviews: number; items: number; doubleReviewed: number };
	/** Reviews (latest revisions) excluded reviewers' exclusions of every study leave out. */
	excluded: { judgements: number; raters: number; reasons: string[] };
	overall: PairAgreement;
	byType: ({ type: QaType } & PairAgreement)[];
	/** Each reviewer's reviews against the other review of the same items. */
	byReviewer: ({ reviewer: string } & PairAgreement)[];
	/** counts[i][j]: items whose primary verdict is verdicts[i] and secondary verdicts[j]. */
	matrix: { verdicts: Verdict[]; counts: number[][] };
	outcomes: { agreed: number; adjudicated: number; pending: number };
}

/** Two reviews of one item; `a` is the primary review, or the reviewer's own in per-reviewer rows. */
export interface ReviewPair {
	item: number;
	type: QaType;
	a: ReviewJudgement;
	b: ReviewJudgement;
}

/** The items with both rounds reviewed, primary first. */
export function reviewPairs(judgements: ReviewJudgement[]): ReviewPair[] {
	const byItem = new Map<number, { primary?: ReviewJudgement; secondary?: ReviewJudgement }>();
	for (const j of judgements) {
		const entry = byItem.get(j.item) ?? {};
		entry[j.round] = j;
		byItem.set(j.item, entry);
	}
	const pairs: ReviewPair[] = [];
	for (const [item, { primary, secondary }] of byItem) {
		if (primary && secondary) pairs.push({ item, type: primary.type, a: primary, b: secondary });
	}
	return pairs.sort((x, y) => x.item - y.item);
}

// A resample may hold an item twice: each drawn pair becomes its own unit, so it counts twice.
function ratingsOf(pairs: ReviewPair[], field: 'verdict' | 'relevance'): Rating[] {
	const ratings: Rating[] = [];
	pairs.forEach((p, i) => {
		ratings.push({ unit: String(i), rater: 'a', value: p.a[field] });
		ratings.push({ unit: String(i), rater: 'b', value: p.b[field] });
	});
	return ratings;
}

const VERDICT_FNS: Record<VerdictStat, (r: Rating[]) => Stat> = {
	percent_agreement: percentAgreement,
	cohen_kappa: cohenKappa,
	alpha_nominal: (r) => krippendorffAlpha(r, 'nominal')
};
const RELEVANCE_FNS: Record<RelevanceStat, (r: Rating[]) => Stat> = {
	percent_agreement: percentAgreement,
	weighted_kappa_linear: (r) => weightedKappa(r, 'linear', RELEVANCE_ORDER),
	weighted_kappa_quadratic: (r) => weightedKappa(r, 'quadratic', RELEVANCE_ORDER),
	alpha_ordinal: (r) => krippendorffAlpha(r, 'ordinal', RELEVANCE_ORDER),
	icc2_1: (r) => icc(r, '2,1')
};

// Every statistic of one field with its interval from one compilation of the ratings, the
// intervals from one set of item draws (ratingEstimates resamples the units exactly as bootstrap()
// resamples the pairs). The slow statistic runs only to say why a value is undefined.
function estimates<K extends VerdictStat | RelevanceStat>(
	pairs: ReviewPair[],
	field: 'verdict' | 'relevance',
	{ values, intervals }: ReturnType<typeof pairedRatingEstimates>[number],
	fns: Record<K, (r: Rating[]) => Stat>,
	options: AgreementOptions
): Record<K, Estimate> {
	const out = {} as Record<K, Estimate>;
	// Over too few items a kappa or an alpha swings from -1 to 1 on one review: no value at all.
	const few = tooFewUnits(pairs.length, 'double-reviewed items');
	if (few) {
		for (const key of Object.keys(fns) as K[])
			out[key] = { stat: undefinedStat(few.reason), interval: few };
		return out;
	}
	let ratings: Rating[] | undefined;
	for (const key of Object.keys(fns) as K[]) {
		const value = values[key];
		const stat = value === null ? fns[key]((ratings ??= ratingsOf(pairs, field))) : defined(value);
		const interval: Interval =
			options.resamples <= 0
				? { low: null, high: null, reason: 'no bootstrap requested (0 resamples)' }
				: stat.value === null
					? { low: null, high: null, reason: stat.reason }
					: intervals![key];
		out[key] = { stat, interval };
	}
	return out;
}

/** Verdict and relevance agreement of a set of review pairs, each with a bootstrap interval over items. */
export function pairAgreement(pairs: ReviewPair[], options: AgreementOptions): PairAgreement {
	// Both fields' units are the pairs: one draw of pairs per resample serves both. The ratings of
	// ratingsOf, given as each pair's two values (the same numbers, without building them).
	const [verdictEstimates, relevanceEstimates] = pairedRatingEstimates(
		[
			{ a: pairs.map((p) => p.a.verdict), b: pairs.map((p) => p.b.verdict), keys: VERDICT_STATS },
			{
				a: pairs.map((p) => p.a.relevance),
				b: pairs.map((p) => p.b.relevance),
				order: RELEVANCE_ORDER,
				keys: RELEVANCE_STATS
			}
		],
		{ resamples: Math.max(0, options.resamples), seed: options.seed }
	);
	return {
		items: pairs.length,
		verdict: estimates(pairs, 'verdict', verdictEstimates, VERDICT_FNS, options),
		relevance: estimates(pairs, 'relevance', relevanceEstimates, RELEVANCE_FNS, options)
	};
}

/** The verdict disagreement matrix: primary verdict (rows) × secondary verdict (columns). */
export function verdictMatrix(pairs: ReviewPair[]): VerificationAgreement['matrix'] {
	const verdicts = [...VERDICTS];
	const counts = verdicts.map(() => verdicts.map(() => 0));
	for (const p of pairs) counts[verdicts.indexOf(p.a.verdict)][verdicts.indexOf(p.b.verdict)]++;
	return { verdicts, counts };
}

/** What a dataset's verification report is computed from. */
export interface VerificationInput {
	datasetId: number;
	judgements: ReviewJudgement[];
	outcomes: VerificationAgreement['outcomes'];
	excluded: VerificationAgreement['excluded'];
}

/** The extraction queries of a dataset's verification report (see verificationReport). */
export async function verificationInput(db: Db, datasetId: number): Promise<VerificationInput> {
	const [judgements, outcomes, excluded] = await Promise.all([
		reviewJudgements(db, datasetId),
		verificationOutcomes(db, datasetId),
		excludedReviewCounts(db, datasetId)
	]);
	return { datasetId, judgements, outcomes, excluded };
}

/** The report of verificationAgreement from its extracted input: no database, the same numbers. */
export function verificationReport(
	input: VerificationInput,
	options: AgreementOptions
): VerificationAgreement {
	const { datasetId, judgements, outcomes, excluded } = input;
	const pairs = reviewPairs(judgements);
	const byType = QA_TYPES.map((type) => ({
		type,
		...pairAgreement(
			pairs.filter((p) => p.type === type),
			options
		)
	})).filter((t) => t.items > 0);
	// Each reviewer's pairs with their own judgement first, whichever round it was: one pass.
	const own = new Map<string, ReviewPair[]>();
	for (const p of pairs) {
		for (const [mine, other] of [
			[p.a, p.b],
			[p.b, p.a]
		]) {
			const list = own.get(mine.reviewer) ?? [];
			list.push({ ...p, a: mine, b: other });
			own.set(mine.reviewer, list);
		}
	}
	const byReviewer = [...own.keys()]
		.sort()
		.map((reviewer) => ({ reviewer, ...pairAgreement(own.get(reviewer)!, options) }));
	return {
		datasetId,
		options,
		inputs: {
			reviews: judgements.length,
			items: new Set(judgements.map((j) => j.item)).size,
			doubleReviewed: pairs.length
		},
		excluded,
		overall: pairAgreement(pairs, options),
		byType,
		byReviewer,
		matrix: verdictMatrix(pairs),
		outcomes
	};
}

/** Primary against secondary reviews of one dataset: overall, per type, per reviewer, with intervals. */
export async function verificationAgreement(
	db: Db,
	datasetId: number,
	options: AgreementOptions
): Promise<VerificationAgreement> {
	await reportPart(1, 2, 'reading the reviews');
	const input = await verificationInput(db, datasetId);
	await reportPart(2, 2, resamplesPart('agreement between reviewers', options.resamples));
	return verificationReport(input, options);
}
