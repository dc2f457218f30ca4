-- An item's outcome, as a database function: its workflow state, provenance and final judgement
-- from its reviews and adjudication. src/lib/server/domain/items (outcome.ts) and the review
-- functions (review.sql) call it.
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- An item's workflow state, provenance and final judgement from its reviews and adjudication: the
-- single place these columns are written. Only the reviews of the item's current tasks are read (a
-- task retired after an exclusion of its reviewer is not: review_task_reopen, review.sql). Withdrawn items stay withdrawn (no row returned).
-- Called by review_submit (review.sql) and items/outcome.ts `resolveItemOutcome`.
CREATE OR REPLACE FUNCTION item_resolve_outcome(p_item integer)
RETURNS TABLE (status item_status, provenance provenance, final_verdict verdict, final_relevance smallint)
LANGUAGE plpgsql ROWS 1 AS $$
#variable_conflict use_column
DECLARE
	it record;
	o_status item_status;
	o_provenance provenance;
	o_verdict verdict;
	o_relevance smallint;
BEGIN
	-- One statement reads the item, its latest adjudication and the latest review of each round
	-- (each subquery an index lookup): the review path calls this on every submission.
	SELECT i.status, i.in_secondary_sample AS sampled, d.disagree_on_verdict, d.relevance_gap,
		adj.verdict AS adj_verdict, adj.relevance AS adj_relevance, adj.found AS adjudicated,
		pri.verdict AS pri_verdict, pri.relevance AS pri_relevance, pri.found AS primary_found,
		sec.verdict AS sec_verdict, sec.relevance AS sec_relevance, sec.found AS secondary_found
	INTO it
	FROM qa_item i JOIN dataset d ON d.id = i.dataset_id
	LEFT JOIN LATERAL (SELECT a.verdict, a.relevance, true AS found FROM adjudication a
		WHERE a.item_id = i.id ORDER BY a.id DESC LIMIT 1) adj ON true
	LEFT JOIN LATERAL (SELECT r.verdict, r.relevance, true AS found
		FROM review r JOIN review_task t ON t.id = r.task_id
		WHERE r.item_id = i.id AND r.round = 'primary' AND t.retired_at IS NULL
		ORDER BY r.revision DESC, r.id DESC LIMIT 1) pri ON true
	LEFT JOIN LATERAL (SELECT r.verdict, r.relevance, true AS found
		FROM review r JOIN review_task t ON t.id = r.task_id
		WHERE r.item_id = i.id AND r.round = 'secondary' AND t.retired_at IS NULL
		ORDER BY r.revision DESC, r.id DESC LIMIT 1) sec ON true
	WHERE i.id = p_item;
	IF NOT FOUND OR it.status = 'withdrawn' THEN
		RETURN;
	END IF;
	IF it.adjudicated THEN
		o_status := 'done'; o_provenance := 'adjudicated';
		o_verdict := it.adj_verdict; o_relevance := it.adj_relevance;
	ELSIF it.primary_found IS NULL THEN
		o_status := 'awaiting_primary';
	ELSIF NOT it.sampled THEN
		o_status := 'done'; o_provenance := 'single';
		o_verdict := it.pri_verdict; o_relevance := it.pri_relevance;
	ELSIF it.secondary_found IS NULL THEN
		o_status := 'awaiting_secondary';
	ELSIF (it.disagree_on_verdict AND it.pri_verdict <> it.sec_verdict)
		OR abs(it.pri_relevance - it.sec_relevance) >= it.relevance_gap THEN
		-- Differing verdicts (when the dataset counts them) or relevance at least the gap apart.
		o_status := 'awaiting_adjudication';
	ELSE
		-- Agreeing reviews: the more cautious verdict and the lower relevance, so an item only
		-- reaches a snapshot when both reviewers rated it that high.
		o_status := 'done'; o_provenance := 'agreed';
		o_verdict := CASE
			WHEN array_position(ARRAY['correct', 'cannot_tell', 'incorrect']::verdict[], it.pri_verdict)
				>= array_position(ARRAY['correct', 'cannot_tell', 'incorrect']::verdict[], it.sec_verdict)
			THEN it.pri_verdict ELSE it.sec_verdict END;
		o_relevance := least(it.pri_relevance, it.sec_relevance);
	END IF;
	UPDATE qa_item SET status = o_status, provenance = o_provenance, final_verdict = o_verdict,
		final_relevance = o_relevance, updated_at = now()
	WHERE id = p_item;
	RETURN QUERY SELECT o_status, o_provenance, o_verdict, o_relevance;
END $$;
