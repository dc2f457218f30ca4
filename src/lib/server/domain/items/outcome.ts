import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import type { Db, Tx } from '../../db/client';
import type { ItemStatus, Provenance, Verdict } from '../../../constants';

/** An item's workflow state and final judgement, as its reviews and adjudication resolve it. */
export interface Outcome {
	/** The workflow state; the verdict is in finalVerdict whatever it is. */
	status: ItemStatus;
	provenance: Provenance | null;
	finalVerdict: Verdict | null;
	finalRelevance: number | null;
}

/**
 * Recomputes an item's workflow state, provenance and final judgement from its reviews and
 * adjudication (`item_resolve_outcome`). The single place these columns are written, so
 * submissions, amendments, sampling and adjudication cannot disagree about an item's state. The
 * rules: an adjudication decides; without a primary review the item awaits one; outside the
 * secondary sample the primary review decides; in it, the item awaits the secondary review, then
 * adjudication when the two disagree (differing verdicts where the dataset
 * counts them, or relevance at least the dataset's gap apart), else the agreeing reviews give the
 * more cautious verdict (correct < cannot tell < incorrect) and the lower relevance. `done` means
 * no step is left, whatever the verdict; whether the item is verified (correct) or held (open
 * dispute or feedback) is read with `itemOutcome` and `heldSql`. Withdrawn items stay withdrawn.
 */
export async function resolveItemOutcome(tx: Db | Tx, itemId: number): Promise<Outcome | null> {
	// item_resolve_outcome: src/lib/server/db/functions/items.sql
	const [row] = rowsOf<{
		status: ItemStatus;
		provenance: Provenance | null;
		final_verdict: Verdict | null;
		final_relevance: number | null;
	}>(await tx.execute(sql`select * from item_resolve_outcome(${itemId})`));
	if (!row) return null;
	return {
		status: row.status,
		provenance: row.provenance,
		finalVerdict: row.final_verdict,
		finalRelevance: row.final_relevance
	};
}
