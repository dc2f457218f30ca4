-- An item's place in the secondary sample, as a database function. src/lib/server/domain/verification
-- (sampling.ts) and the test fixtures call it.
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- Puts items into (p_sampled true) or out of the secondary sample and moves the reviewer_tally rows
-- of their primary reviewers to match. Returns how many items changed. The tallies are moved in a
-- second statement, after the items are locked: a review submitted meanwhile either committed
-- before (and is counted here) or waits and counts itself with the new flag.
-- Called by sampling.ts `markSampled`, the only way an item's sample flag changes.
CREATE OR REPLACE FUNCTION qa_item_mark_sampled(p_items integer[], p_sampled boolean)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	v_changed integer[];
BEGIN
	WITH changed AS (
		UPDATE qa_item SET in_secondary_sample = p_sampled, updated_at = now()
		WHERE id = ANY (p_items) AND in_secondary_sample <> p_sampled
		RETURNING id
	)
	SELECT coalesce(array_agg(id), '{}') INTO v_changed FROM changed;
	IF cardinality(v_changed) = 0 THEN
		RETURN 0;
	END IF;
	UPDATE reviewer_tally m
	SET sampled = m.sampled + CASE WHEN p_sampled THEN d.n ELSE -d.n END
	FROM (
		SELECT r.reviewer_id, i.dataset_id, count(*)::int AS n
		FROM review r JOIN qa_item i ON i.id = r.item_id
		WHERE r.item_id = ANY (v_changed) AND r.round = 'primary' AND r.revision = 1
		GROUP BY r.reviewer_id, i.dataset_id
	) d
	WHERE m.user_id = d.reviewer_id AND m.dataset_id = d.dataset_id;
	RETURN cardinality(v_changed);
END $$;
