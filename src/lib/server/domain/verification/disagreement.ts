import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { adjudication, dataset, qaItem, review } from '../../db/schema';
import type { ItemStatus, Provenance, Verdict } from '../../../constants';

export interface DisagreementRules {
	/** Differing verdicts count as a disagreement. */
	disagreeOnVerdict: boolean;
	/** GP relevance differing by at least this many points counts as a disagreement. */
	relevanceGap: number;
}

export interface Judgement {
	verdict: Verdict;
	relevance: number;
}

/** Whether two independent judgements of one item disagree under the dataset's rules. */
export function isDisagreement(a: Judgement, b: Judgement, rules: DisagreementRules): boolean {
	if (rules.disagreeOnVerdict && a.verdict !== b.verdict) return true;
	return Math.abs(a.relevance - b.relevance) >= rules.relevanceGap;
}

// The more cautious verdict wins when two agreeing reviews still differ (rules may ignore verdicts).
const CAUTION: Record<Verdict, number> = { correct: 0, cannot_tell: 1, incorrect: 2 };

/**
 * The final judgement of two agreeing reviews: the more cautious verdict and the lower relevance,
 * so an item only reaches a snapshot when both reviewers rated it that high.
 */
export function agreedJudgement(a: Judgement, b: Judgement): Judgement {
	return {
		verdict: CAUTION[a.verdict] >= CAUTION[b.verdict] ? a.verdict : b.verdict,
		relevance: Math.min(a.relevance, b.relevance)
	};
}

interface Outcome {
	/** The workflow state; the verdict is in finalVerdict whatever it is. */
	status: ItemStatus;
	provenance: Provenance | null;
	finalVerdict: Verdict | null;
	finalRelevance: number | null;
}

/** The latest revision of each round's review of an item. */
export async function latestReviews(db: Db | Tx, itemId: number) {
	const rows = await db
		.select()
		.from(review)
		.where(eq(review.itemId, itemId))
		.orderBy(desc(review.revision), desc(review.id));
	return {
		primary: rows.find((r) => r.round === 'primary') ?? null,
		secondary: rows.find((r) => r.round === 'secondary') ?? null
	};
}

/**
 * Recomputes an item's workflow state, provenance and final judgement from its reviews and
 * adjudication. The single place these columns are written, so submissions, amendments, sampling
 * and adjudication cannot disagree about an item's state. `done` means no step is left, whatever
 * the verdict; whether the item is verified (correct) or held (open dispute or feedback) is read
 * with `itemOutcome` and `heldSql`. Withdrawn items stay withdrawn.
 */
export async function resolveItemOutcome(tx: Tx, itemId: number): Promise<Outcome | null> {
	const [item] = await tx
		.select({
			status: qaItem.status,
			sampled: qaItem.inSecondarySample,
			disagreeOnVerdict: dataset.disagreeOnVerdict,
			relevanceGap: dataset.relevanceGap
		})
		.from(qaItem)
		.innerJoin(dataset, eq(dataset.id, qaItem.datasetId))
		.where(eq(qaItem.id, itemId));
	if (!item || item.status === 'withdrawn') return null;
	const [adj] = await tx
		.select()
		.from(adjudication)
		.where(eq(adjudication.itemId, itemId))
		.orderBy(desc(adjudication.id))
		.limit(1);
	const { primary, secondary } = await latestReviews(tx, itemId);
	let outcome: Outcome;
	if (adj) {
		outcome = {
			status: 'done',
			provenance: 'adjudicated',
			finalVerdict: adj.verdict,
			finalRelevance: adj.relevance
		};
	} else if (!primary) {
		outcome = {
			status: 'awaiting_primary',
			provenance: null,
			finalVerdict: null,
			finalRelevance: null
		};
	} else if (!item.sampled) {
		outcome = {
			status: 'done',
			provenance: 'single',
			finalVerdict: primary.verdict,
			finalRelevance: primary.relevance
		};
	} else if (!secondary) {
		outcome = {
			status: 'awaiting_secondary',
			provenance: null,
			finalVerdict: null,
			finalRelevance: null
		};
	} else if (isDisagreement(primary, secondary, item)) {
		outcome = {
			status: 'awaiting_adjudication',
			provenance: null,
			finalVerdict: null,
			finalRelevance: null
		};
	} else {
		const agreed = agreedJudgement(primary, secondary);
		outcome = {
			status: 'done',
			provenance: 'agreed',
			finalVerdict: agreed.verdict,
			finalRelevance: agreed.relevance
		};
	}
	await tx
		.update(qaItem)
		.set({ ...outcome, updatedAt: sql`now()` })
		.where(and(eq(qaItem.id, itemId)));
	return outcome;
}
